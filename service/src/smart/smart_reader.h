// Reading SMART through the CommandRunner: `smartctl -x -j -n standby [-d TYPE]
// DEVICE` with a timeout. A sleeping disk is not woken ("skipped: asleep"), a
// non-zero exit is data. Stateless functions; thread-safe if the runner is.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "base/command_runner.h"
#include "base/result.h"
#include "config/config.h"
#include "smart/smartctl_parser.h"

namespace dp {

struct SmartctlOptions {
  std::string smartctl = "smartctl";          // tools.smartctl
  std::chrono::milliseconds timeout{60'000};  // tools.timeout_seconds
  std::string device_type;                    // smartctl -d TYPE; "" lets smartctl detect
};

SmartctlOptions SmartctlOptionsFrom(const ToolsConfig& tools);

// {smartctl, -x, -j, -n, standby, [-d TYPE], device}
std::vector<std::string> SmartctlReadArgv(const SmartctlOptions& options, const std::string& device);

// Errors: NotFound "smartctl not found: install smartmontools"; Timeout when
// smartctl hung (it was killed); everything ParseSmartctlOutput reports.
Result<SmartReading> ReadSmart(CommandRunner& runner, const SmartctlOptions& options,
                               const std::string& device);

// Shared by ReadSmart and the self-test functions: runs smartctl and maps a
// missing tool, a hang, a signal or truncated output to clear errors.
Result<CommandOutput> RunSmartctl(CommandRunner& runner, const SmartctlOptions& options,
                                  const std::vector<std::string>& argv);

}  // namespace dp
