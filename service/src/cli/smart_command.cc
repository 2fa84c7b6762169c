// diskpulse smart DEVICE [--json] [-c FILE] [--replay DIR]
// diskpulse smart --from-file FILE [--json]
// Reads a drive's SMART health with `smartctl -x -j -n standby` (a sleeping
// disk is not woken), or parses saved smartctl JSON, and prints the
// normalised snapshot: a summary for people, or the stable SMART JSON.
// Exit: 0 read (or skipped: asleep) and not failing, 1 the drive reports
// failing health or attributes at/below threshold now, 2 usage error or
// smartctl could not be run/understood.
#include <sys/stat.h>

#include <cstdio>
#include <cerrno>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/local_tools.h"
#include "cli/text_table.h"
#include "model/smart_snapshot_json.h"
#include "smart/smart_reader.h"
#include "smart/smartctl_exit_status.h"
#include "smart/smartctl_parser.h"

namespace dp::cli {
namespace {

constexpr const char* kUsage =
    "usage: diskpulse smart DEVICE [--json] [-c FILE] [--replay DIR]\n"
    "       diskpulse smart --from-file FILE [--json]\n"
    "\n"
    "Reads SMART health with smartctl (smartmontools >= 7.0), without waking a\n"
    "sleeping disk. Exit status 1 when the drive reports failing health.\n"
    "  --json            print the normalised SMART JSON (null = not reported)\n"
    "  --from-file FILE  parse saved `smartctl -j` output instead; - reads stdin\n"
    "  -d TYPE           smartctl device type (sat, nvme, megaraid,N, ...)\n"
    "  -c, --config      configuration file (tools.smartctl, tools.timeout_seconds)\n"
    "  --replay DIR      answer from a recording made by `diskpulse record DIR`\n";

template <typename T>
std::string Opt(const std::optional<T>& v, const char* unit = "") {
  if (!v) return "-";
  std::ostringstream ss;
  ss << *v << unit;
  return ss.str();
}

std::string OrDash(const std::string& s) { return s.empty() ? "-" : s; }

void PrintHuman(const SmartSnapshot& s) {
  std::string health = !s.health_passed ? "unknown" : *s.health_passed ? "PASSED" : "FAILED";
  std::printf("%s %s  serial %s  firmware %s\n", OrDash(s.protocol).c_str(), OrDash(s.model).c_str(),
              OrDash(s.serial).c_str(), OrDash(s.firmware).c_str());
  std::printf("health %s", health.c_str());
  if (s.temperature_c) std::printf(", %d C", *s.temperature_c);
  if (s.power_on_hours) std::printf(", %llu power-on hours", static_cast<unsigned long long>(*s.power_on_hours));
  if (s.power_cycles) std::printf(", %llu power cycles", static_cast<unsigned long long>(*s.power_cycles));
  std::printf("\n");
  TextTable counters({"COUNTER", "VALUE"});
  counters.AlignRight(1);
  counters.AddRow({"reallocated sectors", Opt(s.reallocated_sectors)});
  counters.AddRow({"pending sectors", Opt(s.pending_sectors)});
  counters.AddRow({"offline uncorrectable", Opt(s.offline_uncorrectable)});
  counters.AddRow({"reported uncorrectable", Opt(s.reported_uncorrectable)});
  counters.AddRow({"command timeouts", Opt(s.command_timeouts)});
  counters.AddRow({"UDMA CRC errors", Opt(s.udma_crc_errors)});
  if (s.nvme) {
    counters.AddRow({"NVMe critical warning", Opt(s.nvme->critical_warning)});
    counters.AddRow({"NVMe media errors", Opt(s.nvme->media_errors)});
    counters.AddRow({"NVMe percentage used", Opt(s.nvme->percentage_used, "%")});
    counters.AddRow({"NVMe available spare", Opt(s.nvme->available_spare, "%")});
    counters.AddRow({"NVMe unsafe shutdowns", Opt(s.nvme->unsafe_shutdowns)});
    counters.AddRow({"NVMe error log entries", Opt(s.nvme->num_err_log_entries)});
  }
  std::printf("\n%s", counters.Render().c_str());
  if (!s.attributes.empty()) {
    // RAW as smartctl prints it ("26 (Min/Max 18/41)"), beside the 48-bit
    // number it decodes, which packs several fields for some attributes.
    TextTable t({"ID", "NAME", "VALUE", "WORST", "THRESH", "RAW", "RAW48", "FAILED"});
    for (std::size_t c : {0u, 2u, 3u, 4u, 6u}) t.AlignRight(c);
    for (const auto& a : s.attributes) {
      const std::string number = a.raw ? std::to_string(*a.raw) : "-";
      t.AddRow({std::to_string(a.id), a.name, Opt(a.value), Opt(a.worst), Opt(a.thresh),
                a.raw_string.empty() ? number : a.raw_string, number, OrDash(a.when_failed)});
    }
    std::printf("\n%s", t.Render().c_str());
  }
  if (!s.self_tests.empty()) {
    TextTable t({"SELF-TEST", "STATUS", "PASSED", "HOURS"});
    t.AlignRight(3);
    for (const auto& st : s.self_tests) {
      t.AddRow({st.type, st.status, !st.passed ? "-" : *st.passed ? "yes" : "NO", Opt(st.lifetime_hours)});
    }
    std::printf("\n%s", t.Render().c_str());
  }
  if (s.self_test_running) {
    std::printf("\na self-test is running (%s%% remaining)\n", Opt(s.self_test_remaining_percent).c_str());
  }
  if (s.smartctl_exit_status && *s.smartctl_exit_status != 0) {
    std::printf("\nsmartctl exit status %d:", *s.smartctl_exit_status);
    for (const auto& d : DescribeSmartctlExit(*s.smartctl_exit_status)) std::printf(" [%s]", d.c_str());
    std::printf("\n");
  }
  for (const auto& m : s.messages) std::printf("smartctl: %s\n", m.c_str());
}

bool Failing(const SmartSnapshot& s) {
  if (s.health_passed == false) return true;
  for (const auto& a : s.attributes) {
    if (a.when_failed == "now" && a.prefailure) return true;
  }
  return false;
}

}  // namespace

int RunSmartCommand(const Args& args) {
  std::vector<std::string> rest;
  auto options = ParseLocalOptions(args, rest);
  if (!options.ok()) return UsageError("smart", options.status().message(), kUsage);
  if (options->help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::string device, device_type;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const std::string& a = rest[i];
    if (a == "-d" && i + 1 < rest.size()) {
      device_type = rest[++i];
    } else if (!a.empty() && a[0] != '-' && device.empty()) {
      device = a;
    } else {
      return UsageError("smart", "unexpected argument '" + a + "'", kUsage);
    }
  }
  if (options->from_file.has_value() == !device.empty()) {
    return UsageError("smart", "give a DEVICE or --from-file FILE", kUsage);
  }

  Result<SmartReading> reading = Internal("unset");
  std::string what = options->from_file.value_or(device);
  if (options->from_file) {
    auto text = ReadInput(*options->from_file);
    if (!text.ok()) return UsageError("smart", text.status().message());
    reading = ParseSmartctlOutput(*text);
  } else {
    // A device path that is not there is said in our words, before smartctl
    // answers "Unable to detect device type" for it (a recording replays a
    // machine whose devices this one need not have).
    struct stat st {};
    if (options->replay_dir.empty() && !device.empty() && device[0] == '/' &&
        ::stat(device.c_str(), &st) != 0 && errno == ENOENT) {
      std::fprintf(stderr,
                   "diskpulse smart: %s: no such device on this machine (the drives diskpulse "
                   "sees: diskpulse drives)\n",
                   device.c_str());
      return 2;
    }
    auto config = LoadLocalConfig(*options);
    if (!config.ok()) return UsageError("smart", config.status().message());
    auto runner = MakeLocalRunner(*options);
    if (!runner.ok()) return UsageError("smart", runner.status().ToString());
    SmartctlOptions so = SmartctlOptionsFrom(config->tools);
    so.device_type = device_type;
    reading = ReadSmart(**runner, so, device);
  }
  if (!reading.ok()) return UsageError("smart", what + ": " + reading.status().ToString());
  if (reading->asleep) {
    if (options->json) {
      std::printf("%s\n", nlohmann::json({{"skipped", "asleep"}, {"reason", reading->skip_reason}}).dump(2).c_str());
    } else {
      std::printf("%s: %s\n", what.c_str(), reading->skip_reason.c_str());
    }
    return 0;
  }
  const SmartSnapshot& s = reading->snapshot;
  if (options->json) {
    std::printf("%s\n", SmartSnapshotToJson(s).dump(2).c_str());
  } else {
    PrintHuman(s);
  }
  for (const auto& w : s.parse_warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  return Failing(s) ? 1 : 0;
}

}  // namespace dp::cli
