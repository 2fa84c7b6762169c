#include "watch/zfs_latency_sampler.h"

#include <cmath>
#include <set>

#include "inventory/zpool_get_parser.h"
#include "inventory/zpool_status_parser.h"

namespace dp {
namespace {

std::string FirstLine(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find('\n', b) - b);
}

// The tool's stdout, or why there is none (nullopt with a warning; nothing
// at all when zpool is not installed: discovery says so once already, or
// when `quiet`: the command is optional on this zpool).
std::optional<std::string> RunZpool(const Config& config, CommandRunner& runner,
                                    std::vector<std::string> args,
                                    std::vector<std::string>& warnings, bool quiet = false) {
  CommandSpec spec;
  spec.argv = {config.tools.zpool};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.timeout = std::chrono::seconds(config.tools.timeout_seconds);
  auto out = runner.Run(spec);
  std::string cmd = "zpool " + args[0] + " " + args[1];
  if (!out.ok()) {
    if (!quiet && (out.status().code() != StatusCode::kNotFound ||
                   out.status().message() != config.tools.zpool + " not found")) {
      warnings.push_back(cmd + ": " + out.status().message());
    }
    return std::nullopt;
  }
  if (out->exit_code != 0) {
    if (!quiet) {
      warnings.push_back(cmd + " " + args.back() + ": exit status " +
                         std::to_string(out->exit_code) + ": " +
                         FirstLine(out->stderr_text.empty() ? out->stdout_text : out->stderr_text));
    }
    return std::nullopt;
  }
  return out->stdout_text;
}

std::vector<std::string> MemberPaths(const Pool& pool) {
  std::vector<std::string> out;
  for (const auto& v : pool.vdevs)
    for (const auto& m : v.members)
      if (!m.container) out.push_back(m.path);
  return out;
}

}  // namespace

std::vector<std::string> ZfsIostatArgs(const std::string& pool) {
  return {"iostat", "-v", "-l", "-p", "-P", "-y", pool, "5", "1"};
}

std::vector<std::string> ZfsSlowStatusArgs(const std::string& pool) {
  return {"status", "-s", "-p", "-P", pool};
}

std::vector<std::string> ZfsSitOutArgs(const std::string& pool) {
  return {"get", "-H", "-p", "sit_out", pool, "all-vdevs"};
}

std::vector<std::string> ZfsHistogramArgs(const std::string& pool) {
  return {"iostat", "-w", "-v", "-p", "-P", pool};
}

Result<std::pair<std::vector<std::uint64_t>, std::vector<std::uint64_t>>> DiskWaitBuckets(
    const ZpoolLatencyHistogram& table) {
  std::size_t rc = table.columns.size(), wc = table.columns.size();
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (table.columns[c] == "disk_wait_read") rc = c;
    if (table.columns[c] == "disk_wait_write") wc = c;
  }
  if (rc == table.columns.size() || wc == table.columns.size())
    return Corrupt("zpool iostat -w table of " + table.name + " has no disk_wait columns");
  std::vector<std::uint64_t> read, write;
  std::set<std::size_t> seen;
  for (std::size_t b = 0; b < table.bucket_seconds.size(); ++b) {
    // Labels are the buckets' upper bounds, 2^(i+1) - 1 ns, printed exactly
    // with -p and rounded otherwise ("33ms" for 2^25 ns): the nearest power
    // of two names the bucket.
    double ns = table.bucket_seconds[b] * 1e9;
    long index = std::lround(std::log2(ns + 1.0)) - 1;
    if (index < 0 || index >= 64 || !seen.insert(static_cast<std::size_t>(index)).second)
      return Corrupt("zpool iostat -w table of " + table.name + ": bucket label of row " +
                     std::to_string(b + 1) + " is not a new power of two");
    auto i = static_cast<std::size_t>(index);
    if (read.size() <= i) {
      read.resize(i + 1, 0);
      write.resize(i + 1, 0);
    }
    read[i] = table.counts[b][rc].value_or(0);
    write[i] = table.counts[b][wc].value_or(0);
  }
  return std::make_pair(std::move(read), std::move(write));
}

