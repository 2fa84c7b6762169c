// diskpulse forget DRIVE [--reason TEXT] [--json] [connection flags]: tells
// diskpulsed that DRIVE, which is gone, was retired for good (POST
// /api/v1/drives/{id}/forget): it raises no "missing" alert any more and its
// open missing alert resolves as forgotten. Its history is kept; if it comes
// back it is watched again. Needs the API token.
// Exit: 0 done; 1 the daemon refused (no/wrong token, unknown drive, a
// drive that is present); 2 usage error or the daemon cannot be reached.
#include <cstdio>
#include <string>

#include "cli/api_call.h"
#include "cli/commands.h"
#include "cli/daemon_client.h"

namespace dp::cli {
namespace {

constexpr const char* kUsage =
    "usage: diskpulse forget DRIVE [--reason TEXT] [--json] [--url URL] [--token TOKEN]\n"
    "\n"
    "Tells diskpulsed that DRIVE (its id, name or /dev path), which is no longer present,\n"
    "was retired on purpose (replaced, sold, destroyed): it raises no missing alert from\n"
    "now on, and an open one resolves. Its history is kept; if the drive comes back it is\n"
    "watched again. Needs the daemon's api_token.\n"
    "  --reason TEXT      why, kept with the drive\n"
    "  --json             print the daemon's answer as JSON\n";

}  // namespace

int RunForgetCommand(const Args& args) {
  DaemonClientOptions options = DaemonClientOptionsFromEnvironment();
  std::string drive, reason;
  bool json = false;
  if (auto done = ParseClientArgs(args, options,
                                  {.command = "forget",
                                   .usage = kUsage,
                                   .values = {{"--reason", &reason}},
                                   .switches = {{"--json", &json}},
                                   .word = OneWord(drive)}))
    return *done;
  if (!DriveGivenOrSay(drive, "forget", kUsage)) return 2;
  auto client = ConnectOrSay(options, "forget");
  if (!client) return 2;
  nlohmann::json body = nlohmann::json::object();
  if (!reason.empty()) body["reason"] = reason;
  int exit_code = 0;
  auto got = CallOrSay(*client, "forget", "POST", "/api/v1/drives/" + UrlEncode(drive) + "/forget",
                       exit_code, &body, "see 'diskpulse drives' for the drives the daemon knows");
  if (!got) return exit_code;
  if (json) {
    std::printf("%s\n", got->body.dump(2).c_str());
    return 0;
  }
  const nlohmann::json d = got->body.value("drive", nlohmann::json::object());
  std::printf("%s forgotten: %s\n", d.value("id", drive).c_str(),
              d.value("forgotten_reason", "").c_str());
  for (const auto& a : got->body.value("resolved_alerts", nlohmann::json::array()))
    std::printf("  alert %lld resolved: %s\n", a.value("id", 0LL), a.value("summary", "").c_str());
  return 0;
}

}  // namespace dp::cli
