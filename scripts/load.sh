#!/usr/bin/env bash
# The bounded load test of opsim serve (docs/performance.md, "Server"): a server on 127.0.0.1
# with a fresh games folder, then opsim-load's clients for a fixed time. Not part of test.sh.
#
#   scripts/load.sh [--clients 50] [--seconds 30] [--rate 10] [--games 5] [--big]
#
# --big also uploads a generated 100,000-hex, 2,000-unit game and mixes queries on it.
# Prints opsim-load's JSON report; exit 0 if there were no errors and no lost orders.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
opsim_setup --tests  # opsim-load is built with the benchmarks
opsim_build "$OPSIM_ROOT/build" -DCMAKE_BUILD_TYPE=Release -DOPSIM_TESTS=ON -- opsim opsim-load
cd "$OPSIM_ROOT"

args=()
big=0
while (($#)); do
  case "$1" in
    --big) big=1 ;;
    *) args+=("$1") ;;
  esac
  shift
done

work="$(mktemp -d)"
trap 'kill -TERM "${server:-0}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
if ((big)); then
  build/bin/opsim generate --hexes 100000 --units 2000 --out "$work/big.json" >&2
  args+=(--upload "$work/big.json")
fi
build/bin/opsim serve --games "$work/games" --port 0 --json >"$work/serve.json" 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do [[ -s "$work/serve.json" ]] && break; sleep 0.1; done
port="$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["port"])' "$work/serve.json")"
opsim_log "opsim serve on 127.0.0.1:$port; load for ${args[*]:-the defaults}"
build/bin/opsim-load --port "$port" --orders scenarios/orders/special-terrain "${args[@]}"
