// SMART self-tests: start (`smartctl -t short|long`), poll progress and read
// the self-test log (ATA, NVMe, SCSI). Never starts one on a member of a pool
// that is scrubbing or resilvering, never wakes a sleeping disk. The
// scheduler (sched) decides when; these functions only act. Stateless;
// thread-safe if the runner is.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/command_runner.h"
#include "base/result.h"
#include "model/pool.h"
#include "model/smart_snapshot.h"
#include "smart/smart_reader.h"

namespace dp {

enum class SelfTestKind { kShort, kLong };
std::string_view SelfTestKindName(SelfTestKind kind);  // "short" | "long"

// FailedPrecondition ("pool tank is resilvering (52.0% done): drive X is a
// member; self-test not started") when drive_id belongs to a busy pool.
Status CheckSelfTestAllowed(std::string_view drive_id, const std::vector<Pool>& pools);

struct SelfTestStart {
  bool started = false;
  bool asleep = false;        // the disk was asleep and was left alone
  std::string message;        // "short self-test started", or the skip reason
  std::vector<std::string> smartctl_messages;
};

// Checks CheckSelfTestAllowed first (pools as last seen by discovery), then
// runs {smartctl, -j, -n, standby, -t, short|long, [-d TYPE], device}.
// FailedPrecondition also when smartctl could not start the test (one is
// already running, or the device does not support self-tests).
Result<SelfTestStart> StartSelfTest(CommandRunner& runner, const SmartctlOptions& options,
                                    const std::string& device, SelfTestKind kind,
                                    std::string_view drive_id, const std::vector<Pool>& pools);

struct SelfTestProgress {
  bool asleep = false;
  bool running = false;                    // a self-test is in progress now
  std::optional<int> remaining_percent;    // while running, when the device says
  std::vector<SmartSelfTest> log;          // newest first
  std::optional<int> short_test_minutes;   // what the device says a test takes
  std::optional<int> extended_test_minutes;
};

// Pure: the JSON of {smartctl -j -c -l selftest DEVICE}.
Result<SelfTestProgress> ParseSelfTestProgress(std::string_view json_text,
                                               std::optional<int> exit_code = std::nullopt);

// Runs {smartctl, -j, -n, standby, -c, -l, selftest, [-d TYPE], device}.
Result<SelfTestProgress> PollSelfTest(CommandRunner& runner, const SmartctlOptions& options,
                                      const std::string& device);

}  // namespace dp
