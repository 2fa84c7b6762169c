#include "smart/self_test.h"

#include "smart/smartctl_exit_status.h"

namespace dp {
namespace {

std::vector<std::string> Argv(const SmartctlOptions& o, std::vector<std::string> middle,
                              const std::string& device) {
  std::vector<std::string> argv = {o.smartctl, "-j", "-n", "standby"};
  argv.insert(argv.end(), middle.begin(), middle.end());
  if (!o.device_type.empty()) {
    argv.push_back("-d");
    argv.push_back(o.device_type);
  }
  argv.push_back(device);
  return argv;
}

}  // namespace

std::string_view SelfTestKindName(SelfTestKind kind) {
  return kind == SelfTestKind::kShort ? "short" : "long";
}

Status CheckSelfTestAllowed(std::string_view drive_id, const std::vector<Pool>& pools) {
  if (const Pool* busy = BusyPoolWithDrive(pools, drive_id)) {
    return FailedPrecondition(DescribeBusy(*busy) + ": drive " + std::string(drive_id) +
                              " is a member; self-test not started");
  }
  return Status::Ok();
}

Result<SelfTestStart> StartSelfTest(CommandRunner& runner, const SmartctlOptions& options,
                                    const std::string& device, SelfTestKind kind,
                                    std::string_view drive_id, const std::vector<Pool>& pools) {
  DP_RETURN_IF_ERROR(CheckSelfTestAllowed(drive_id, pools));
  auto argv = Argv(options, {"-t", std::string(SelfTestKindName(kind))}, device);
  DP_ASSIGN_OR_RETURN(CommandOutput out, RunSmartctl(runner, options, argv));
  DP_ASSIGN_OR_RETURN(SmartReading r, ParseSmartctlOutput(out.stdout_text, out.exit_code));
  SelfTestStart start;
  if (r.asleep) {
    start.asleep = true;
    start.message = r.skip_reason;
    return start;
  }
  start.smartctl_messages = r.snapshot.messages;
  SmartctlExitStatus exit = DecodeSmartctlExit(r.snapshot.smartctl_exit_status.value_or(out.exit_code));
  if (exit.command_failed || exit.NoData()) {
    std::string why;
    for (const auto& m : r.snapshot.messages) why += (why.empty() ? "" : "; ") + m;
    if (why.empty()) why = DescribeSmartctlExit(exit.raw).front();
    return FailedPrecondition(device + ": smartctl could not start a " +
                              std::string(SelfTestKindName(kind)) + " self-test (exit status " +
                              std::to_string(exit.raw) + ": " + why +
                              "); a test may already be running, or the device has none");
  }
  start.started = true;
  start.message = std::string(SelfTestKindName(kind)) + " self-test started on " + device;
  return start;
}

Result<SelfTestProgress> ParseSelfTestProgress(std::string_view json_text,
                                               std::optional<int> exit_code) {
  DP_ASSIGN_OR_RETURN(SmartReading r, ParseSmartctlOutput(json_text, exit_code));
  SelfTestProgress p;
  if (r.asleep) {
    p.asleep = true;
    return p;
  }
  p.running = r.snapshot.self_test_running;
  p.remaining_percent = r.snapshot.self_test_remaining_percent;
  p.log = std::move(r.snapshot.self_tests);
  p.short_test_minutes = r.snapshot.short_test_minutes;
  p.extended_test_minutes = r.snapshot.extended_test_minutes;
  return p;
}

Result<SelfTestProgress> PollSelfTest(CommandRunner& runner, const SmartctlOptions& options,
                                      const std::string& device) {
  auto argv = Argv(options, {"-c", "-l", "selftest"}, device);
  DP_ASSIGN_OR_RETURN(CommandOutput out, RunSmartctl(runner, options, argv));
  auto p = ParseSelfTestProgress(out.stdout_text, out.exit_code);
  if (!p.ok()) return p.status().WithContext(device);
  return p;
}

}  // namespace dp
