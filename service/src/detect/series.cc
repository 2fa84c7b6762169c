#include "detect/series.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "detect/change_detector.h"
#include "detect/drive_shift.h"
#include "detect/trend_detector.h"
#include "model/test_catalog.h"

namespace dp::detect {
namespace {

std::string BlockSizeName(std::uint32_t bs) {
  if (bs == 0) return "";
  if (bs % (1u << 20) == 0) return std::to_string(bs >> 20) + "m";
  if (bs % 1024 == 0) return std::to_string(bs >> 10) + "k";
  return std::to_string(bs);
}

}  // namespace

std::string SeriesName(const std::string& test, const std::string& zone, const std::string& stroke,
                       const std::string& variant, std::uint32_t block_size,
                       std::uint32_t queue_depth) {
  std::string out;
  auto add = [&out](const std::string& s) {
    if (s.empty()) return;
    if (!out.empty()) out += ' ';
    out += s;
  };
  add(zone);
  add(stroke);
  add(variant);
  if (test != "seek" && test != "zones" && (queue_depth || block_size)) {
    std::string shape = "qd" + std::to_string(queue_depth);
    if (block_size) shape += "-" + BlockSizeName(block_size);
    add(shape);
  }
  return out;
}

std::string SeriesName(const BenchPoint& p) {
  return SeriesName(p.test, p.zone.value_or(""), p.stroke.value_or(""), p.variant.value_or(""),
                    p.block_size, p.queue_depth);
}

std::vector<SeriesSpec> SeriesOf(const std::string& drive_id, const std::string& drive_name,
                                 const BenchPoint& p) {
  // The test's figures (model/test_catalog.h); a point of a test the catalog
  // does not know is taken as a throughput series.
  std::vector<std::string> metrics;
  if (const TestInfo* t = FindTest(p.test)) {
    for (const TestMetric& m : t->metrics) {
      const bool has = m.metric == "p99_us"      ? p.latency.has_value()
                       : m.metric == "access_ms" ? p.access_ms.has_value()
                                                 : true;
      if (m.always || has) metrics.push_back(m.metric);
    }
  } else {
    metrics = {"mb_per_s"};
  }
  std::vector<SeriesSpec> out;
  for (const auto& m : metrics) {
    SeriesSpec s;
    s.key = SeriesKey{drive_id, drive_name, p.test, SeriesName(p), m};
    s.zone = p.zone.value_or("");
    s.stroke = p.stroke.value_or("");
    s.variant = p.variant.value_or("");
    s.block_size = p.block_size;
    s.queue_depth = p.queue_depth;
    out.push_back(std::move(s));
  }
  return out;
}

std::optional<double> FigureOf(const BenchPoint& p, const std::string& metric) {
  if (metric == "mb_per_s" && p.mb_per_s > 0) return p.mb_per_s;
  if (metric == "iops" && p.iops > 0) return p.iops;
  if (metric == "access_ms" && p.access_ms) return *p.access_ms;
  if (metric == "p99_us" && p.latency) return p.latency->p99_us;
  return std::nullopt;
}

bool SameNoiseFamily(const SeriesKey& a, const SeriesKey& b) {
  const double tails = TailDfOf(a.metric);
  if (tails > 0 && tails < 10) return false;
  return a.drive_id == b.drive_id && a.metric == b.metric && SameReadPath(a.test, b.test) &&
         !(a.test == b.test && a.series == b.series);
}

bool HasJointSeries(const std::string& test) { return test == "zones"; }

std::vector<Sample> JointSamples(const std::vector<std::vector<Sample>>& members) {
  struct Acc {
    Sample joint;  // run_id, at and the members' flags, any of them
    double log_sum = 0;
    std::size_t count = 0;
    bool good = true;
  };
  std::map<std::int64_t, Acc> by_run;
  for (const auto& member : members) {
    std::set<std::int64_t> seen;  // a run counted once per member
    for (const Sample& s : member) {
      if (s.run_id == 0 || !seen.insert(s.run_id).second) continue;
      Acc& a = by_run[s.run_id];
      if (a.count++ == 0) {
        a.joint.run_id = s.run_id;
        a.joint.at = s.at;
      }
      a.joint.contended = a.joint.contended || s.contended;
      a.joint.partial = a.joint.partial || s.partial;
      a.joint.failed = a.joint.failed || s.failed;
      a.joint.unwritten = a.joint.unwritten || s.unwritten;
      a.good = a.good && s.Good();
      if (s.Good()) a.log_sum += std::log(s.value);
    }
  }
  std::vector<Sample> out;
  for (auto& [id, a] : by_run) {
    if (members.empty() || a.count != members.size()) continue;
    a.joint.value = a.good ? std::exp(a.log_sum / static_cast<double>(a.count)) : 0;
    out.push_back(a.joint);
  }
  SortByTime(out);
  return out;
}

SpreadPrior JointSpreadFloor(const std::vector<Baseline>& members_own) {
  SpreadPrior floor;
  const SpreadPrior pooled = PoolSpread(members_own);
  if (pooled.df > 0) {
    floor.floor_log_sd = pooled.log_sd / std::sqrt(static_cast<double>(members_own.size()));
    floor.floor_df = pooled.df;
  }
  return floor;
}

std::vector<Verdict> EvaluateSeries(const SeriesKey& key, const std::vector<Sample>& history,
                                    const DetectionConfig& cfg, std::int64_t baseline_since,
                                    const SpreadPrior& prior) {
  return {EvaluateChange(key, history, cfg, baseline_since, prior),
          EvaluateTrend(key, history, cfg, baseline_since)};
}

}  // namespace dp::detect
