#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/, with Clang, ASan and UBSan) into build-fuzz/ and runs
# each for a bounded time from seeds copied out of scenarios/, the test fixtures and fuzz/seeds/.
# Fails on any crash, leak, timeout or sanitizer report; the input that did it is kept in
# build-fuzz/crashes/. Prints each harness's executions and executions per second.
#
#   scripts/fuzz.sh [--minutes N | --seconds N] [--jobs J] [HARNESS...]
#
# Defaults: 1 minute per harness, nproc harnesses at once, every harness fuzz/CMakeLists.txt builds.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

seconds=60
jobs="$(nproc)"
harnesses=()
while (($#)); do
  case "$1" in
    --minutes) seconds=$(($2 * 60)); shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) harnesses+=("$1"); shift ;;
  esac
done
if ((${#harnesses[@]} == 0)); then  # every harness fuzz/CMakeLists.txt builds
  read -ra harnesses < <(sed -n 's/^foreach(harness \(.*\))$/\1/p' "$OPSIM_ROOT/fuzz/CMakeLists.txt")
  ((${#harnesses[@]})) || { echo "fuzz.sh: no foreach(harness ...) in fuzz/CMakeLists.txt" >&2; exit 2; }
fi

opsim_setup --tests
dir="$OPSIM_ROOT/build-fuzz"
# The build test.sh ran the sanitizer tests in: only the harnesses are left to build there.
opsim_build "$dir" "${OPSIM_FUZZ_CONFIG[@]}" -- fuzz

# The seeds: every harness's corpus starts from them and keeps what libFuzzer finds.
# seed HARNESS FILE...: each copied under its folder's name and its own (the bundled games'
# orders share file names).
seed() {
  mkdir -p "$dir/corpus/$1"
  local f
  for f in "${@:2}"; do
    cp -f "$f" "$dir/corpus/$1/$(basename "$(dirname "$f")")-$(basename "$f")"
  done
}
root="$OPSIM_ROOT"
seed scenario "$root"/scenarios/*.json
seed orders "$root"/scenarios/orders/*/*.json
seed rules "$root"/libops/data/base-rules.json "$root"/fuzz/seeds/rules/*
seed board "$root"/scenarios/tactical/*.json "$root"/tests/tactical/boards/*.json
seed log "$root"/tests/db/fixtures/*.sqlite
seed action "$root"/fuzz/seeds/action/*
seed tokens "$root"/fuzz/seeds/tokens/*
seed api "$root"/fuzz/seeds/api/*
seed http "$root"/fuzz/seeds/http/*
# API requests (fuzz/api_fuzz.cpp: the request line, the token, the body) around the bundled
# orders and scenario: submitted, checked, run for odds, uploaded.
for f in "$root"/scenarios/orders/*/*.json; do
  n="$(basename "$(dirname "$f")")-$(basename "$f" .json)"
  side=axis
  [[ "$n" == *allied* ]] && side=allied
  printf 'POST /api/games/{game}/orders\n%s\n' "$side" | cat - "$f" >"$dir/corpus/api/orders-$n"
  { printf 'POST /api/games/{game}/check\n%s\n{"orders": ' "$side"; cat "$f"; printf '}'; } \
    >"$dir/corpus/api/check-$n"
  { printf 'POST /api/games/{log}/odds\n\n{"runs": 3, "orders": '; cat "$f"; printf '}'; } \
    >"$dir/corpus/api/odds-$n"
done
{ printf 'POST /api/games\nnone\n{"scenario_json": '; cat "$root"/scenarios/special-terrain.json; printf '}'; } \
  >"$dir/corpus/api/create-upload"
for f in "$root"/tests/db/fixtures/snapshot-format*.bin; do  # the format, as one byte, first
  n="${f##*format}"
  n="${n%.bin}"
  mkdir -p "$dir/corpus/snapshot"
  { printf "\\x0$n"; cat "$f"; } >"$dir/corpus/snapshot/format$n.bin"
done
if [[ ! -f "$dir/corpus/state/t1.json" ]]; then  # a state file, as `opsim turn --out` writes it
  opsim="$root/build/bin/opsim"  # the release build's (test.sh has built it), else this build's
  if [[ ! -x "$opsim" ]]; then
    cmake --build "$dir" --parallel "$(nproc)" --target opsim
    opsim="$dir/bin/opsim"
  fi
  mkdir -p "$dir/corpus/state"
  ASAN_OPTIONS=detect_leaks=0 "$opsim" turn --scenario special-terrain --seed 1940 \
    --orders "$root/scenarios/orders/special-terrain/01-axis-may-i-1940.json" \
    --out "$dir/corpus/state/t1.json" >/dev/null
fi

run() {  # run HARNESS: its log is $dir/fuzz-logs/HARNESS.log
  local h="$1"
  mkdir -p "$dir/crashes" "$dir/fuzz-logs" "$dir/corpus/$h"
  # -timeout: an input that takes this long is reported as a hang. -max_len: the bundled
  # scenario and the fixture logs are larger than libFuzzer's default of 4096 bytes.
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_OPTIONS=detect_leaks=1 \
    "$dir/bin/${h}_fuzz" "$dir/corpus/$h" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=60 -max_len=400000 -print_final_stats=1 -artifact_prefix="$dir/crashes/$h-" \
    >"$dir/fuzz-logs/$h.log" 2>&1
}
report() {  # report HARNESS STATUS
  local log="$dir/fuzz-logs/$1.log" runs speed
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if (($2 == 0)); then
    printf '%-9s %12s runs %8s exec/s  ok\n' "$1" "${runs:-?}" "${speed:-?}"
  else
    printf '%-9s FAILED (exit %s): see %s\n' "$1" "$2" "$log"
    grep -E '^fuzz: |ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -5 >&2 || true
  fi
}

opsim_log "fuzzing ${harnesses[*]}: ${seconds}s each, $jobs at a time"
failed=0
pids=()
names=()
wait_one() {  # waits for the oldest running harness
  local status=0
  wait "${pids[0]}" || status=$?
  report "${names[0]}" "$status"
  ((status == 0)) || failed=1
  pids=("${pids[@]:1}")
  names=("${names[@]:1}")
}
for h in "${harnesses[@]}"; do
  ((${#pids[@]} < jobs)) || wait_one
  run "$h" &
  pids+=($!)
  names+=("$h")
done
while ((${#pids[@]})); do wait_one; done
((failed == 0)) || { opsim_log "a harness failed"; exit 1; }
opsim_log "no crash, leak or sanitizer report"
