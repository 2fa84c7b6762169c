// diskpulse drives [--json] [-c FILE] [--replay DIR]: discovers the drives of
// this machine (or of a recording) and the pools they belong to, and prints
// them as a table or as {"drives": [...], "warnings": [...]}.
// Exit: 0 listed, 2 usage error or discovery failed.
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/local_tools.h"
#include "cli/text_table.h"
#include "inventory/inventory.h"
#include "model/drive_json.h"

namespace dp::cli {
namespace {

constexpr const char* kUsage =
    "usage: diskpulse drives [--json] [-c FILE] [--replay DIR]\n"
    "\n"
    "Lists the drives of this machine: identity, size, kind, and the pool each\n"
    "belongs to. Needs root for full identity on some systems.\n"
    "  --json          print {\"drives\": [...], \"warnings\": [...]}\n"
    "  -c, --config    configuration file (tools, inventory include/exclude)\n"
    "  --replay DIR    answer from a recording made by `diskpulse record DIR`\n";

std::string Kind(const Drive& d) {
  if (d.transport == "nvme") return "NVMe SSD";
  if (d.rotation_rpm && *d.rotation_rpm > 0) return "HDD " + std::to_string(*d.rotation_rpm) + " rpm";
  if (d.rotation_rpm && *d.rotation_rpm == 0) return "SSD";
  if (d.rotational) return *d.rotational ? "HDD" : "SSD";
  return "-";
}

}  // namespace

int RunDrivesCommand(const Args& args) {
  std::vector<std::string> rest;
  auto options = ParseLocalOptions(args, rest);
  if (!options.ok()) return UsageError("drives", options.status().message(), kUsage);
  if (options->help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  for (const auto& a : rest) {
    std::fprintf(stderr, "diskpulse drives: unexpected argument '%s'\n%s", a.c_str(), kUsage);
    return 2;
  }
  auto config = LoadLocalConfig(*options);
  if (!config.ok()) {
    std::fprintf(stderr, "diskpulse drives: %s\n", config.status().message().c_str());
    return 2;
  }
  auto runner = MakeLocalRunner(*options);
  if (!runner.ok()) {
    std::fprintf(stderr, "diskpulse drives: %s\n", runner.status().ToString().c_str());
    return 2;
  }
  auto inv = ReadInventory(*config, **runner);
  if (!inv.ok()) {
    std::fprintf(stderr, "diskpulse drives: %s\n", inv.status().ToString().c_str());
    return 2;
  }
  // drive id -> "tank mirror-0 (data)"
  std::map<std::string, std::string> where;
  for (const auto& p : inv->pools) {
    for (const auto& v : p.vdevs) {
      for (const auto& m : v.members) {
        if (m.drive_id.empty()) continue;
        std::string w = p.name + " " + v.name + (v.role == "data" || v.role.empty() ? "" : " (" + v.role + ")");
        if (!where.count(m.drive_id)) where[m.drive_id] = w;
      }
    }
  }
  if (options->json) {
    nlohmann::json j = DrivesToJson(inv->drives);
    for (std::size_t i = 0; i < inv->drives.size(); ++i) {
      auto it = where.find(inv->drives[i].id);
      j["drives"][i]["pool"] = it == where.end() ? nlohmann::json(nullptr) : nlohmann::json(it->second);
    }
    j["warnings"] = inv->warnings;
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
  }
  TextTable t({"NAME", "MODEL", "SERIAL", "SIZE", "KIND", "BUS", "POOL", "ID"});
  t.AlignRight(3);
  for (const auto& d : inv->drives) {
    auto it = where.find(d.id);
    t.AddRow({d.name, d.model.empty() ? "-" : d.model, d.serial.empty() ? "-" : d.serial,
              FormatSize(d.size_bytes), Kind(d), d.transport.empty() ? "-" : d.transport,
              it == where.end() ? "-" : it->second, d.id});
  }
  if (t.empty()) std::printf("no drives found\n");
  else std::fputs(t.Render().c_str(), stdout);
  for (const auto& w : inv->warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  return 0;
}

}  // namespace dp::cli
