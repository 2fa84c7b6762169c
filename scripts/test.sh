#!/usr/bin/env bash
# Installs what is missing, builds (warnings are errors) and runs the whole
# test suite with ctest; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
DP_SETUP_BROWSER=1 DP_SETUP_TEST_TOOLS=1 bash scripts/setup.sh
export BUILD_DIR=${BUILD_DIR:-build}
CMAKE_ARGS="-DDP_WERROR=ON ${CMAKE_ARGS:-}" bash scripts/build.sh
cd "$BUILD_DIR"
ctest --output-on-failure -j "${TEST_JOBS:-2}" --timeout 600 "$@"
