# shellcheck shell=bash
# Shared by demo.sh and test.sh: install what is missing, configure, build.
# Source it; it defines opsim_setup and opsim_build.

OPSIM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OPSIM_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libboost-graph-dev libboost-serialization-dev
  libsqlite3-dev sqlite3 libssl-dev zlib1g-dev
  libspdlog-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-format ccache
  clang-16 libclang-rt-16-dev
  chromium chromium-driver python3-selenium fonts-dejavu-core
)

# Objects compiled in one clone are reused by another (paths are hashed relative to the root).
export CCACHE_BASEDIR="$OPSIM_ROOT" CCACHE_NOHASHDIR=1

opsim_log() { printf '==> %s\n' "$*" >&2; }

# Installs the Debian packages opsim builds against, if any is missing.
opsim_setup() {
  local missing=()
  for p in "${OPSIM_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$p")
    fi
  done
  if ((${#missing[@]})); then
    opsim_log "installing ${missing[*]}"
    local sudo=()
    [[ $(id -u) -eq 0 ]] || sudo=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# opsim_configure DIR [cmake args...]: configures DIR once.
opsim_configure() {
  local dir="$1"
  shift
  if [[ ! -f "$dir/build.ninja" ]]; then
    opsim_log "configuring $dir"
    # ccache keeps compiled objects between clones and build folders (a CI run after a session
    # on the same machine rebuilds only what changed).
    cmake -S "$OPSIM_ROOT" -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "$@" >/dev/null
  fi
}

# opsim_build DIR [cmake args...]: configures DIR once, then builds it.
opsim_build() {
  opsim_configure "$@"
  local dir="$1"
  opsim_log "building $dir"
  cmake --build "$dir" --parallel "$(nproc)"
}
