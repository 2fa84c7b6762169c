// diskpulse rebaseline DRIVE [--test T] [--reason TEXT] [--json] [connection flags]:
// asks diskpulsed to form DRIVE's own baselines anew from its next runs
// (POST /api/v1/drives/{id}/rebaseline), e.g. after a firmware update, a new
// cable or controller. The drive's open slowdown and trend alerts (of that
// test, or of every test) are resolved as "re-baselined". Needs the API token.
// Exit: 0 done; 1 the daemon refused (no/wrong token, unknown drive or test);
// 2 usage error or the daemon cannot be reached.
#include <cstdio>
#include <string>

#include "cli/api_call.h"
#include "cli/commands.h"
#include "cli/daemon_client.h"

namespace dp::cli {
namespace {

constexpr const char* kUsage =
    "usage: diskpulse rebaseline DRIVE [--test TEST] [--reason TEXT] [--json] [--url URL] "
    "[--token TOKEN]\n"
    "\n"
    "Tells diskpulsed that DRIVE (its id, name or /dev path) changed on purpose (new\n"
    "firmware, cable, controller): its baselines form anew from the next good runs, and\n"
    "its open slowdown and trend alerts are resolved as re-baselined. The history is kept.\n"
    "Needs the daemon's api_token.\n"
    "  --test TEST        only this test: seq, zones, seek, random, sweep (default: all)\n"
    "  --reason TEXT      why, kept with the mark and shown on the page\n"
    "  --json             print the daemon's answer as JSON\n";

}  // namespace

int RunRebaselineCommand(const Args& args) {
  DaemonClientOptions options = DaemonClientOptionsFromEnvironment();
  std::string drive, test, reason;
  bool json = false;
  if (auto done =
          ParseClientArgs(args, options,
                          {.command = "rebaseline",
                           .usage = kUsage,
                           .values = {{"--test", &test}, {"-t", &test}, {"--reason", &reason}},
                           .switches = {{"--json", &json}},
                           .word = OneWord(drive)}))
    return *done;
  if (!DriveGivenOrSay(drive, "rebaseline", kUsage)) return 2;
  auto client = ConnectOrSay(options, "rebaseline");
  if (!client) return 2;
  nlohmann::json body = nlohmann::json::object();
  if (!test.empty()) body["test"] = test;
  if (!reason.empty()) body["reason"] = reason;
  int exit_code = 0;
  auto got =
      CallOrSay(*client, "rebaseline", "POST", "/api/v1/drives/" + UrlEncode(drive) + "/rebaseline",
                exit_code, &body, "see 'diskpulse status' for the drives the daemon knows");
  if (!got) return exit_code;
  if (json) {
    std::printf("%s\n", got->body.dump(2).c_str());
    return 0;
  }
  const nlohmann::json mark = got->body.value("mark", nlohmann::json::object());
  const nlohmann::json mark_test = mark.value("test", nlohmann::json());
  std::printf("%s re-baselined (%s) from %s: %s\n", drive.c_str(),
              mark_test.is_string() ? mark_test.get<std::string>().c_str() : "every test",
              FormatWhen(mark.value("at", nlohmann::json())).c_str(),
              mark.value("reason", "").c_str());
  for (const auto& a : got->body.value("resolved_alerts", nlohmann::json::array()))
    std::printf("  alert %lld resolved: %s\n", a.value("id", 0LL), a.value("summary", "").c_str());
  std::printf("Its baselines form anew from the next good runs.\n");
  return 0;
}

}  // namespace dp::cli
