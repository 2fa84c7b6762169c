#include "sched/zfs_latency_sampler.h"

#include <map>
#include <set>

#include "inventory/zpool_iostat_parser.h"
#include "inventory/zpool_status_parser.h"

namespace dp {
namespace {

std::string FirstLine(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find('\n', b) - b);
}

// The tool's stdout, or why there is none (nullopt with a warning; nothing
// at all when zpool is not installed: discovery says so once already).
std::optional<std::string> RunZpool(const Config& config, CommandRunner& runner,
                                    std::vector<std::string> args,
                                    std::vector<std::string>& warnings) {
  CommandSpec spec;
  spec.argv = {config.tools.zpool};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.timeout = std::chrono::seconds(config.tools.timeout_seconds);
  auto out = runner.Run(spec);
  std::string cmd = "zpool " + args[0] + " " + args[1];
  if (!out.ok()) {
    if (out.status().code() != StatusCode::kNotFound ||
        out.status().message() != config.tools.zpool + " not found") {
      warnings.push_back(cmd + ": " + out.status().message());
    }
    return std::nullopt;
  }
  if (out->exit_code != 0) {
    warnings.push_back(cmd + " " + args.back() + ": exit status " +
                       std::to_string(out->exit_code) + ": " +
                       FirstLine(out->stderr_text.empty() ? out->stdout_text : out->stderr_text));
    return std::nullopt;
  }
  return out->stdout_text;
}

}  // namespace

std::vector<std::string> ZfsIostatArgs(const std::string& pool) {
  return {"iostat", "-v", "-l", "-p", "-P", "-y", pool, "5", "1"};
}

std::vector<std::string> ZfsSlowStatusArgs(const std::string& pool) {
  return {"status", "-s", "-p", "-P", pool};
}

Result<ZfsLatencyReport> SampleZfsLatency(const Config& config, CommandRunner& runner,
                                          Store& store, const std::vector<Pool>& pools,
                                          std::int64_t at, const detect::ZfsPeerRule& rule) {
  ZfsLatencyReport report;
  for (const Pool& pool : pools) {
    if (pool.kind != "zfs" || pool.name.empty()) continue;
    // A resilver writes to one member and a scrub reads at its own pace:
    // like the tests, the sampling waits for an ordinary pool.
    if (pool.Busy()) continue;
    std::map<std::string, std::string> drive_of;  // member path -> drive id
    for (const auto& v : pool.vdevs)
      for (const auto& m : v.members)
        if (!m.drive_id.empty()) drive_of[m.path] = m.drive_id;

    auto iostat = RunZpool(config, runner, ZfsIostatArgs(pool.name), report.warnings);
    if (!iostat) continue;
    auto rows = ParseZpoolIostatLatency(*iostat);
    if (!rows.ok()) {
      report.warnings.push_back("zpool iostat " + pool.name + ": " + rows.status().message());
      continue;
    }
    // SLOW counts: optional (zpool 0.7 has no -s; a failure loses only them).
    std::map<std::string, std::uint64_t> slow;
    if (auto text = RunZpool(config, runner, ZfsSlowStatusArgs(pool.name), report.warnings)) {
      auto parsed = ParseZpoolStatusText(*text);
      if (!parsed.ok()) {
        report.warnings.push_back("zpool status -s " + pool.name + ": " +
                                  parsed.status().message());
      } else {
        for (const auto& p : *parsed)
          for (const auto& v : p.vdevs)
            for (const auto& m : v.members)
              if (m.slow_ios) slow[m.path] = *m.slow_ios;
      }
    }
    std::set<std::string> vdevs;
    const std::size_t first = report.samples.size();
    for (const auto& r : *rows) {
      if (!r.leaf || r.pool != pool.name) continue;
      ZfsLatencySample s;
      s.at = at;
      s.pool = pool.name;
      s.vdev = r.vdev;
      s.member = r.name;
      if (auto d = drive_of.find(r.name); d != drive_of.end()) s.drive_id = d->second;
      s.read_ops = r.read_ops;
      s.write_ops = r.write_ops;
      s.disk_wait_read = r.disk_wait_read;
      s.disk_wait_write = r.disk_wait_write;
      s.total_wait_read = r.total_wait_read;
      s.total_wait_write = r.total_wait_write;
      if (auto sl = slow.find(r.name); sl != slow.end()) s.slow_ios = sl->second;
      vdevs.insert(s.vdev);
      report.samples.push_back(std::move(s));
    }
    std::vector<ZfsLatencySample> mine(report.samples.begin() + static_cast<std::ptrdiff_t>(first),
                                       report.samples.end());
    DP_RETURN_IF_ERROR(store.AddZfsLatencySamples(mine));
    for (const auto& v : vdevs) {
      DP_ASSIGN_OR_RETURN(auto history, store.ZfsLatencyOfVdev(pool.name, v, rule.samplings + 1));
      auto verdicts = detect::EvaluateZfsLatencyPeers(history, rule);
      for (auto& verdict : verdicts) report.verdicts.push_back(std::move(verdict));
    }
  }
  return report;
}

}  // namespace dp
