#!/usr/bin/env bash
# The main job, given the opsim executable: Rule 41 on the test-bed scenario (special-terrain),
# then the bundled campaign (low-countries-1940) at the table and in a turn log. Called by
# demo.sh after the build; writes its files under out/.
set -euo pipefail
OPSIM="${1:-build/bin/opsim}"
OUT="${OPSIM_DEMO_OUT:-out}"
mkdir -p "$OUT"
S=special-terrain
C=low-countries-1940

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

# ---- The tactical table (issue 23): a bundled board by name, drawn with a LOS thread -----------
step "The tactical module's bundled boards (docs/tactical.md), each taken by name"
run tactical boards
step "G8.4: squad A's LOS to squad C over two In-Season paddies, and its picture"
run tactical los --board g8_2108 --paddy in-season --from A --to C
run tactical render --board g8_2108 --paddy in-season --los A,C --out "$OUT/tactical-los.svg"
step "G13.23: a Steep beach's Hinterland hides the beach; G9.6: a path across Covered hexsides"
run tactical render --board g13_23 --slope steep --los 3-4-7,6-6-8 --out "$OUT/tactical-beach-los.svg"
run tactical render --board g9_3 --double-time --path 37EE8,DD7,DD7:beneath,CC8 \
  --out "$OUT/tactical-path.svg"

step "A player-turn played from the scenario into a state file (docs/state-format.md)"
run turn --scenario "$S" --seed 1940 --orders scenarios/orders/"$S"/01-axis-may-i-1940.json \
  --out "$OUT/may-i-axis.json"

step "Asking the rules at that state: may the Allies close the Suez Canal now? Reopen it? (41.B)"
run check --state "$OUT/may-i-axis.json" --action '{"suez": "close"}'
run check --state "$OUT/may-i-axis.json" --action '{"suez": "reopen"}'

step "Is the Soviet 51st Army in supply? The line it traces, and why not (B8)"
run supply --state "$OUT/may-i-axis.json" --side allied --hex 4A:3524

# ---- Fair dice by mail (issue 11): one fair player-turn between two logs -------------------
PB="$(mktemp -d)"
step "A fair game by mail (docs/pbem.md): two logs, two key files, only small files traded"
run pbem start --scenario "$S" --side axis --db "$PB/axis.sqlite" --out "$PB/invitation.json"
run pbem join --invitation "$PB/invitation.json" --db "$PB/allied.sqlite" --out "$PB/acceptance.json"
run pbem accept --invitation "$PB/invitation.json" --acceptance "$PB/acceptance.json" \
  --db "$PB/axis.sqlite"
# The axis orders without their flood attempt, which is the allied player's reply.
printf '%s\n' '{"opsim": "orders", "version": 1, "side": "axis", "turn": "May I 1940",' \
  ' "movement": [{"units": ["de-18a"], "path": ["16A:1322", "16A:1222"]},' \
  '  {"units": ["de-9pz"], "path": ["16A:1323", "16A:1322", "16A:1221"]}],' \
  ' "combat": [{"attack": "16A:1122", "units": ["de-18a", "de-9pz"]}]}' >"$PB/axis-orders.json"
printf '%s\n' '{"reactions": [{"flood": "16A:1122"}]}' >"$PB/allied-reply.json"
run pbem move --db "$PB/axis.sqlite" --orders "$PB/axis-orders.json" --out "$PB/turn1.json"
run pbem reply --db "$PB/allied.sqlite" --turn "$PB/turn1.json" --reply "$PB/allied-reply.json" \
  --out "$PB/reply1.json"
run pbem resolve --db "$PB/axis.sqlite" --reply "$PB/reply1.json" --out "$PB/result1.json"
run pbem apply --db "$PB/allied.sqlite" --result "$PB/result1.json"
step "Both logs verify, every die re-derived from the revealed keys"
run replay --db "$PB/axis.sqlite" --verify
run replay --db "$PB/allied.sqlite" --verify
rm -rf "$PB"

# ---- The table (issue 12): opsim serve, and the bundled campaign as a browser shows it ------
step "The table: opsim serve with a new game of the campaign, the Low Countries 1940 (docs/client.md)"
# The demo's own games folder, started afresh (play your own games in another, e.g. out/games).
GAMES="$OUT/demo-games"
rm -rf "$GAMES"
mkdir -p "$GAMES"
printf '$ opsim serve --games %s --port 0 --new %s --json\n' "$GAMES" "$C"
"$OPSIM" serve --games "$GAMES" --port 0 --new "$C" --json >"$OUT/serve.json" 2>"$OUT/serve.log" &
SERVER=$!
for _ in $(seq 100); do [[ -s "$OUT/serve.json" ]] && break; sleep 0.1; done
cat "$OUT/serve.json"
AXIS_LINK="$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["url"].rstrip("/") + d["created"][0]["links"]["axis"])' "$OUT/serve.json")"
echo "the axis player's link: $AXIS_LINK"
/usr/bin/python3 scripts/screenshot.py "$AXIS_LINK" "$OUT/table.png"
step "A player-turn played step by step at the table (docs/api.md, Steps): moves, then an attack"
# What the two pages do on each click, over the API: the Axis begins his player-turn (its
# weather), ends the initial phase, lands Sturmabteilung Koch behind Eben-Emael (LC:3313, B11.3),
# drives the XVI Panzer Corps from Aachen into Maastricht (each step taken at once), ends the
# movement phase and attacks Eben-Emael (LC:3412) from both sides, across the Maas and the Albert
# Canal; each side answers the flood, retreat or advance the result asks of it.
ALLIED_LINK="$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["url"].rstrip("/") + d["created"][0]["links"]["allied"])' "$OUT/serve.json")"
STEPS="$(/usr/bin/python3 - "$AXIS_LINK" "$ALLIED_LINK" <<'PY'
import json, sys, urllib.parse, urllib.request
def seat(link):
    u = urllib.parse.urlparse(link)
    q = urllib.parse.parse_qs(u.query)
    return f"{u.scheme}://{u.netloc}/api/games/{q['game'][0]}", q["token"][0]
