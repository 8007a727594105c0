# shellcheck shell=bash
# Shared by demo.sh and test.sh: install what is missing, configure, build.
# Source it; it defines opsim_setup and opsim_build.

OPSIM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# What demo.sh needs: the compiler, the libraries opsim builds from, Chromium for the screenshot.
OPSIM_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libboost-graph-dev libboost-serialization-dev
  libsqlite3-dev sqlite3 libpqxx-dev libssl-dev zlib1g-dev
  libspdlog-dev nlohmann-json3-dev libcli11-dev
  ccache
  chromium chromium-driver python3-selenium fonts-dejavu-core
)
# What the tests add (opsim_setup --tests): GoogleTest, Google Benchmark, clang-format, Clang 16
# with its sanitizer and libFuzzer runtimes, and PostgreSQL's server (the store's tests start a
# throwaway cluster of their own: scripts/pg.sh) and nginx.
OPSIM_TEST_PACKAGES=(
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-format
  clang-16 libclang-rt-16-dev
  postgresql nginx-light
)
# The one sanitizer build (build-fuzz/): Clang, ASan + UBSan, libFuzzer's coverage in every
# library. test.sh runs the test suite in it, then fuzz.sh the harnesses, so both stages share
# one build. Line tables are all the sanitizers' stack traces print (file:line), and compile
# 10-13% faster than full debug information. Precompiled headers too (OPSIM_PCH, on by default),
# and the tests' own code at -O0 (the top-level CMakeLists.txt; docs/performance.md, "CI time").
# shellcheck disable=SC2034  # used by test.sh and fuzz.sh
OPSIM_FUZZ_CONFIG=(-DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_BUILD_TYPE=Debug
  -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only -DOPSIM_SANITIZE=ON -DOPSIM_FUZZ=ON -DOPSIM_BENCH=OFF
  -DOPSIM_PCH=ON)

# Objects compiled in one clone are reused by another (paths are hashed relative to the root).
# The sloppiness lets ccache cache what uses a precompiled header (OPSIM_PCH; ccache's manual,
# "Precompiled headers"): without the include_file ones, a header made seconds before (the
# precompiled one) turns the direct mode off, and every file that uses it misses.
export CCACHE_BASEDIR="$OPSIM_ROOT" CCACHE_NOHASHDIR=1 \
  CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime

# Each step says when it starts, in minutes since the first script did (test.sh runs fuzz.sh): a CI
# log shows each stage's time.
export OPSIM_START="${OPSIM_START:-$EPOCHSECONDS}"
opsim_log() {
  local t=$((EPOCHSECONDS - OPSIM_START))
  printf '==> [%d:%02d] %s\n' $((t / 60)) $((t % 60)) "$*" >&2
}

# opsim_setup [--tests]: installs the Debian packages opsim builds against, and with --tests the
# ones the tests add, if any is missing.
opsim_setup() {
  local wanted=("${OPSIM_PACKAGES[@]}") missing=()
  [[ "${1:-}" != --tests ]] || wanted+=("${OPSIM_TEST_PACKAGES[@]}")
  for p in "${wanted[@]}"; do
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

# opsim_configure DIR [cmake args...]: configures DIR, or applies the args to its cache (a build
# folder the demo made without the tests gets them when test.sh asks).
opsim_configure() {
  local dir="$1"
  shift
  [[ -f "$dir/build.ninja" ]] || opsim_log "configuring $dir"
  # ccache keeps compiled objects between clones and build folders (a CI run after a session
  # on the same machine rebuilds only what changed).
  cmake -S "$OPSIM_ROOT" -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "$@" >/dev/null
}

# opsim_build DIR [cmake args...] [-- TARGET...]: configures DIR, then builds the targets (all
# if none is named).
opsim_build() {
  local dir="$1" args=() targets=()
  shift
  while (($#)) && [[ "$1" != -- ]]; do args+=("$1"); shift; done
  (($#)) && shift && targets=(--target "$@")
  opsim_configure "$dir" "${args[@]}"
  opsim_log "building $dir${targets:+ (${*})}"
  cmake --build "$dir" --parallel "$(nproc)" "${targets[@]}"
}
