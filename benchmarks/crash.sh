#!/usr/bin/env bash
# The crash figures of RELIABILITY.md: 50 kill -9 of the real daemon at random
# moments, then a 10-minute SIGSTOP, through the suite's crash test with
# bigger counts. Needs root and losetup (the test skips otherwise).
#   bash benchmarks/crash.sh [BUILD_DIR]      # KILLS=50 STOP_SECONDS=600 SEED=20261201
set -euo pipefail
build=${1:-build}
bin="$build/tests/e2e_test"
[ -x "$bin" ] || { echo "crash.sh: build the e2e tests first: cmake --build $build --target e2e_test" >&2; exit 1; }
export DP_CRASH_KILLS=${KILLS:-50} DP_STOP_SECONDS=${STOP_SECONDS:-600} DP_CRASH_SEED=${SEED:-20261201}
start=$(date +%s)
"$bin" --gtest_filter='CrashE2eTest.*' 2>&1 | grep -E '^(crash|stop):|^\[  (PASSED|FAILED) |OK \]|FAILED \]'
echo "crash.sh: $(( $(date +%s) - start )) s"
