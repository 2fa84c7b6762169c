// RunEvaluator: what happens after a run finishes. It loads the run and its
// points, asks detect::JudgeRun (detect/judge.h: the one place that decides
// what a benchmark run means, over the store through StoreSeriesHistory) or,
// after a `smart` run, detect::EvaluateSmart for the verdicts, applies them
// to the alerts (AlertService: opened, refreshed, resolved, notified) and,
// keeps the automatic re-baseline mark a lasting vdev-wide shift asks for
// (AbsorbedShift), and,
// when a verdict asks for one, queues a confirmation re-test through the
// callback (the daemon queues a run-now with trigger "confirm:<run id>" after
// the configured delay). Runs that failed, were cancelled, contended or
// partial are never evidence: they are not evaluated at all.
//
// Owned by the composition root; called from the scheduler's threads
// (Scheduler's on_run_finished). Thread-safe: no state of its own beyond
// references to thread-safe parts.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "alert/alert_service.h"
#include "config/alerts_config.h"
#include "model/bench_result.h"
#include "model/drive.h"
#include "model/rebaseline_mark.h"
#include "model/run.h"
#include "model/verdict.h"

namespace dp {

class Store;
class OverrideBook;

// Asks for a confirmation re-test of `test` on `drive_id`, confirming run
// `of_run` (the daemon queues it with trigger "confirm:<of_run>" after
// alerts.detection.retest_delay_minutes).
using ConfirmFn = std::function<void(const std::string& drive_id, const std::string& test,
                                     std::int64_t of_run)>;

// The automatic re-baselines a run's verdicts ask for: a shift its vdev
// siblings share has lasted (Verdict::rebaseline_from, detect/judge.h); the
// drive's baselines of every test re-form from its first shifted run, and
// so do those of its siblings still on the old level
// (Verdict::rebaseline_siblings). The judged drive's mark comes first.
std::vector<RebaselineMark> AbsorbedShift(const Run& run, const std::vector<Verdict>& verdicts);

class RunEvaluator {
 public:
  // alerts may be null (verdicts computed and logged only); overrides may be
  // null (SMART judged with the global thresholds only).
  RunEvaluator(Store& store, AlertService* alerts, DetectionConfig config, ConfirmFn confirm,
               OverrideBook* overrides = nullptr);

  // The verdicts of one finished run, already applied to the alerts.
  Result<std::vector<Verdict>> Evaluate(const Run& run);

 private:
  Result<std::vector<Verdict>> EvaluateBench(const Run& run);
  Result<std::vector<Verdict>> EvaluateSmartRun(const Run& run);
  Status KeepAbsorbedShift(const RebaselineMark& mark);
  void KeepInterference(const Run& run, const std::vector<Verdict>& verdicts);

  Store& store_;
  AlertService* alerts_;
  const DetectionConfig config_;
  ConfirmFn confirm_;
  OverrideBook* overrides_;
};

}  // namespace dp
