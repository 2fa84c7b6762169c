#include "runs/run_evaluator.h"

#include <algorithm>

#include "alert/alert_events.h"
#include "base/log.h"
#include "detect/judge.h"
#include "detect/smart_detector.h"
#include "model/condition.h"
#include "model/test_catalog.h"
#include "runs/override_book.h"
#include "runs/store_series_history.h"
#include "store/store.h"

namespace dp {

// What a judgement writes in the daemon: the alerts, the store, the
// scheduler (through the confirm callback).
class RunEvaluator::Effects final : public detect::JudgementEffects {
 public:
  Effects(RunEvaluator& e, std::string what) : e_(e), what_(std::move(what)) {}

  Status Verdicts(const std::vector<Verdict>& verdicts) override {
    for (const auto& v : verdicts)
      if (v.kind != VerdictKind::kClear && v.kind != VerdictKind::kBaselining &&
          v.kind != VerdictKind::kInconclusive)
        LogInfo("detect: " + what_ + ": " + std::string(VerdictKindName(v.kind)) + ": " +
                v.summary);
    if (!e_.alerts_) return Status::Ok();
    Status s = e_.alerts_->OnVerdicts(verdicts);
    if (!s.ok()) return s.WithContext("alerts");
    return s;
  }

  Status MarkInterference(const detect::InterferenceMark& m) override {
    DP_RETURN_IF_ERROR(e_.store_.MarkInterference(m.run_id));
    LogInfo("detect: run " + std::to_string(m.run_id) + " of drive " + m.drive_id +
            " kept out of its baselines: every read path of the drive was worse in its "
            "window (unseen interference), found by " + m.found_by);
    return Status::Ok();
  }

  // Through the alert service (it closes the drive's slowdown and trend
  // events the shift may have opened), or straight into the store.
  Status Rebaseline(const RebaselineMark& mark) override {
    LogInfo("detect: drive " + mark.drive_id + " " + mark.test + ": " + mark.reason);
    if (e_.alerts_) return e_.alerts_->Rebaseline(mark).status();
    return e_.store_.InsertRebaseline(mark).status();
  }

  Status Retest(const detect::RetestRequest& r) override {
    if (!e_.confirm_) return Status::Ok();
    // One re-test per run: the run's own doubt and its peer doubt may both
    // ask for it, from two threads (a scheduler's and the periodic peer pass).
    {
      MutexLock lock(e_.mu_);
      if (e_.asked_.size() > 4096) e_.asked_.erase(e_.asked_.begin());
      if (!e_.asked_.insert(r.of_run).second) return Status::Ok();
    }
    e_.confirm_(r.drive_id, r.test, r.of_run);
    return Status::Ok();
  }

  Status MarkPeerJudged(std::int64_t run_id) override { return e_.store_.MarkPeerJudged(run_id); }

 private:
  RunEvaluator& e_;
  std::string what_;
};

RunEvaluator::RunEvaluator(Store& store, AlertService* alerts, DetectionConfig config,
                           ConfirmFn confirm, OverrideBook* overrides)
    : store_(store),
      alerts_(alerts),
      config_(config),
      confirm_(std::move(confirm)),
      overrides_(overrides) {}

Status RunEvaluator::Apply(const detect::Judgement& judgement, const std::string& what) {
  Effects effects(*this, what);
  Status s = detect::ApplyJudgement(judgement, effects);
  if (!s.ok()) LogError("detect: " + what + ": " + s.ToString());
  return s;
}

Result<std::vector<Verdict>> RunEvaluator::Evaluate(const Run& run) {
  // Contended, partial, failed, cancelled, skipped runs: never evidence.
  if (run.outcome != RunOutcome::kOk || run.contended || run.partial || run.drive_id.empty())
    return std::vector<Verdict>{};
  if (run.test == "smart") {
    DP_ASSIGN_OR_RETURN(std::vector<Verdict> verdicts, EvaluateSmartRun(run));
    detect::Judgement j;
    j.verdicts = verdicts;
    (void)Apply(j, "run " + std::to_string(run.id));
    return verdicts;
  }
  if (!IsJudgedTest(run.test)) return std::vector<Verdict>{};
  DP_ASSIGN_OR_RETURN(std::vector<Verdict> verdicts, EvaluateBench(run));
  // The run may complete its group's cycle: the peer verdicts it made due.
  const std::int64_t now = std::max<std::int64_t>(run.ended_at.value_or(run.started_at),
                                                  run.started_at);
  auto peers = JudgePeers(run.test, now, run.drive_id);
  if (!peers.ok()) return peers.status();
  for (Verdict& v : *peers) verdicts.push_back(std::move(v));
  return verdicts;
}

Result<std::vector<Verdict>> RunEvaluator::JudgePeers(const std::string& test, std::int64_t now,
                                                      const std::string& ran) {
  MutexLock lock(peers_mu_);
  std::vector<Verdict> out;
  for (const TestInfo& info : TestCatalog()) {
    if (!info.judged || (!test.empty() && info.name != test)) continue;
    StoreSeriesHistory history(store_);
    DP_ASSIGN_OR_RETURN(detect::Judgement j,
                        detect::JudgeDuePeers(info.name, now, history, config_,
                                              static_cast<bool>(confirm_), ran));
    if (j.verdicts.empty() && j.peer_judged.empty()) continue;
    (void)Apply(j, "peers of " + info.name);
    for (Verdict& v : j.verdicts) out.push_back(std::move(v));
  }
  return out;
}

// The run and its points, judged by detect::JudgeRun over the store.
Result<std::vector<Verdict>> RunEvaluator::EvaluateBench(const Run& run) {
  DP_ASSIGN_OR_RETURN(std::optional<Drive> drive, store_.GetDrive(run.drive_id));
  if (!drive) return std::vector<Verdict>{};
  detect::RunToJudge judged;
  judged.id = run.id;
  judged.test = run.test;
  judged.started_at = run.started_at;
  judged.drive = DriveRefOf(*drive);
  DP_ASSIGN_OR_RETURN(judged.points, store_.RunPoints(run.id));
  judged.confirmation = RunTriggerOf(run.trigger) == RunTrigger::kConfirm;
  judged.retests = static_cast<bool>(confirm_);
  StoreSeriesHistory history(store_);
  DP_ASSIGN_OR_RETURN(detect::Judgement j, detect::JudgeRun(judged, history, config_));
  (void)Apply(j, "run " + std::to_string(run.id));
  return std::move(j.verdicts);
}
Result<std::vector<Verdict>> RunEvaluator::EvaluateSmartRun(const Run& run) {
  std::vector<Verdict> out;
  DP_ASSIGN_OR_RETURN(std::optional<Drive> drive, store_.GetDrive(run.drive_id));
  if (!drive) return out;
  DP_ASSIGN_OR_RETURN(auto history, store_.SmartHistory(run.drive_id, 0, 2));
  if (history.empty()) return out;  // asleep: no snapshot taken
  const SmartSnapshot* previous = history.size() > 1 ? &history[1].second : nullptr;
  std::optional<ResolvedOverrides> tuned;
  if (overrides_) {
    DP_ASSIGN_OR_RETURN(tuned, overrides_->For(*drive));
    overrides_->LogMissingAttributes({{*drive, history[0].second}});
  }
  return detect::EvaluateSmart(drive->id, drive->name, previous, history[0].second,
                               history[0].first, config_, tuned ? &*tuned : nullptr);
}

}  // namespace dp
