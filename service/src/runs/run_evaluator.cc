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

RunEvaluator::RunEvaluator(Store& store, AlertService* alerts, DetectionConfig config,
                           ConfirmFn confirm, OverrideBook* overrides)
    : store_(store),
      alerts_(alerts),
      config_(config),
      confirm_(std::move(confirm)),
      overrides_(overrides) {}

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
  KeepInterference(run, *verdicts);
  for (const RebaselineMark& mark : AbsorbedShift(run, *verdicts)) {
    if (mark.drive_id != run.drive_id) {
      // A sibling already alerted as slowing before the shift began is its
      // own event: its baselines stay (re-forming them would close it).
      AlertFilter f;
      f.state = "active";
      f.drive_id = mark.drive_id;
      f.limit = 0;
      auto open = store_.ListAlerts(f);
      if (!open.ok()) {
        LogError("detect: run " + std::to_string(run.id) + ": " + open.status().ToString());
        continue;
      }
      if (std::any_of(open->begin(), open->end(),
                      [&](const Alert& a) { return SlowingBefore(a, mark.at); }))
        continue;
    }
    Status s = KeepAbsorbedShift(mark);
    if (!s.ok()) LogError("detect: run " + std::to_string(run.id) + ": " + s.ToString());
  }
  // One confirmation per doubt: a confirmation run that doubts again is
  // judged by the next scheduled run.
  if (confirm && confirm_ && RunTriggerOf(run.trigger) != RunTrigger::kConfirm)
    confirm_(run.drive_id, run.test, run.id);
  return verdicts;
}

std::vector<RebaselineMark> AbsorbedShift(const Run& run, const std::vector<Verdict>& verdicts) {
  std::vector<RebaselineMark> marks;
  for (const Verdict& v : verdicts) {
    if (!v.rebaseline_from) continue;
    RebaselineMark mark;
    mark.drive_id = run.drive_id;
    // Every test: a box-wide change moves the drive's other read paths too,
    // and absorbed test by test (each when its own run next doubts) the
    // box's one event went on for months.
    mark.test = "";
    mark.at = *v.rebaseline_from;
    mark.reason = "automatic: " + v.summary;
    mark.who = "diskpulse (shift shared by the vdev)";
    marks.push_back(mark);
    for (const std::string& sibling : v.rebaseline_siblings) {
      RebaselineMark m = mark;
      m.drive_id = sibling;
      m.reason = "automatic, with " + (v.drive_name.empty() ? run.drive_id : v.drive_name) +
                 ": " + v.summary;
      marks.push_back(std::move(m));
    }
    break;
  }
  return marks;
}

// Earlier runs this judgement recognised as unseen interference
// (Verdict::interference_runs): flagged in the store, so that no baseline
// takes them in from now on. A run that cannot be flagged is logged and
// judged as before; nothing else depends on it.
void RunEvaluator::KeepInterference(const Run& run, const std::vector<Verdict>& verdicts) {
  std::vector<std::int64_t> done;
  for (const Verdict& v : verdicts)
    for (std::int64_t id : v.interference_runs) {
      if (std::find(done.begin(), done.end(), id) != done.end()) continue;
      done.push_back(id);
      Status s = store_.MarkInterference(id);
      if (!s.ok()) {
        LogError("detect: run " + std::to_string(run.id) + ": " + s.ToString());
        continue;
      }
      LogInfo("detect: run " + std::to_string(id) + " of drive " + run.drive_id +
              " kept out of its baselines: every read path of the drive was worse in its "
              "window (unseen interference), found by " + v.condition);
    }
}

// The mark through the alert service (it closes the drive's slowdown and
// trend events the shift may have opened), or straight into the store.
Status RunEvaluator::KeepAbsorbedShift(const RebaselineMark& mark) {
  LogInfo("detect: drive " + mark.drive_id + " " + mark.test + ": " + mark.reason);
  if (alerts_) return alerts_->Rebaseline(mark).status();
  return store_.InsertRebaseline(mark).status();
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
  return detect::JudgeRun(judged, history, config_);
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
  }
  return detect::EvaluateSmart(drive->id, drive->name, previous, history[0].second,
                               history[0].first, config_, tuned ? &*tuned : nullptr);
}

}  // namespace dp
