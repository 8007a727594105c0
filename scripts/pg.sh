#!/usr/bin/env bash
# pg.sh start DIR | stop DIR: a throwaway PostgreSQL cluster for the tests (docs/deploy.md,
# "PostgreSQL").
#
# start: initdb into DIR/data as an unprivileged user (the `postgres` system user Debian's
# package makes when run as root, since initdb refuses root; else the caller), listening on a
# Unix socket in DIR only (no TCP port), a database `opsim`; prints its URI and writes it to
# DIR/uri. Where that user cannot reach DIR (a build folder under a private home) or its path is
# too long for a socket's (107 bytes), the cluster lives in a new folder under /tmp instead,
# named in DIR/run. A cluster already running there is stopped and made afresh.
# stop: stops the cluster and removes its data.
# It never touches a system cluster or service: everything lives in DIR (or its /tmp folder).
set -euo pipefail

usage() {
  echo "usage: $0 start DIR | stop DIR" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage
cmd=$1
dir=$(realpath -m "$2")

bindir=$(find /usr/lib/postgresql -maxdepth 3 -name initdb -path '*/bin/*' 2>/dev/null |
  sort -V | tail -n 1 | xargs -r dirname)
if [[ -z "$bindir" ]]; then
  echo "pg.sh: PostgreSQL's server is not installed (Debian: apt-get install postgresql)" >&2
  exit 1
fi

owner=$(id -un)
as_owner=()
if [[ $(id -u) -eq 0 ]]; then
  owner=postgres
  as_owner=(runuser -u postgres --)
fi

# Where the cluster lives: DIR, or the /tmp folder DIR/run names.
run_dir() {
  if [[ -f "$dir/run" ]]; then cat "$dir/run"; else echo "$dir"; fi
}

stop_cluster() {
  local run
  run=$(run_dir)
  if [[ -f "$run/data/postmaster.pid" ]]; then
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$run/data" -m fast -w stop >/dev/null
  fi
  rm -rf "$run/data" "$dir/uri"
  if [[ "$run" != "$dir" ]]; then
    rm -rf "$run"
    rm -f "$dir/run"
  fi
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    stop_cluster
    run=$dir
    [[ $(id -u) -ne 0 ]] || chown postgres: "$run"
    chmod 700 "$run"
    if ((${#run} > 80)) || ! "${as_owner[@]}" test -w "$run"; then
      run=$(mktemp -d /tmp/opsim-pg.XXXXXX)
      [[ $(id -u) -ne 0 ]] || chown postgres: "$run"
      echo "$run" >"$dir/run"
    fi
    "${as_owner[@]}" "$bindir/initdb" -D "$run/data" -U "$owner" --auth=trust \
      --encoding=UTF8 --locale=C >"$dir/initdb.log"
    # fsync off: a test cluster's data is thrown away, so a crash may lose it.
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$run/data" -l "$run/server.log" -w \
      -o "-c listen_addresses='' -c unix_socket_directories='$run' -c fsync=off" start \
      >/dev/null
    "${as_owner[@]}" "$bindir/createdb" -h "$run" -U "$owner" opsim
    uri="postgresql:///opsim?host=$run&user=$owner"
    echo "$uri" >"$dir/uri"
    echo "$uri"
    ;;
  stop)
    stop_cluster
    ;;
  *) usage ;;
esac
