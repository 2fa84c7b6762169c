#!/usr/bin/env bash
# Builds and runs tests under sanitizers, each in its own build dir:
#   fast (default): AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/)
#         over the fuzz smoke of the inputs parsed below the scheduler: the
#         smartctl, zpool status, diskinfo, geom, camcontrol and mdstat parsers,
#         the configuration and the alert templates (fuzz_smoke.<name>: seeds,
#         kept crash inputs, 3,000 mutated inputs each). It builds only those
#         modules (no test suite links less than the whole library), so it fits
#         ~40 minutes on a busy 2-core machine; the test suites, the HTTP request
#         and schedule fuzzers and ThreadSanitizer need `asan`/`tsan`.
#   asan: the whole suite under ASan+UBSan (build-asan/), every ctest test;
#   tsan: the threaded parts under ThreadSanitizer (build-tsan/): the scheduler,
#         the HTTP server and its handler pool, the alert dispatcher, the
#         privileged helper and its client;
#   all:  asan then tsan (hours on a busy 2-core machine).
# Usage: scripts/sanitize.sh [fast|asan|tsan|all]   (default fast)
# Not part of scripts/test.sh. Any sanitizer report fails the test that printed
# it, and the script exits non-zero. Environment: JOBS (build parallelism,
# default nproc), TEST_JOBS (ctest parallelism, default 2), BUILD_ROOT (where
# the build dirs go, default the tree), extra CMAKE_ARGS.
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-fast}
case "$which" in fast|asan|tsan|all) ;; *)
  echo "usage: scripts/sanitize.sh [fast|asan|tsan|all]" >&2; exit 2 ;;
esac
root=${BUILD_ROOT:-.}
jobs=${JOBS:-$(nproc)}
DP_SETUP_TEST_TOOLS=1 bash scripts/setup.sh  # the suites it runs need the test tools

# -O1 keeps instrumented tests tolerably fast and the build short; frame
# pointers give whole stacks in reports, and line tables (-g1) name their
# files and lines at a fraction of the build time of full debug information.
common="-O1 -g1 -fno-omit-frame-pointer"
launcher=""
if command -v ccache >/dev/null; then launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"; fi

configure() {  # dir flags
  cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDP_WERROR=ON $launcher \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$common" "-DCMAKE_CXX_FLAGS=$2" \
    "-DCMAKE_EXE_LINKER_FLAGS=$2" ${CMAKE_ARGS:-} >/dev/null
}

status=0

# Leaks are reported too (LeakSanitizer runs at exit of each test process and
# of every daemon the tests start); halt_on_error makes a report a failure.
asan_env() {
  export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
}
# GCC 12 at -O1 with ASan warns maybe-uninitialized inside libstdc++'s
# <regex> (std::function in _StateT), which -Werror made a build failure of
# every file using std::regex; the warning stays on in the normal builds.
asan_flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -Wno-maybe-uninitialized"

if [ "$which" = fast ]; then
  dir=$root/build-asan
  fast="smartctl zpool_status diskinfo geom camcontrol mdstat config template"
  configure "$dir" "$asan_flags"
  echo "sanitize: building the fast subset (fuzz smoke: $fast) under ASan+UBSan in $dir"
  # shellcheck disable=SC2046
  cmake --build "$dir" -j "$jobs" --target $(for t in $fast; do echo "fuzz_$t"; done)
  asan_env
  echo "sanitize: asan fuzz_smoke"
  if ! (cd "$dir" && ctest --output-on-failure -j "${TEST_JOBS:-2}" \
        -R "^fuzz_smoke\.($(echo $fast | tr ' ' '|'))\$"); then
    status=1
  fi
  exit $status
fi

if [ "$which" = all ] || [ "$which" = asan ]; then
  dir=$root/build-asan
  configure "$dir" "$asan_flags"
  echo "sanitize: building the suite under ASan+UBSan in $dir"
  cmake --build "$dir" -j "$jobs"
  asan_env
  echo "sanitize: running the whole suite under ASan+UBSan"
  if ! (cd "$dir" && ctest --output-on-failure -j "${TEST_JOBS:-2}" --timeout 1200); then
    status=1
  fi
  unset ASAN_OPTIONS UBSAN_OPTIONS
fi

if [ "$which" = all ] || [ "$which" = tsan ]; then
  dir=$root/build-tsan
  # GCC warns (-Wtsan) that ThreadSanitizer does not model
  # atomic_thread_fence, which Boost.Asio's std_fenced_block uses around
  # every handler; -Werror made that a build failure of every file using
  # Asio. The handlers' real hand-over is through the scheduler's mutex,
  # which TSan sees.
  configure "$dir" "-fsanitize=thread -Wno-maybe-uninitialized -Wno-tsan"
  echo "sanitize: building the threaded parts under TSan in $dir"
  cmake --build "$dir" -j "$jobs" --target sched_test runs_test http_test alert_test app_test
  export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:history_size=4"
  # The suites of the threaded parts: sched (Scheduler, its worker and
  # timers), runs (discovery's and ZFS sampling's threads), http (Server, handler pool, resources), alert (AlertDispatcher
  # and sinks), app (the privileged helper and its client, and daemons whose
  # HTTP, scheduler and signal threads run together).
  echo "sanitize: running the threaded suites under TSan"
  for t in sched runs http alert app; do
    echo "sanitize: tsan $t"
    if ! "$dir/tests/${t}_test" --gtest_brief=1; then status=1; fi
  done
fi

exit $status
