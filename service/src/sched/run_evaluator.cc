#include "sched/run_evaluator.h"

#include "base/log.h"
#include "detect/change_detector.h"
#include "detect/peer_detector.h"
#include "detect/smart_detector.h"
#include "detect/trend_detector.h"
#include "store/store.h"

namespace dp {
namespace {

std::string BlockSizeText(std::uint32_t bs) {
  if (bs >= (1u << 20) && bs % (1u << 20) == 0) return std::to_string(bs >> 20) + "m";
  if (bs >= 1024 && bs % 1024 == 0) return std::to_string(bs >> 10) + "k";
  return std::to_string(bs);
}

// The history query of one metric of the series `point` belongs to.
HistoryQuery QueryFor(const std::string& drive_id, const BenchPoint& point,
                      const std::string& metric) {
  HistoryQuery q;
  q.drive_id = drive_id;
  q.test = point.test;
  q.metric = metric;
  q.zone = point.zone.value_or("");
  q.stroke = point.stroke.value_or("");
  q.variant = point.variant.value_or("");
  q.block_size = point.block_size;
  q.queue_depth = point.queue_depth;
  q.limit = 500;  // the newest runs; the trend window and baseline fit well inside
  return q;
}

bool HasMetric(const BenchPoint& p, const std::string& metric) {
  if (metric == "mb_per_s") return p.mb_per_s > 0;
  if (metric == "iops") return p.iops > 0;
  if (metric == "access_ms") return p.access_ms.has_value();
  return p.latency.has_value();
}

// Siblings of a drive: present members of its vdev with the same model.
std::vector<Drive> SiblingsOf(Store& store, const Drive& self) {
  std::vector<Drive> out;
  auto pools = store.LatestPools();
  if (!pools.ok()) return out;
  for (const auto& pool : *pools)
    for (const auto& vdev : pool.vdevs) {
      bool in = false;
      for (const auto& m : vdev.members) in = in || m.drive_id == self.id;
      if (!in) continue;
      for (const auto& m : vdev.members) {
        if (m.drive_id.empty() || m.drive_id == self.id) continue;
        auto d = store.GetDrive(m.drive_id);
        if (d.ok() && *d && (*d)->present && (*d)->model == self.model) out.push_back(**d);
      }
    }
  return out;
}

}  // namespace

std::vector<std::string> JudgedMetrics(const std::string& test) {
  if (test == "random") return {"iops", "p99_us"};
  if (test == "seek") return {"access_ms"};
  if (test == "seq" || test == "zones" || test == "sweep") return {"mb_per_s"};
  return {};
}

std::string SeriesOf(const BenchPoint& p) {
  std::string s;
  for (const auto* part : {&p.zone, &p.stroke, &p.variant})
    if (part->has_value() && !(*part)->empty()) s += **part + "/";
  return s + "qd" + std::to_string(p.queue_depth) + "-" + BlockSizeText(p.block_size);
}

RunEvaluator::RunEvaluator(Store& store, AlertService* alerts, DetectionConfig config,
                           ConfirmFn confirm)
    : store_(store), alerts_(alerts), config_(config), confirm_(std::move(confirm)) {}

Result<std::vector<Verdict>> RunEvaluator::Evaluate(const Run& run) {
  // Contended, partial, failed, cancelled, skipped runs: never evidence.
  if (run.outcome != RunOutcome::kOk || run.contended || run.partial || run.drive_id.empty())
    return std::vector<Verdict>{};
  Result<std::vector<Verdict>> verdicts = std::vector<Verdict>{};
  if (run.test == "smart") {
    verdicts = EvaluateSmartRun(run);
  } else if (!JudgedMetrics(run.test).empty()) {
    verdicts = EvaluateBench(run);
  }
  if (!verdicts.ok()) return verdicts;

  bool confirm = false;
  for (const auto& v : *verdicts) {
    if (v.kind == VerdictKind::kNeedsConfirmation) confirm = true;
    if (v.kind != VerdictKind::kClear && v.kind != VerdictKind::kBaselining &&
        v.kind != VerdictKind::kInconclusive)
      LogInfo("detect: run " + std::to_string(run.id) + ": " +
              std::string(VerdictKindName(v.kind)) + ": " + v.summary);
  }
  if (alerts_) {
    Status s = alerts_->OnVerdicts(*verdicts);
    if (!s.ok()) LogError("alerts: run " + std::to_string(run.id) + ": " + s.ToString());
  }
  // One confirmation per doubt: a confirmation run that doubts again is
  // judged by the next scheduled run.
  if (confirm && confirm_ && run.trigger != "confirm") confirm_(run.drive_id, run.test);
  return verdicts;
}

Result<std::vector<Verdict>> RunEvaluator::EvaluateBench(const Run& run) {
  std::vector<Verdict> out;
  DP_ASSIGN_OR_RETURN(std::optional<Drive> drive, store_.GetDrive(run.drive_id));
  if (!drive) return out;
  DP_ASSIGN_OR_RETURN(std::vector<BenchPoint> points, store_.RunPoints(run.id));
  std::vector<Drive> siblings = SiblingsOf(store_, *drive);
  for (const auto& point : points) {
    if (point.test != run.test || point.contended || point.partial) continue;
    for (const auto& metric : JudgedMetrics(run.test)) {
      if (!HasMetric(point, metric)) continue;
      detect::SeriesKey key{drive->id, drive->name, run.test, SeriesOf(point), metric};
      DP_ASSIGN_OR_RETURN(std::vector<MeasurementSample> hist,
                          store_.History(QueryFor(drive->id, point, metric)));
      std::vector<detect::Sample> samples = detect::ToSamples(hist);
      out.push_back(detect::EvaluateChange(key, samples, config_));
      out.push_back(detect::EvaluateTrend(key, samples, config_));
      if (!siblings.empty()) {
        std::vector<detect::PeerHistory> peers;
        for (const auto& s : siblings) {
          auto h = store_.History(QueryFor(s.id, point, metric));
          if (h.ok() && !h->empty()) peers.push_back({s.id, s.name, detect::ToSamples(*h)});
        }
        if (!peers.empty()) out.push_back(detect::EvaluatePeers(key, samples, peers, config_));
      }
    }
  }
  return out;
}

Result<std::vector<Verdict>> RunEvaluator::EvaluateSmartRun(const Run& run) {
  std::vector<Verdict> out;
  DP_ASSIGN_OR_RETURN(std::optional<Drive> drive, store_.GetDrive(run.drive_id));
  if (!drive) return out;
  DP_ASSIGN_OR_RETURN(auto history, store_.SmartHistory(run.drive_id, 0, 2));
  if (history.empty()) return out;  // asleep: no snapshot taken
  const SmartSnapshot* previous = history.size() > 1 ? &history[1].second : nullptr;
  return detect::EvaluateSmart(drive->id, drive->name, previous, history[0].second,
                               history[0].first, config_);
}

}  // namespace dp
