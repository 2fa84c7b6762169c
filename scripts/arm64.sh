#!/usr/bin/env bash
# Cross-builds diskpulsed and diskpulse for arm64 (aarch64) with Debian's
# cross toolchain and arm64 multiarch libraries, and runs test suites under
# qemu-user-static.
#   bash scripts/arm64.sh [SUITE...]
# SUITE is a folder of tests/ (bench store detect ...); default: the suites
# that touch memory layout, I/O buffers, parsing and storage, which the test
# command runs (tests/arm64/). "all" runs every suite. Environment:
# ARM64_BUILD_DIR (default build-arm64), JOBS (default nproc), ARM64_STEP:
# "build" only builds, "run" only runs the suites already built, unset does
# both. The test command builds once (ctest arm64_build, on both cores) and
# runs each suite as a test of its own (arm64_suite.SUITE, one core each), so
# the suites under qemu run beside the native tests instead of after them.
#   bash scripts/arm64.sh --list-default   prints the default suites
# Needs root the first time: scripts/setup.sh (DP_SETUP_ARM64=1) adds the
# arm64 architecture to dpkg and installs the toolchain, the libraries and
# qemu-user-static, and this script registers qemu for arm64 executables with
# binfmt_misc where nothing has (tests start diskpulsed and diskpulse as
# child processes, which only binfmt_misc sends through qemu).
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
build=${ARM64_BUILD_DIR:-build-arm64}
jobs=${JOBS:-$(nproc)}
default_suites=(bench store detect smart config http)
if [ "${1:-}" = --list-default ]; then
  echo "${default_suites[*]}"
  exit 0
fi
step=${ARM64_STEP:-}
case "$step" in "" | build | run) ;; *) echo "ARM64_STEP: build, run or unset" >&2; exit 2 ;; esac
suites=("$@")
[ "${#suites[@]}" -gt 0 ] || suites=("${default_suites[@]}")
if [ "${suites[0]}" = all ]; then
  suites=()
  for d in tests/*/; do
    d=$(basename "$d")
    ls tests/"$d"/*_test.cc >/dev/null 2>&1 && suites+=("$d")
  done
fi

# A missing toolchain or binfmt_misc skips (77), or fails under CI=true.
. tests/support/skip.sh
# The run step only checks (suites run at once must not install at once).
if [ "$(id -u)" -ne 0 ] || [ "$step" = run ]; then
  for t in aarch64-linux-gnu-g++ qemu-aarch64-static; do
    command -v "$t" >/dev/null || skip_without "$t" "$t is missing; run as root once (DP_SETUP_ARM64=1 bash scripts/setup.sh)"
  done
else
  DP_SETUP_ARM64=1 bash scripts/setup.sh
fi

# binfmt_misc: arm64 executables run through qemu-aarch64 (the rule Debian's
# qemu-user-static ships, which systemd-binfmt loads at boot).
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null ||
      skip_without binfmt_misc "cannot mount binfmt_misc (needs root) to run arm64 executables through qemu"
  fi
  cat /usr/lib/binfmt.d/qemu-aarch64.conf >/proc/sys/fs/binfmt_misc/register 2>/dev/null ||
    skip_without binfmt_misc "cannot register qemu-aarch64 with binfmt_misc (needs root)"
fi

# Test executables are listed by ctest when it runs them (through the
# emulator), not right after linking.
if [ "$step" != run ]; then
  cmake -S . -B "$build" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/aarch64-linux-gnu.toolchain.cmake" \
    -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} -DDP_WERROR=ON \
    -DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST ${CMAKE_ARGS:-} >/dev/null
  targets=(diskpulsed diskpulse)
  for s in "${suites[@]}"; do targets+=("${s}_test"); done
  cmake --build "$build" -j "$jobs" --target "${targets[@]}"
  file "$build/service/diskpulsed" "$build/service/diskpulse" | sed "s|$src/||"
  if [ "$step" = build ]; then
    echo "arm64: built: ${suites[*]}"
    exit 0
  fi
fi

# Each suite's executable under qemu (binfmt_misc), as ctest runs the native
# ones: the http suite records its responses for the OpenAPI check, which
# then runs natively on them. One record a run, so suites run apart from each
# other do not share it.
record=$build/tests/openapi-responses-$$.jsonl
# The tests that time real devices (tests/timed_tests.txt) measure the CPU
# qemu emulates, not our code, and are left out here; natively they run.
untimed=-$(grep -v '^#' tests/timed_tests.txt | sed 's/ alone$//' | paste -sd:)
rm -f "$record"
failed=()
for s in "${suites[@]}"; do
  echo "== ${s}_test (arm64, qemu-user)"
  start=$(date +%s)
  if DP_QEMU_USER=1 DP_OPENAPI_RECORD=$record "$build/tests/${s}_test" --gtest_brief=1 --gtest_filter="$untimed"; then
    echo "== ${s}_test passed in $(($(date +%s) - start)) s"
  else
    echo "== ${s}_test FAILED in $(($(date +%s) - start)) s"
    failed+=("$s")
  fi
done
if [ -f "$record" ]; then
  python3 tests/http/validate_responses.py service/src/http/openapi.json "$record" || failed+=(openapi)
  rm -f "$record"
fi
if [ "${#failed[@]}" -gt 0 ]; then
  echo "arm64: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "arm64: passed: ${suites[*]}"
