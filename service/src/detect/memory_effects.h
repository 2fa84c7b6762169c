// MemoryEffects: JudgementEffects over a MemorySeriesHistory, for the field
// model (benchmarks/detect_field.cc) and the tests, which so carry out a
// judgement through the same ApplyJudgement as the daemon: interference and
// re-baseline marks and peer marks go into the history, re-tests are queued
// here (one per run) for the caller to run, and verdicts and re-baselines
// reach the caller's alerts through the callbacks. Not thread-safe.
#pragma once

#include <functional>
#include <set>
#include <vector>

#include "detect/judgement.h"
#include "detect/memory_series_history.h"

namespace dp::detect {

class MemoryEffects final : public JudgementEffects {
 public:
  explicit MemoryEffects(MemorySeriesHistory& history) : history_(history) {}

  // The caller's alerts: verdicts applied, and the drive's slowdown and trend
  // alerts a re-baseline closes. Either may be empty.
  std::function<Status(const std::vector<Verdict>&)> on_verdicts;
  std::function<void(const RebaselineMark&)> on_rebaseline;

  Status Verdicts(const std::vector<Verdict>& verdicts) override;
  Status MarkInterference(const InterferenceMark& mark) override;
  Status Rebaseline(const RebaselineMark& mark) override;
  Status Retest(const RetestRequest& request) override;
  Status MarkPeerJudged(std::int64_t run_id) override;

  // The re-tests asked for and not yet taken, oldest first; Take empties it.
  std::vector<RetestRequest> TakeRetests();
  const std::vector<RetestRequest>& retests() const { return queued_; }

 private:
  MemorySeriesHistory& history_;
  std::vector<RetestRequest> queued_;
  std::set<std::int64_t> asked_;  // runs a re-test was asked for
};

}  // namespace dp::detect
