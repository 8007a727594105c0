#!/usr/bin/env bash
# ctest bench.load: opsim-load against `opsim serve` on 127.0.0.1 (a fresh games folder, the
# bundled game) for 2 s with a few clients. Fails if the server does not start, or if opsim-load
# reports an error or a lost order (its exit code). scripts/load.sh is the full load test.
#
#   load_smoke.sh OPSIM OPSIM_LOAD ORDERS_DIR
set -euo pipefail
opsim="$1" load="$2" orders="$3"
work="$(mktemp -d)"
trap 'kill -TERM "${server:-0}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
"$opsim" serve --games "$work/games" --port 0 --json >"$work/serve.json" 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do [[ -s "$work/serve.json" ]] && break; sleep 0.1; done
if [[ ! -s "$work/serve.json" ]]; then
  echo "load_smoke: opsim serve did not start" >&2
  cat "$work/serve.log" >&2
  exit 1
fi
port="$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["port"])' \
  "$work/serve.json")"
"$load" --port "$port" --orders "$orders" --clients 5 --seconds 2 --games 2
