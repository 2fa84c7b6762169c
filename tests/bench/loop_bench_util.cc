#include "bench/loop_bench_util.h"

#include "base/clock.h"

namespace dp::testing {

BenchOptions Options(std::vector<BenchTest> tests, double seconds) {
  BenchOptions o;
  o.tests = std::move(tests);
  o.seconds = seconds;
  o.idle_check_seconds = 0;
  return o;
}

Result<BenchReport> RunOn(const std::string& path, const BenchOptions& o,
                          const std::atomic<bool>* cancel, const ProgressFn& progress) {
  SystemClock clock;
  DP_ASSIGN_OR_RETURN(auto dev, BlockDevice::Open(path));
  DeviceTarget t(std::move(dev), o.engine, clock);
  return RunReadTests(t, o, cancel, progress);
}

}  // namespace dp::testing
