#!/usr/bin/env bash
# Sets up, builds, and runs the whole test suite: once normally (with the browser tests in
# headless Chromium, and a short run of every benchmark and of the load test, label bench), once
# under ASan+UBSan (the server's tests included, the browser's not: they test the page, which the
# sanitizers do not see; nor the benchmarks, which that build leaves out); then each libFuzzer
# harness for 20 seconds (scripts/fuzz.sh; two at a time on two cores).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
opsim_setup --tests

opsim_build "$OPSIM_ROOT/build" -DCMAKE_BUILD_TYPE=Release -DOPSIM_TESTS=ON
opsim_log "tests (release), the browser's in headless Chromium, the benchmarks briefly"
# Chromium and Selenium are installed above: a browser test may not skip itself here.
OPSIM_REQUIRE_BROWSER=1 ctest --test-dir "$OPSIM_ROOT/build" --output-on-failure --parallel "$(nproc)"

# One sanitizer build serves the tests and the fuzzing: Clang, ASan + UBSan, libFuzzer's coverage
# (lib.sh, OPSIM_FUZZ_CONFIG). fuzz.sh then builds only the harnesses in it.
opsim_build "$OPSIM_ROOT/build-fuzz" "${OPSIM_FUZZ_CONFIG[@]}"
opsim_log "tests (AddressSanitizer + UndefinedBehaviorSanitizer)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$OPSIM_ROOT/build-fuzz" --output-on-failure --parallel "$(nproc)" -LE 'browser|bench'

opsim_log "fuzzing (libFuzzer, ASan + UBSan)"
bash "$OPSIM_ROOT/scripts/fuzz.sh" --seconds 20

opsim_log "format check"
bash "$OPSIM_ROOT/scripts/format.sh" --check
opsim_log "all tests passed"
