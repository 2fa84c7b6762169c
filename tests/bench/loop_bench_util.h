// Helpers shared by the bench tests on real loop devices: skip macros with
// the reason, short-budget options, and a run of the read tests on a device.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "bench/bench_runner.h"
#include "support/capability.h"
#include "support/cgroup_throttle.h"
#include "support/loop_device.h"

#define REQUIRE_LOOP()                                          \
  do {                                                          \
    std::string why = ::dp::testing::LoopDevice::Unavailable(); \
    if (!why.empty()) DP_SKIP_WITHOUT("loop devices", why);     \
  } while (0)
#define REQUIRE_CGROUP()                                            \
  do {                                                              \
    std::string why = ::dp::testing::CgroupThrottle::Unavailable(); \
    if (!why.empty()) DP_SKIP_WITHOUT("cgroup io throttle", why);   \
  } while (0)

namespace dp::testing {

// `tests` with a budget of `seconds` each and no idle check.
BenchOptions Options(std::vector<BenchTest> tests, double seconds);

// RunReadTests on the device at `path`, on the system clock.
Result<BenchReport> RunOn(const std::string& path, const BenchOptions& o,
                          const std::atomic<bool>* cancel = nullptr,
                          const ProgressFn& progress = nullptr);

}  // namespace dp::testing