(base, axis), (_, allied) = seat(sys.argv[1]), seat(sys.argv[2])
def call(method, path, token, body=None):
    req = urllib.request.Request(base + path, method=method,
                                 data=b"" if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": "Bearer " + token,
                                          "Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)
def take(step, token=axis):
    a = call("POST", "/step", token, {"step": step})
    for e in a["step"]["events"]:
        print(f"  {e['kind']}: {e['text']}" + (f" [{e['rule']}]" if e.get("rule") else ""),
              file=sys.stderr)
    return a
call("POST", "/begin", axis)
for step in ({"end-phase": True},
             {"air-drop": "de-koch", "hex": "LC:3313"},
             {"units": ["de-3pz", "de-4pz", "de-20mot"], "path": ["LC:3612", "LC:3512"]},
             {"end-phase": True}):
    a = take(step)
a = take({"attack": "LC:3412", "units": ["de-koch", "de-3pz", "de-4pz", "de-20mot"]})
while a["prompt"]["waiting"] != "order":
    p = a["prompt"]
    token = axis if p["side"] == "axis" else allied
    if p["waiting"] == "flood":
        a = take({"flood": p["hex"] if "flood" in p.get("floods", []) else False}, token)
    elif p["waiting"] == "retreat":
        a = take({"hex": p["hex"], "prefer": []}, token)
    else:
        a = take({"advance": p.get("units", [])}, token)
print("now:", a["prompt"]["text"], file=sys.stderr)
print(a["steps"])
PY
)"
/usr/bin/python3 scripts/screenshot.py "$AXIS_LINK" "$OUT/table-steps.png" --wait-for "body[data-steps=\"$STEPS\"]"
kill -TERM "$SERVER"
wait "$SERVER" && echo "opsim serve: stopped on SIGTERM, exit 0"

# ---- The campaign's turn log (issue 20): its bundled player-turns, played and verified ------
CDB="$OUT/campaign.sqlite"
rm -f "$CDB" "$CDB-wal" "$CDB-shm" "$CDB".partial-*
step "The campaign's scenario, checked as opsim loads it, and counted (opsim scenario, docs/editor.md)"
run scenario check --scenario "$C"
run scenario stats --scenario "$C"
step "The campaign in a turn log: its bundled player-turns (scenarios/orders/$C/), seed 1940"
run new --scenario "$C" --db "$CDB" --seed 1940
for orders in scenarios/orders/"$C"/0*.json; do
  run turn --db "$CDB" --orders "$orders"
done
run status --db "$CDB"
step "The campaign's log replayed from its orders and dice, every hash and the chain checked"
run replay --db "$CDB" --verify

# ---- Turn log (issue 4): the test-bed campaign played into an SQLite file --------------------
# This block is the turn log's; keep it last and whole.
DB="$OUT/game.sqlite"
rm -f "$DB" "$DB-wal" "$DB-shm" "$DB".partial-*

step "A new game in a turn log (docs/log-format.md), seed 1940"
run new --scenario "$S" --db "$DB" --seed 1940

step "The bundled campaign's player-turns, each one transaction in the log"
for orders in scenarios/orders/"$S"/0*.json; do
  run turn --db "$DB" --orders "$orders"
done

step "Where the game stands"
run status --db "$DB"

step "What happened in player-turn 3: the orders, every die roll and event, with its rule"
run log --db "$DB" --turn 3

step "Queries at a past turn: supply after 3 player-turns (B8)"
run supply --db "$DB" --at 3 --side allied --all

step "The Suez Canal after 2 player-turns: temporarily closed, so no naval route through it (41.B)"
run route --db "$DB" --at 2 --mode naval --side allied --group tf,cg --from 19A:3010 --to 19A:4022
run route --db "$DB" --at 4 --mode naval --side allied --group tf,cg --from 19A:3010 --to 19A:4022

step "The whole log replayed from its orders and dice, every hash and the chain checked"
run replay --db "$DB" --verify
# ---- end of the turn log block ---------------------------------------------------------------
