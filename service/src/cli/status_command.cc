// diskpulse status [--url URL] [--json] [--timeout SECONDS]: asks the daemon
// for its health and its drives and prints them (a table, or JSON).
// Exit: 0 healthy, 1 the daemon answers but is not healthy, 2 usage error or
// the daemon cannot be reached.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/api_call.h"
#include "cli/commands.h"
#include "cli/daemon_client.h"
#include "cli/local_tools.h"
#include "cli/text_table.h"

namespace dp::cli {
namespace {

constexpr const char* kUsage =
    "usage: diskpulse status [--url URL] [--json] [--timeout SECONDS]\n"
    "\n"
    "Asks diskpulsed for its health and the drives it knows.\n"
    "  --json             print {\"url\", \"health\", \"drives\"} as JSON\n";

std::string Text(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string() || it->get<std::string>().empty()) return "-";
  return it->get<std::string>();
}

// A number field, 0 when absent or null (unknown).
double Number(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0;
}

std::string DriveKind(const nlohmann::json& d) {
  if (Text(d, "transport") == "nvme") return "NVMe SSD";
  auto rot = d.find("rotational");
  auto rpm = d.find("rotation_rpm");
  bool has_rpm = rpm != d.end() && rpm->is_number_integer();
  if (rot != d.end() && rot->is_boolean()) {
    if (rot->get<bool>())
      return has_rpm && rpm->get<int>() > 0 ? "HDD " + std::to_string(rpm->get<int>()) + " rpm"
                                            : "HDD";
    return "SSD";
  }
  return "-";
}

std::string FormatUptime(long long s) {
  long long d = s / 86400, h = (s % 86400) / 3600, m = (s % 3600) / 60;
  if (d) return std::to_string(d) + " d " + std::to_string(h) + " h";
  if (h) return std::to_string(h) + " h " + std::to_string(m) + " min";
  if (m) return std::to_string(m) + " min";
  return std::to_string(s) + " s";
}

void PrintHuman(const std::string& url, const nlohmann::json& health,
                const nlohmann::json& drives) {
  std::string status = health.value("status", "?");
  std::string line = "diskpulsed " + health.value("version", "?") + " at " + url + ": " + status;
  std::string db =
      health.contains("db") && health["db"].is_string() ? health["db"].get<std::string>() : "?";
  line += " (database " + db;
  if (health.contains("uptime_seconds") && health["uptime_seconds"].is_number())
    line += ", up " + FormatUptime(health["uptime_seconds"].get<long long>());
  line += ")";
  std::printf("%s\n\n", line.c_str());

  if (!drives.is_array() || drives.empty()) {
    std::printf(
        "no drives discovered yet: diskpulsed lists drives after its first inventory scan\n"
        "(it needs root to read drive identities; 'targets' in the configuration adds more)\n");
    return;
  }
  TextTable table({"DRIVE", "MODEL", "SERIAL", "SIZE", "TYPE", "BUS", "DEVICE", "STATE"});
  table.AlignRight(3);
  for (const auto& d : drives) {
    std::string name = Text(d, "name");
    if (name == "-") name = Text(d, "id");
    std::string bus = Text(d, "transport");
    for (char& c : bus) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    table.AddRow({name, Text(d, "model"), Text(d, "serial"),
                  FormatSize(static_cast<std::uint64_t>(std::max(0.0, Number(d, "size_bytes")))),
                  DriveKind(d), bus, Text(d, "dev_path"),
                  d.value("present", true) == false ? "missing" : "present"});
  }
  std::fputs(table.Render().c_str(), stdout);
}

}  // namespace

int RunStatusCommand(const Args& args) {
  DaemonClientOptions options = DaemonClientOptionsFromEnvironment();
  bool json = false;
  if (auto done = ParseClientArgs(
          args, options, {.command = "status", .usage = kUsage, .switches = {{"--json", &json}}}))
    return *done;

  auto client = ConnectOrSay(options, "status");
  if (!client) return 2;
  // Health answers 503 with its document when the database fails: read it raw.
  auto reply = client->Get("/api/v1/health");
  if (!reply.ok()) {
    std::fprintf(stderr, "diskpulse status: %s\n", reply.status().message().c_str());
    return 2;
  }
  auto health = nlohmann::json::parse(reply->body, nullptr, false);
  if (health.is_discarded() || !health.is_object() || !health.contains("status")) {
    std::fprintf(stderr,
                 "diskpulse status: %s does not look like diskpulsed (HTTP %d from "
                 "/api/v1/health)\n",
                 client->url().c_str(), reply->status);
    return 2;
  }
  auto drives = client->GetJson("/api/v1/drives");
  bool healthy = health.value("status", "") == "ok";

  if (json) {
    nlohmann::json out = {{"url", client->url()}, {"health", health}};
    if (drives.ok())
      out["drives"] = *drives;
    else
      out["drives_error"] = drives.status().message();
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    PrintHuman(client->url(), health, drives.ok() ? *drives : nlohmann::json::array());
    if (!drives.ok())
      std::fprintf(stderr, "diskpulse status: cannot list drives: %s\n",
                   drives.status().message().c_str());
  }
  return healthy && drives.ok() ? 0 : 1;
}

}  // namespace dp::cli
