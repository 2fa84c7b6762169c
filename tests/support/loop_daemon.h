// What the e2e tests of a real daemon on a loop device share: the config
// that makes the daemon discover the loop device for real and test it on a
// schedule, and the wait for discovery to have saved it. Tests only.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "store/store.h"
#include "support/loop_device.h"

namespace dp::testing {

struct LoopTargetOptions {
  std::string name = "bench-a";  // the target's name (schedules select it by it)
  std::string every = "@every 2s";
  std::uint64_t max_bytes = 1ULL << 30;
  double busy_above = 0.3;  // the scheduler's deferral bar
};

// A DaemonProcess config patch: the loop device as target `name`, this
// machine's sysfs so the loop device is discovered for real (DefaultConfig
// points discovery at empty stand-ins; the machine's own disks are not
// selected by the schedule), the pread engine with a 1 s budget, one `seq`
// schedule on the target, fast scheduler retries. Merge more on top.
nlohmann::json LoopTargetConfig(const LoopDevice& loop, const LoopTargetOptions& options = {});

// The id discovery gave the present drive named `name`, once the daemon's
// store has it; NotFound after `timeout`.
Result<std::string> WaitForDrive(Store& store, const std::string& name,
                                 std::chrono::milliseconds timeout = std::chrono::seconds(20));

}  // namespace dp::testing
