#!/usr/bin/env bash
# nginx.sh start DIR PORT BACKEND_PORT... | stop DIR: a throwaway nginx on 127.0.0.1:PORT in
# front of `opsim serve` processes on 127.0.0.1:BACKEND_PORT..., round-robin (docs/deploy.md,
# "Several servers"; the two-server tests start one).
#
# start: writes DIR/nginx.conf (the configuration docs/deploy.md shows, without TLS) and starts
# nginx with everything in DIR (pid, logs, temporary files); each answer carries the header
# X-Upstream, the backend that gave it, so that a test sees the round robin. A server that
# refuses a connection or dies is passed over for the next one for a request nginx may repeat
# (not a POST). stop: stops it (and removes nothing else).
# It never touches a system nginx or service.
set -euo pipefail

usage() {
  echo "usage: $0 start DIR PORT BACKEND_PORT... | stop DIR" >&2
  exit 2
}
[[ $# -ge 2 ]] || usage
cmd=$1
dir=$(realpath -m "$2")
nginx=$(command -v nginx || echo /usr/sbin/nginx)
if [[ ! -x "$nginx" ]]; then
  echo "nginx.sh: nginx is not installed (Debian: apt-get install nginx-light)" >&2
  exit 1
fi

case "$cmd" in
  start)
    [[ $# -ge 4 ]] || usage
    port=$3
    shift 3
    mkdir -p "$dir/tmp"
    # Its workers run as nobody when started by root: they write only the temporary files.
    chmod 1777 "$dir/tmp"
    {
      echo "pid $dir/nginx.pid;"
      echo "error_log $dir/error.log warn;"
      echo "worker_processes 1;"
      echo "events { worker_connections 512; }"
      echo "http {"
      echo "  access_log $dir/access.log;"
      for t in client_body proxy fastcgi uwsgi scgi; do echo "  ${t}_temp_path $dir/tmp/$t;"; done
      echo "  upstream opsim {"
      for backend in "$@"; do echo "    server 127.0.0.1:$backend;"; done
      echo "  }"
      cat <<CONF
  server {
    listen 127.0.0.1:$port;
    client_max_body_size 64m;
    location / {
      proxy_pass http://opsim;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For \$remote_addr;
      proxy_buffering off;
      proxy_read_timeout 1h;
      add_header X-Upstream \$upstream_addr always;
    }
  }
}
CONF
    } >"$dir/nginx.conf"
    "$nginx" -t -q -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log"
    "$nginx" -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log"
    ;;
  stop)
    if [[ -f "$dir/nginx.pid" ]]; then
      "$nginx" -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" -s stop || true
      for _ in $(seq 50); do [[ -f "$dir/nginx.pid" ]] || break; sleep 0.1; done
    fi
    ;;
  *)
    usage
    ;;
esac
