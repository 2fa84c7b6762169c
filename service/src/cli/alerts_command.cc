// diskpulse alerts [--state S] [--drive D] [--json]   list alerts
// diskpulse alerts ack ID                             acknowledge one
// diskpulse alerts test                               test notification to every sink
// (plus the connection flags; ack and test need the API token).
// Exit: 0 ok (list: also when there are alerts); 1 the daemon refused, a sink
// failed, or no sink is configured; 2 usage error or daemon unreachable.
#include <cstdio>
#include <map>
#include <string>

#include "cli/api_call.h"
#include "cli/commands.h"
#include "cli/daemon_client.h"
#include "cli/text_table.h"

namespace dp::cli {
namespace {

constexpr const char* kUsage =
    "usage: diskpulse alerts [--state active|open|acknowledged|resolved|all] [--drive D] "
    "[--json]\n"
    "       diskpulse alerts ack ID\n"
    "       diskpulse alerts test\n"
    "\n"
    "Lists diskpulsed's alerts (default: active = open or acknowledged), acknowledges one,\n"
    "or sends a test notification to every configured sink (webhook, mail, syslog).\n"
    "ack and test need the daemon's api_token.\n"
    "  --json             print JSON\n";

// An alert's headline; its summary where the daemon gave none (an older one).
std::string HeadlineOf(const nlohmann::json& alert) {
  const std::string headline = alert.value("headline", "");
  return headline.empty() ? alert.value("summary", "") : headline;
}

int List(const DaemonClient& client, const std::string& state, const std::string& drive,
         bool json) {
  std::string path = "/api/v1/alerts?state=" + UrlEncode(state);
  if (!drive.empty()) path += "&drive=" + UrlEncode(drive);
  int exit_code = 0;
  auto got = CallOrSay(client, "alerts", "GET", path, exit_code);
  if (!got) return exit_code;
  if (json) {
    std::printf("%s\n", got->body.dump(2).c_str());
    return 0;
  }
  if (!got->body.is_array() || got->body.empty()) {
    std::printf("no %s alerts\n", state == "all" ? "" : state.c_str());
    return 0;
  }
  std::map<std::string, std::string> names;
  if (auto drives = CallApi(client, "GET", "/api/v1/drives"); drives.ok() && drives->ok())
    for (const auto& d : drives->body)
      if (d.value("name", "") != "") names[d.value("id", "")] = d.value("name", "");
  // The owner's words (the page's and the notifications' headline); the
  // statistics stay in --json and on the page behind "details".
  TextTable table({"ID", "SEVERITY", "STATE", "DRIVE", "OPENED", "ALERT"});
  table.AlignRight(0);
  for (const auto& a : got->body) {
    std::string drive_id = a["drive_id"].is_string() ? a["drive_id"].get<std::string>() : "-";
    std::string name = names.count(drive_id) ? names[drive_id] : drive_id;
    table.AddRow({std::to_string(a.value("id", 0LL)), a.value("severity", "?"),
                  a.value("state", "?"), name, FormatWhen(a["opened_at"]), HeadlineOf(a)});
  }
  std::fputs(table.Render().c_str(), stdout);
  return 0;
}

int Ack(const DaemonClient& client, const std::string& id, bool json) {
  int exit_code = 0;
  auto got = CallOrSay(client, "alerts ack", "POST", "/api/v1/alerts/" + UrlEncode(id) + "/ack",
                       exit_code, nullptr, "see 'diskpulse alerts' for the alerts' IDs");
  if (!got) return exit_code;
  if (json) {
    std::printf("%s\n", got->body.dump(2).c_str());
  } else {
    std::printf("alert %s acknowledged: %s\n", id.c_str(), HeadlineOf(got->body).c_str());
  }
  return 0;
}

int Test(const DaemonClient& client, bool json) {
  int exit_code = 0;
  auto got = CallOrSay(client, "alerts test", "POST", "/api/v1/alerts/test", exit_code);
  if (!got) return exit_code;
  const auto& sinks = got->body.value("sinks", nlohmann::json::array());
  if (json) std::printf("%s\n", got->body.dump(2).c_str());
  if (sinks.empty()) {
    if (!json)
      std::fprintf(stderr,
                   "diskpulse alerts test: no alert sinks are configured (add a webhook, mail "
                   "or syslog sink under \"alerts\" in the configuration)\n");
    return 1;
  }
  int failed = 0;
  for (const auto& s : sinks) {
    bool ok = s.value("ok", false);
    if (!ok) ++failed;
    if (!json)
      std::printf("%-24s %s%s\n", s.value("sink", "?").c_str(), ok ? "sent" : "FAILED: ",
                  ok ? "" : (s["error"].is_string() ? s["error"].get<std::string>().c_str() : ""));
  }
  return failed ? 1 : 0;
}

}  // namespace

int RunAlertsCommand(const Args& args) {
  DaemonClientOptions options = DaemonClientOptionsFromEnvironment();
  std::string state = "active", drive, action, id;
  bool json = false;
  if (auto done =
          ParseClientArgs(args, options,
                          {.command = "alerts",
                           .usage = kUsage,
                           .values = {{"--state", &state}, {"--drive", &drive}},
                           .switches = {{"--json", &json}},
                           .word = [&](const std::string& a) {
                             if (action.empty() && (a == "ack" || a == "test" || a == "list")) {
                               action = a;
                               return true;
                             }
                             if (action != "ack" || !id.empty()) return false;
                             id = a;
                             return true;
                           }}))
    return *done;
  if (action == "ack" && id.empty()) {
    std::fprintf(stderr,
                 "diskpulse alerts ack: which alert? (the ID column of 'diskpulse "
                 "alerts')\n");
    return 2;
  }
  auto client = ConnectOrSay(options, "alerts");
  if (!client) return 2;
  if (action == "ack") return Ack(*client, id, json);
  if (action == "test") return Test(*client, json);
  return List(*client, state, drive, json);
}

}  // namespace dp::cli
