#!/usr/bin/env bash
# Sets up, builds, and runs opsim's main job on the bundled scenario.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
opsim_setup
opsim_build "$OPSIM_ROOT/build" -DCMAKE_BUILD_TYPE=Release
cd "$OPSIM_ROOT"
exec bash scripts/demo-run.sh build/bin/opsim
