// diskpulse pools [--json] [--from-file FILE] [-c FILE] [--replay DIR]: the
// storage pools (ZFS, Linux md) with their vdevs, members and counters,
// scrub/resilver state and errors line; members mapped to drives. With
// --from-file, parses pasted `zpool status` text or `zpool status -j` JSON
// instead of running zpool (members are then not mapped). Each ZFS member's
// SLOW count (I/Os over zio_slow_io_ms, `zpool status -s`) is shown when
// zpool reports it ("-" otherwise).
// Exit: 0 all pools ONLINE, 1 a pool is not ONLINE or has errors, 2 usage
// error, tool failure or unreadable input.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/local_tools.h"
#include "inventory/inventory.h"
#include "inventory/zpool_status_parser.h"
#include "model/pool_json.h"
#include "watch/zfs_latency_sampler.h"

namespace dp::cli {
namespace {

constexpr const char* kUsage =
    "usage: diskpulse pools [--json] [--from-file FILE] [-c FILE] [--replay DIR]\n"
    "\n"
    "Shows ZFS pools and Linux md arrays: vdevs, members, error counters (and\n"
    "ZFS's SLOW count of I/Os over zio_slow_io_ms, when zpool has -s), scrub\n"
    "or resilver progress. Exit status 1 when a pool is not ONLINE.\n"
    "  --json            print {\"pools\": [...]} (the stable pools JSON)\n"
    "  --from-file FILE  parse saved `zpool status` (text or -j JSON) output; - reads stdin\n"
    "  -c, --config      configuration file\n"
    "  --replay DIR      answer from a recording made by `diskpulse record DIR`\n";

std::string Counter(const std::optional<std::uint64_t>& v, bool approx) {
  if (!v) return "-";
  return (approx ? "~" : "") + std::to_string(*v);
}

std::string ScanText(const PoolScan& s) {
  if (s.function == "none" || s.function.empty()) return "no scrub or resilver recorded";
  std::string state = s.state == "in_progress" ? "in progress" : s.state;
  std::string out = s.function + " " + state;
  if (s.percent) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ", %.2f%% done", *s.percent);
    out += buf;
  }
  return out;
}

void PrintHuman(const std::vector<Pool>& pools) {
  if (pools.empty()) {
    std::printf("no pools\n");
    return;
  }
  for (const auto& p : pools) {
    std::printf("%s (%s)  %s  %s\n", p.name.c_str(), p.kind.c_str(),
                p.state.empty() ? "?" : p.state.c_str(), ScanText(p.scan).c_str());
    if (!p.errors.empty()) std::printf("  errors: %s\n", p.errors.c_str());
    for (const auto& f : p.error_files) std::printf("    %s\n", f.c_str());
    for (const auto& v : p.vdevs) {
      std::printf("  %s  %s %s  %s\n", v.name.c_str(), v.type.c_str(), v.role.c_str(),
                  v.state.empty() ? "" : v.state.c_str());
      if (&v == &p.vdevs.front())
        std::printf("    %-40s %-9s %6s %6s %6s %6s\n", "", "STATE", "READ", "WRITE", "CKSUM",
                    "SLOW");
      for (const auto& m : v.members) {
        std::string indent = m.parent.empty() ? "    " : "      ";
        int width = 44 - static_cast<int>(indent.size());
        std::printf("%s%-*s %-9s %6s %6s %6s %6s  %s%s\n", indent.c_str(), width, m.path.c_str(),
                    m.state.c_str(), Counter(m.read_errors, m.counters_approximate).c_str(),
                    Counter(m.write_errors, m.counters_approximate).c_str(),
                    Counter(m.checksum_errors, m.counters_approximate).c_str(),
                    Counter(m.slow_ios, false).c_str(),
                    m.container ? "" : (m.drive_id.empty() ? "(no drive)" : m.drive_id.c_str()),
                    m.note.empty() ? "" : ("  " + m.note).c_str());
      }
    }
    std::printf("\n");
  }
}

bool Healthy(const std::vector<Pool>& pools) {
  for (const auto& p : pools) {
    if (p.state != "ONLINE") return false;
    if (!p.errors.empty() && p.errors != "No known data errors") return false;
  }
  return true;
}

}  // namespace

int RunPoolsCommand(const Args& args) {
  std::vector<std::string> rest;
  auto options = ParseLocalOptions(args, rest);
  if (!options.ok()) return UsageError("pools", options.status().message(), kUsage);
  if (options->help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (!rest.empty()) return UsageError("pools", "unexpected argument '" + rest[0] + "'", kUsage);

  std::vector<Pool> pools;
  std::vector<std::string> warnings;
  if (options->from_file) {
    const std::string& file = *options->from_file;
    auto text = ReadInput(file);
    if (!text.ok()) return UsageError("pools", text.status().message());
    auto parsed = ParseZpoolStatus(*text, &warnings);
    if (!parsed.ok()) return UsageError("pools", file + ": " + parsed.status().message());
    pools = std::move(parsed).value();
  } else {
    auto config = LoadLocalConfig(*options);
    if (!config.ok()) return UsageError("pools", config.status().message());
    auto runner = MakeLocalRunner(*options);
    if (!runner.ok()) return UsageError("pools", runner.status().ToString());
    auto inv = ReadInventory(*config, **runner);
    if (!inv.ok()) return UsageError("pools", inv.status().ToString());
    if (!inv->pools_status.ok()) return UsageError("pools", inv->pools_status.ToString());
    pools = std::move(inv->pools);
    warnings = std::move(inv->warnings);
    // SLOW counts (zpool status -s); a zpool without -s leaves them unknown.
    for (Pool& p : pools) {
      if (p.kind != "zfs" || p.name.empty()) continue;
      ZfsPoolReading r = ReadZfsPool(*config, **runner, p, false);
      for (auto& v : p.vdevs)
        for (auto& m : v.members)
          if (auto it = r.slow_ios.find(m.path); !m.slow_ios && it != r.slow_ios.end())
            m.slow_ios = it->second;
    }
  }
  if (options->json) {
    std::printf("%s\n", PoolsToJson(pools).dump(2).c_str());
  } else {
    PrintHuman(pools);
  }
  for (const auto& w : warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  return Healthy(pools) ? 0 : 1;
}

}  // namespace dp::cli
