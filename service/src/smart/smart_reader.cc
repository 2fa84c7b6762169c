#include "smart/smart_reader.h"

namespace dp {

SmartctlOptions SmartctlOptionsFrom(const ToolsConfig& tools) {
  SmartctlOptions o;
  o.smartctl = tools.smartctl;
  o.timeout = std::chrono::seconds(tools.timeout_seconds);
  return o;
}

std::vector<std::string> SmartctlReadArgv(const SmartctlOptions& options, const std::string& device) {
  std::vector<std::string> argv = {options.smartctl, "-x", "-j", "-n", "standby"};
  if (!options.device_type.empty()) {
    argv.push_back("-d");
    argv.push_back(options.device_type);
  }
  argv.push_back(device);
  return argv;
}

Result<CommandOutput> RunSmartctl(CommandRunner& runner, const SmartctlOptions& options,
                                  const std::vector<std::string>& argv) {
  CommandSpec spec;
  spec.argv = argv;
  spec.timeout = options.timeout;
  Result<CommandOutput> out = runner.Run(spec);
  if (!out.ok()) {
    // The runner says "<tool> not found" when argv[0] cannot be executed.
    if (out.status().code() == StatusCode::kNotFound &&
        out.status().message() == argv[0] + " not found") {
      std::string msg = "smartctl not found: install smartmontools";
      if (options.smartctl != "smartctl") msg += " (tools.smartctl is '" + options.smartctl + "')";
      return NotFound(msg);
    }
    return out.status();
  }
  if (out->term_signal != 0) {
    return IoError(FormatArgv(argv) + ": killed by signal " + std::to_string(out->term_signal));
  }
  if (out->stdout_truncated) {
    return Corrupt(FormatArgv(argv) + ": output larger than the " +
                   std::to_string(spec.max_output_bytes) + "-byte limit; not parsed");
  }
  return out;
}

Result<SmartReading> ReadSmart(CommandRunner& runner, const SmartctlOptions& options,
                               const std::string& device) {
  auto argv = SmartctlReadArgv(options, device);
  DP_ASSIGN_OR_RETURN(CommandOutput out, RunSmartctl(runner, options, argv));
  Result<SmartReading> reading = ParseSmartctlOutput(out.stdout_text, out.exit_code);
  if (!reading.ok() && reading.status().code() == StatusCode::kCorrupt &&
      !out.stderr_text.empty()) {
    // Old smartctl versions complain about -j on stderr.
    Result<SmartReading> from_err = ParseSmartctlOutput(out.stderr_text, out.exit_code);
    if (!from_err.ok() && from_err.status().code() == StatusCode::kUnsupported) {
      return from_err.status();
    }
    std::string first = out.stderr_text.substr(0, out.stderr_text.find('\n'));
    return Status(reading.status().code(), reading.status().message() + "; stderr: " + first);
  }
  return reading;
}

}  // namespace dp
