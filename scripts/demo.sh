#!/usr/bin/env bash
# Sets up, builds, and runs opsim's main job on the bundled scenario. It installs and builds only
# what the demo runs (opsim): a new build folder is made without the tests and benchmarks, which
# test.sh adds to it; one that has them keeps them.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
opsim_setup
config=(-DCMAKE_BUILD_TYPE=Release)
[[ -f "$OPSIM_ROOT/build/build.ninja" ]] || config+=(-DOPSIM_TESTS=OFF)
opsim_build "$OPSIM_ROOT/build" "${config[@]}" -- opsim
cd "$OPSIM_ROOT"
exec bash scripts/demo-run.sh build/bin/opsim
