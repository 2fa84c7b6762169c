#include "sched/run_evaluator.h"

#include <algorithm>

#include "base/log.h"
#include "detect/peer_detector.h"
#include "detect/series.h"
#include "detect/smart_detector.h"
#include "sched/rebaseline.h"
#include "store/store.h"

namespace dp {
namespace {

// The history query of one series of `drive_id`.
HistoryQuery QueryFor(const std::string& drive_id, const detect::SeriesSpec& spec) {
  HistoryQuery q;
  q.drive_id = drive_id;
  q.test = spec.key.test;
  q.metric = spec.key.metric;
  q.zone = spec.zone;
  q.stroke = spec.stroke;
  q.variant = spec.variant;
  q.block_size = spec.block_size;
  q.queue_depth = spec.queue_depth;
  q.limit = 500;  // the newest runs: the runs judged and the trend window
  return q;
}

// A drive's samples for detection, oldest first without repeats: the oldest
// since `since` (its baseline: up to 2 x baseline_max_runs, room for runs
// the baseline skips) and the newest 500. With only the newest, a drive
// tested daily for years would see its baseline slide forward with the
// window and absorb a slow decline.
Result<std::vector<MeasurementSample>> DetectionHistory(Store& store, HistoryQuery q,
                                                        std::int64_t since,
                                                        const DetectionConfig& cfg) {
  DP_ASSIGN_OR_RETURN(std::vector<MeasurementSample> newest, store.History(q));
  if (static_cast<int>(newest.size()) < q.limit) return newest;  // the whole history
  HistoryQuery head = q;
  head.oldest = true;
  head.since = since;
  head.limit = 2 * std::max(cfg.baseline_max_runs, cfg.baseline_runs);
  DP_ASSIGN_OR_RETURN(std::vector<MeasurementSample> oldest, store.History(head));
  std::vector<MeasurementSample> out;
  for (auto& s : oldest)
    if (s.at < newest.front().at) out.push_back(std::move(s));  // before the newest window
  for (auto& s : newest) out.push_back(std::move(s));
  return out;
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

bool IsJudgedTest(const std::string& test) {
  return test == "seq" || test == "zones" || test == "seek" || test == "random" ||
         test == "sweep";
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
  } else if (IsJudgedTest(run.test)) {
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
  // The latest re-baseline of this drive x test: baselines form anew after it.
  DP_ASSIGN_OR_RETURN(const std::int64_t baseline_since,
                      BaselineSince(store_, drive->id, run.test));
  for (const auto& point : points) {
    if (point.test != run.test || point.contended || point.partial) continue;
    for (const auto& spec : detect::SeriesOf(drive->id, drive->name, point)) {
      DP_ASSIGN_OR_RETURN(
          std::vector<MeasurementSample> hist,
          DetectionHistory(store_, QueryFor(drive->id, spec), baseline_since, config_));
      std::vector<detect::Sample> samples = detect::ToSamples(hist);
      for (auto& v : detect::EvaluateSeries(spec.key, samples, config_, baseline_since))
        out.push_back(std::move(v));
      if (!siblings.empty()) {
        std::vector<detect::PeerHistory> peers;
        for (const auto& s : siblings) {
          auto h = store_.History(QueryFor(s.id, spec));
          if (h.ok() && !h->empty()) peers.push_back({s.id, s.name, detect::ToSamples(*h)});
        }
        if (!peers.empty())
          out.push_back(detect::EvaluatePeers(spec.key, samples, peers, config_));
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
