// RunEvaluator: what happens after a run finishes. It loads the run and its
// points, asks detect::JudgeRun (detect/judge.h: the one place that decides
// what a benchmark run means, over the store through StoreSeriesHistory),
// then detect::JudgeDuePeers for the peer verdicts the run made due, and
// carries each detect::Judgement out through detect::ApplyJudgement with the
// daemon's effects: verdicts to the alerts (AlertService: opened, refreshed,
// resolved, notified), interference and peer marks and automatic
// re-baselines to the store (re-baselines through the alerts, which close
// what they end), re-tests to the scheduler through the callback (a run-now
// with trigger "confirm:<run id>" after the configured delay, one per run).
// After a `smart` run it asks detect::EvaluateSmart. Runs that failed, were
// cancelled, contended or partial are never evidence: they are not judged.
//
// Owned by the composition root; called from the scheduler's threads
// (Scheduler's on_run_finished). Thread-safe: no state of its own beyond
// references to thread-safe parts.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "alert/alert_service.h"
#include "base/thread_annotations.h"
#include "config/alerts_config.h"
#include "detect/judgement.h"
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

class RunEvaluator {
 public:
  // alerts may be null (verdicts computed and logged only); overrides may be
  // null (SMART judged with the global thresholds only).
  RunEvaluator(Store& store, AlertService* alerts, DetectionConfig config, ConfirmFn confirm,
               OverrideBook* overrides = nullptr);

  // The verdicts of one finished run, already applied to the alerts, with
  // the peer verdicts its finishing made due (JudgePeers).
  Result<std::vector<Verdict>> Evaluate(const Run& run);

  // The peer verdicts due now (detect::JudgeDuePeers) of `test`, or of every
  // judged test when it is "": called after each run and periodically, so a
  // cycle some member of the group never ran in is judged when its window
  // closes. Applied like a run's.
  Result<std::vector<Verdict>> JudgePeers(const std::string& test, std::int64_t now,
                                          const std::string& ran = "");

 private:
  class Effects;
  Result<std::vector<Verdict>> EvaluateBench(const Run& run);
  Result<std::vector<Verdict>> EvaluateSmartRun(const Run& run);
  Status Apply(const detect::Judgement& judgement, const std::string& what);

  Store& store_;
  AlertService* alerts_;
  const DetectionConfig config_;
  ConfirmFn confirm_;
  OverrideBook* overrides_;
  // One peer judgement at a time: the scheduler's threads and the periodic
  // pass would otherwise compare one run twice.
  Mutex peers_mu_;
  Mutex mu_;
  std::set<std::int64_t> asked_ GUARDED_BY(mu_);  // runs a re-test was asked for
};

}  // namespace dp