ZfsPoolReading ReadZfsPool(const Config& config, CommandRunner& runner, const Pool& pool,
                           bool with_latency) {
  ZfsPoolReading r;
  if (with_latency) {
    auto iostat = RunZpool(config, runner, ZfsIostatArgs(pool.name), r.warnings);
    if (!iostat) return r;
    auto rows = ParseZpoolIostatLatency(*iostat);
    if (!rows.ok()) {
      r.warnings.push_back("zpool iostat " + pool.name + ": " + rows.status().message());
      return r;
    }
    r.latency_read = true;
    r.latency = std::move(rows).value();
  }
  // SLOW counts: optional (zpool 0.7 has no -s; a failure loses only them).
  if (auto text = RunZpool(config, runner, ZfsSlowStatusArgs(pool.name), r.warnings)) {
    auto parsed = ParseZpoolStatusText(*text);
    if (!parsed.ok()) {
      r.warnings.push_back("zpool status -s " + pool.name + ": " + parsed.status().message());
    } else {
      for (const auto& p : *parsed)
        for (const auto& v : p.vdevs)
          for (const auto& m : v.members)
            if (m.slow_ios) r.slow_ios[m.path] = *m.slow_ios;
    }
  }
  if (!with_latency) return r;
  // sit_out: OpenZFS 2.4 and later only; older zpools refuse the property
  // (or, before 2.2, vdev properties altogether): unknown, not a problem.
  if (auto text = RunZpool(config, runner, ZfsSitOutArgs(pool.name), r.warnings, true)) {
    auto lines = ParseZpoolGetVdevProperties(*text);
    if (!lines.ok())
      r.warnings.push_back("zpool get sit_out " + pool.name + ": " + lines.status().message());
    else
      r.sit_out = ZpoolSitOutByMember(*lines, MemberPaths(pool));
  }
  if (auto text = RunZpool(config, runner, ZfsHistogramArgs(pool.name), r.warnings)) {
    auto tables = ParseZpoolIostatHistogram(*text);
    if (!tables.ok()) {
      r.warnings.push_back("zpool iostat -w " + pool.name + ": " + tables.status().message());
    } else {
      for (const auto& t : *tables) {
        auto buckets = DiskWaitBuckets(t);
        if (!buckets.ok()) {
          r.warnings.push_back("zpool iostat -w " + pool.name + ": " + buckets.status().message());
          break;
        }
        r.histograms[t.name] = std::move(buckets).value();
      }
    }
  }
  return r;
}

std::vector<std::string> ReadZfsPools(const Config& config, CommandRunner& runner,
                                      const std::vector<Pool>& pools) {
  std::vector<std::string> warnings;
  for (const Pool& pool : pools) {
    if (pool.kind != "zfs" || pool.name.empty() || pool.Busy()) continue;
    for (auto& w : ReadZfsPool(config, runner, pool).warnings) warnings.push_back(std::move(w));
  }
  return warnings;
}

std::optional<ZfsWaitHistogram> ZfsHistogramMemory::Difference(
    const std::string& pool, const std::string& member, std::int64_t at,
    const std::pair<std::vector<std::uint64_t>, std::vector<std::uint64_t>>& cumulative) {
  auto key = std::make_pair(pool, member);
  auto it = previous_.find(key);
  std::optional<ZfsWaitHistogram> out;
  if (it != previous_.end() && at > it->second.at) {
    const Previous& p = it->second;
    auto diff = [](const std::vector<std::uint64_t>& now, const std::vector<std::uint64_t>& then,
                   std::vector<std::uint64_t>& d) {
      d.assign(std::max(now.size(), then.size()), 0);
      for (std::size_t i = 0; i < d.size(); ++i) {
        std::uint64_t a = i < now.size() ? now[i] : 0, b = i < then.size() ? then[i] : 0;
        if (a < b) return false;  // counters reset
        d[i] = a - b;
      }
      return true;
    };
    ZfsWaitHistogram h;
    h.seconds = at - p.at;
    if (diff(cumulative.first, p.read, h.read) && diff(cumulative.second, p.write, h.write))
      out = std::move(h);
  }
  previous_[key] = Previous{at, cumulative.first, cumulative.second};
  return out;
}

void ZfsHistogramMemory::Forget(const std::string& pool) {
  for (auto it = previous_.begin(); it != previous_.end();) {
    if (it->first.first == pool)
      it = previous_.erase(it);
    else
      ++it;
  }
}

Result<ZfsLatencyReport> SampleZfsLatency(const Config& config, CommandRunner& runner, Store& store,
                                          const std::vector<Pool>& pools, std::int64_t at,
                                          ZfsHistogramMemory* memory,
                                          const detect::ZfsPeerRule& rule) {
  ZfsLatencyReport report;
  for (const Pool& pool : pools) {
    if (pool.kind != "zfs" || pool.name.empty()) continue;
    // A resilver writes to one member and a scrub reads at its own pace:
    // like the tests, the sampling waits for an ordinary pool (and the disk
    // wait histograms start afresh after it).
    if (pool.Busy()) {
      if (memory) memory->Forget(pool.name);
      continue;
    }
    std::map<std::string, std::string> drive_of;  // member path -> drive id
    for (const auto& v : pool.vdevs)
      for (const auto& m : v.members)
        if (!m.drive_id.empty()) drive_of[m.path] = m.drive_id;

    ZfsPoolReading reading = ReadZfsPool(config, runner, pool);
    for (auto& w : reading.warnings) report.warnings.push_back(std::move(w));
    if (!reading.latency_read) continue;
    std::set<std::string> vdevs;
    const std::size_t first = report.samples.size();
    for (const auto& r : reading.latency) {
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
      if (auto sl = reading.slow_ios.find(r.name); sl != reading.slow_ios.end())
        s.slow_ios = sl->second;
      if (auto so = reading.sit_out.find(r.name); so != reading.sit_out.end())
        s.sit_out = so->second;
      if (auto h = reading.histograms.find(r.name); memory && h != reading.histograms.end())
        s.disk_wait_histogram = memory->Difference(pool.name, r.name, at, h->second);
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
