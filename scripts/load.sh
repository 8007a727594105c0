#!/usr/bin/env bash
# The bounded load test of opsim serve (docs/performance.md, "Server"): servers on 127.0.0.1 with
# a fresh games folder or PostgreSQL store, then opsim-load's clients for a fixed time. Not part
# of test.sh.
#
#   scripts/load.sh [--store folder|pg] [--servers N] [--clients 50] [--seconds 30] [--rate 10]
#                   [--games 5] [--big]
#
# --store pg keeps the games in a throwaway PostgreSQL cluster (scripts/pg.sh) instead of a
# folder; --servers N (2 or more needs --store pg) starts N servers behind a throwaway nginx,
# round-robin (scripts/nginx.sh), and loads the proxy. --big also uploads a generated
# 100,000-hex, 2,000-unit game and mixes queries on it.
# Prints opsim-load's JSON report; exit 0 if there were no errors and no lost orders.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
opsim_setup --tests  # opsim-load is built with the benchmarks
opsim_build "$OPSIM_ROOT/build" -DCMAKE_BUILD_TYPE=Release -DOPSIM_TESTS=ON -- opsim opsim-load
cd "$OPSIM_ROOT"

args=()
big=0
store=folder
servers=1
while (($#)); do
  case "$1" in
    --big) big=1 ;;
    --store) store="$2"; shift ;;
    --servers) servers="$2"; shift ;;
    *) args+=("$1") ;;
  esac
  shift
done
if [[ "$store" != folder && "$store" != pg ]] || ! [[ "$servers" =~ ^[1-9]$ ]]; then
  echo "load.sh: --store folder|pg, --servers 1 to 9" >&2
  exit 2
fi
if ((servers > 1)) && [[ "$store" != pg ]]; then
  echo "load.sh: several servers share a PostgreSQL store: add --store pg" >&2
  exit 2
fi

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [[ -f "$work/nginx/nginx.pid" ]] && bash scripts/nginx.sh stop "$work/nginx"
  [[ "$store" == pg ]] && bash scripts/pg.sh stop "$work/pg" >/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
if ((big)); then
  build/bin/opsim generate --hexes 100000 --units 2000 --out "$work/big.json" >&2
  args+=(--upload "$work/big.json")
fi
where=(--games "$work/games")
if [[ "$store" == pg ]]; then
  where=(--store "$(bash scripts/pg.sh start "$work/pg")")
fi
ports=()
for n in $(seq "$servers"); do
  build/bin/opsim serve "${where[@]}" --port 0 --json >"$work/serve$n.json" 2>"$work/serve$n.log" &
  pids+=($!)
  for _ in $(seq 100); do [[ -s "$work/serve$n.json" ]] && break; sleep 0.1; done
  ports+=("$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["port"])' \
    "$work/serve$n.json")")
done
port=${ports[0]}
if ((servers > 1)); then
  port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  bash scripts/nginx.sh start "$work/nginx" "$port" "${ports[@]}"
  opsim_log "nginx on 127.0.0.1:$port, round-robin to opsim serve on ${ports[*]} ($store)"
else
  opsim_log "opsim serve on 127.0.0.1:$port ($store)"
fi
opsim_log "load for ${args[*]:-the defaults}"
build/bin/opsim-load --port "$port" --orders scenarios/orders/special-terrain "${args[@]}"
