#!/usr/bin/env bash
# pg.sh start DIR | stop DIR: a throwaway PostgreSQL cluster for the tests (docs/deploy.md,
# "PostgreSQL").
#
# start: initdb into DIR/data as an unprivileged user (the `postgres` system user Debian's
# package makes when run as root, since initdb refuses root; else the caller), listening on a
# Unix socket in DIR only (no TCP port), a database `opsim`; prints its URI and writes it to
# DIR/uri. A cluster already running in DIR is stopped and made afresh.
# stop: stops the cluster in DIR and removes DIR/data.
# It never touches a system cluster or service: everything lives in DIR.
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

stop_cluster() {
  if [[ -f "$dir/data/postmaster.pid" ]]; then
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
  fi
  rm -rf "$dir/data" "$dir/uri"
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    stop_cluster
    [[ $(id -u) -ne 0 ]] || chown postgres: "$dir"
    chmod 700 "$dir"
    "${as_owner[@]}" "$bindir/initdb" -D "$dir/data" -U "$owner" --auth=trust \
      --encoding=UTF8 --locale=C >"$dir/initdb.log"
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=off" start \
      >/dev/null
    "${as_owner[@]}" "$bindir/createdb" -h "$dir" -U "$owner" opsim
    uri="postgresql:///opsim?host=$dir&user=$owner"
    echo "$uri" >"$dir/uri"
    echo "$uri"
    ;;
  stop)
    stop_cluster
    ;;
  *) usage ;;
esac
