#!/usr/bin/env bash
# Runs every fuzz target in fuzz/ under libFuzzer with ASan+UBSan for a given
# time each and prints (and appends to BUILD_DIR/fuzz-report.txt) a table: real duration, executions, execs/s, coverage
# (libFuzzer's "cov" edges and "ft" features), corpus size, crashes.
#
#   benchmarks/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 600, all)
#
# Targets run one after another, most exposed first (HTTP head, config,
# smartctl JSON, zpool) unless named. Build dir: ${BUILD_DIR:-build-fuzz}
# (clang-14, -DDP_FUZZ=ON); the corpus each run grows is kept in
# BUILD_DIR/corpus/<target> and reused next time; crashes go to
# BUILD_DIR/artifacts/<target>/ — minimise one with
#   BUILD_DIR/fuzz/fuzz_<target> -minimize_crash=1 -runs=10000 FILE
# and keep it in fuzz/regressions/<target>/ with the fix (the smoke test in
# scripts/test.sh replays that folder). Environment: JOBS (build), NICE.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
build=${BUILD_DIR:-build-fuzz}
DP_SETUP_FUZZ=1 bash scripts/setup.sh

if [ "${SKIP_BUILD:-0}" != 1 ]; then  # SKIP_BUILD=1: run what is built
  # BOOST_ENABLE_ASSERT_HANDLER: Boost's assertions stay on and abort, but go
  # through fuzz/boost_assert_handler.cc, which lets one known-wrong Beast
  # assertion of Boost < 1.86 pass (see there).
  flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -DBOOST_ENABLE_ASSERT_HANDLER"
  launcher=""
  if command -v ccache >/dev/null; then launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"; fi
  cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++-14 -DDP_FUZZ=ON -DDP_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" \
    "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" \
    $launcher >/dev/null
fi

order=(http_request config smartctl zpool_status schedule_when template histogram mdstat
       geom camcontrol diskinfo)
if [ $# -gt 0 ]; then order=("$@"); fi
for t in "${order[@]}"; do
  [ -f "fuzz/${t}_fuzzer.cc" ] || { echo "fuzz.sh: no target $t (fuzz/${t}_fuzzer.cc)" >&2; exit 2; }
done
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  cmake --build "$build" -j "${JOBS:-2}" --target $(printf 'fuzz_%s ' "${order[@]}")
fi

# The seed folders of a target, as CMake knows them (fuzz/CMakeLists.txt).
seeds_of() {
  case $1 in
    smartctl) echo tests/fixtures/smartctl ;;
    zpool_status) echo tests/fixtures/zpool ;;
    diskinfo) echo tests/fixtures/diskinfo ;;
    config) mkdir -p "$build/seed-config" && cp config/diskpulse.json "$build/seed-config/"
            echo "$build/seed-config" ;;
  esac
  for d in corpus regressions; do [ -d "fuzz/$d/$1" ] && echo "fuzz/$d/$1"; done
  return 0
}

export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
report=$build/fuzz-report.txt  # appended to by every invocation
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $seconds s per target" >>"$report"
printf '%-14s %8s %12s %9s %7s %7s %7s %8s\n' target seconds execs exec/s cov ft corpus crashes \
  | tee -a "$report"
status=0
for t in "${order[@]}"; do
  corpus=$build/corpus/$t
  artifacts=$build/artifacts/$t
  mkdir -p "$corpus" "$artifacts"
  log=$build/fuzz-$t.log
  start=$(date +%s)
  # -max_len: big enough for whole smartctl -x reports and configs.
  # -timeout: one input taking over 10 s is a hang worth reporting.
  set +e
  nice -n "${NICE:-10}" "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -max_len=131072 \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$corpus" $(seeds_of "$t") >"$log" 2>&1
  rc=$?
  set -e
  took=$(( $(date +%s) - start ))
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo '?')
  ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo '?')
  crashes=$(find "$artifacts" -type f | wc -l)
  size=$(find "$corpus" -type f | wc -l)
  rate=$(( took > 0 ? ${execs:-0} / took : 0 ))
  printf '%-14s %8s %12s %9s %7s %7s %7s %8s\n' "$t" "$took" "${execs:-0}" "$rate" "$cov" "$ft" \
    "$size" "$crashes" | tee -a "$report"
  if [ "$rc" -ne 0 ] || [ "$crashes" -gt 0 ]; then
    status=1
    echo "fuzz.sh: $t failed (exit $rc); see $log and $artifacts/" >&2
  fi
done
echo "fuzz.sh: table in $report"
exit $status
