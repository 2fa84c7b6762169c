// diskpulse status [--url URL] [--json] [--timeout SECONDS]: asks the daemon
// for its health and its drives and prints them (a table, or JSON). The
// table is the page's first screen in text: each drive's health (the badge
// the page shows, worst first), temperature, newest read against its
// baseline and open alerts, coloured only on a terminal (NO_COLOR and
// TERM=dumb turn colour off).
// Exit: 0 healthy, 1 the daemon answers but is not healthy, 2 usage error or
// the daemon cannot be reached.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

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

bool ColourWanted() {
  if (!isatty(STDOUT_FILENO) || std::getenv("NO_COLOR")) return false;
  const char* term = std::getenv("TERM");
  return term && std::string(term) != "dumb";
}

// The badge's colour, as the page draws it.
const char* Colour(const std::string& health) {
  if (health == "failing") return "\033[1;31m";
  if (health == "missing" || health == "slowing") return "\033[33m";
  if (health == "warning") return "\033[33m";
  if (health == "healthy") return "\033[32m";
  return "\033[2m";  // watching, asleep
}

std::string Temperature(const nlohmann::json& d) {
  auto t = d.find("temperature_c");
  if (t == d.end() || !t->is_number()) return "-";
  return std::to_string(static_cast<int>(std::lround(t->get<double>()))) + " C";
}

// "94%" of its baseline, "forming", or "-" without a read test.
std::string ReadVsBaseline(const nlohmann::json& d) {
  auto r = d.find("read");
  if (r == d.end() || !r->is_object()) return "-";
  if (!r->value("good", false)) return "not evidence";
  auto p = r->find("percent");
  if (p == r->end() || !p->is_number()) return "forming";
  return std::to_string(static_cast<int>(std::lround(p->get<double>()))) + "%";
}

// "2 (slowdown, smart)", "-" when none.
std::string Alerts(const nlohmann::json& d) {
  const nlohmann::json a = d.value("alerts", nlohmann::json::object());
  const int n = a.value("open", 0) + a.value("acknowledged", 0);
  if (n == 0) return "-";
  std::string kinds;
  for (const auto& k : a.value("kinds", nlohmann::json::array()))
    if (k.is_string()) kinds += (kinds.empty() ? "" : ", ") + k.get<std::string>();
  return std::to_string(n) + (kinds.empty() ? "" : " (" + kinds + ")");
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
  // HEALTH second, so its colour can be put around a cell whose place in
  // every line is the header's.
  TextTable table({"DRIVE", "HEALTH", "TEMP", "READ", "ALERTS", "MODEL", "SERIAL", "SIZE",
                   "TYPE", "DEVICE"});
  table.AlignRight(2);
  table.AlignRight(3);
  table.AlignRight(7);
  std::vector<std::string> healths;
  for (const auto& d : drives) {
    std::string name = Text(d, "name");
    if (name == "-") name = Text(d, "id");
    std::string h = Text(d, "status");
    if (h == "-") h = d.value("present", true) ? "unknown" : "missing";
    healths.push_back(h);
    table.AddRow({name, h, Temperature(d), ReadVsBaseline(d), Alerts(d), Text(d, "model"),
                  Text(d, "serial"),
                  FormatSize(static_cast<std::uint64_t>(std::max(0.0, Number(d, "size_bytes")))),
                  DriveKind(d), Text(d, "dev_path")});
  }
  std::string text = table.Render();
  if (ColourWanted()) {
    const std::size_t column = text.find("HEALTH");
    std::string out;
    std::size_t row = 0, from = text.find('\n') + 1;
    out = text.substr(0, from);
    while (from < text.size()) {
      const std::size_t end = text.find('\n', from);
      std::string l = text.substr(from, end - from);
      if (row < healths.size() && l.size() >= column + healths[row].size())
        l = l.substr(0, column) + Colour(healths[row]) + healths[row] + "\033[0m" +
            l.substr(column + healths[row].size());
      out += l + "\n";
      ++row;
      from = end + 1;
    }
    text = out;
  }
  std::fputs(text.c_str(), stdout);
  // What the reasons are, for the drives that are not healthy.
  for (const auto& d : drives) {
    const std::string h = Text(d, "status");
    if (h == "healthy" || h == "-" || Text(d, "reason") == "-") continue;
    std::string name = Text(d, "name");
    if (name == "-") name = Text(d, "id");
    std::printf("%s %s: %s\n", name.c_str(), h.c_str(), Text(d, "reason").c_str());
  }
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
  // The overview carries each drive's health, temperature, read figure and
  // alerts (the page's first screen); its "drives" are the table's rows.
  auto overview = client->GetJson("/api/v1/overview");
  Result<nlohmann::json> drives =
      overview.ok() && overview->contains("drives")
          ? Result<nlohmann::json>((*overview)["drives"])
          : client->GetJson("/api/v1/drives");
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
