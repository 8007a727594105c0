#!/usr/bin/env bash
# The main job on the bundled scenario, given the opsim executable. Called by demo.sh after
# the build; writes its files under out/.
set -euo pipefail
OPSIM="${1:-build/bin/opsim}"
OUT="${OPSIM_DEMO_OUT:-out}"
mkdir -p "$OUT"
S=special-terrain

step() { printf '\n== %s\n' "$*"; }
run() { printf '$ opsim %s\n' "$*"; "$OPSIM" "$@"; }

step "The bundled theater"
run map --scenario "$S"

step "16A:0827, where the Sloedam causeway splits the water (41.A.1)"
run map --scenario "$S" --hex 16A:0827

step "41.A.1's example: a naval unit in 16A:0827 cannot move 0827-0826-0825"
run route --scenario "$S" --mode naval --side allied --path 16A:0827,16A:0826,16A:0825
run route --scenario "$S" --mode naval --side allied --path 16A:0827,16A:0826,16A:0825 --json
echo
run route --scenario "$S" --mode naval --side allied --from 16A:0827 --to 16A:0825

step "Can this naval group reach Basra? (41.D)"
run route --scenario "$S" --mode naval --side allied --group transport --from 22A:4806 --to 22A:4313
run route --scenario "$S" --mode naval --side allied --group tf --from 22A:4806 --to 22A:4313

step "Through the Suez Canal (41.B): the Allies may, the Axis never"
run route --scenario "$S" --mode naval --side allied --group tf,cg --from 19A:3010 --to 19A:4022
run route --scenario "$S" --mode naval --side axis --group transport --from 19A:3010 --to 19A:4022

step "Ground routes: across the Sloedam (41.A.1), the Kerch hexside (41.E.1), the Sassnitz ferry (41.A.2)"
run route --scenario "$S" --mode ground --unit infantry --path 16A:0827,16A:0727
run route --scenario "$S" --mode ground --unit armor --side axis --from 4A:3530 --to 4A:3522
run route --scenario "$S" --mode ground --unit infantry --side axis --from 9A:0610 --to 9A:1001

step "A map picture"
run render --scenario "$S" --sheet 16A --out "$OUT/16A.svg" --mode naval --from 16A:0827 --to 16A:0825
run render --scenario "$S" --out "$OUT/special-terrain.svg"
