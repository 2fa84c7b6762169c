// Judgement: what judging decided, as one typed value: the verdicts and
// every consequence they carry (runs recognised as unseen interference,
// automatic re-baselines of the drive and of its group, re-tests asked for,
// runs whose peer comparison is done). The judge (detect/judge.h) returns
// one and writes nothing; ApplyJudgement carries it out through a
// JudgementEffects, the one place consequences are written: the daemon's
// effects write the store, the alerts and the scheduler
// (runs/run_evaluator.h), the field model's and the tests' write a
// MemorySeriesHistory (detect/memory_effects.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/rebaseline_mark.h"
#include "model/verdict.h"

namespace dp::detect {

// A run recognised afterwards as unseen interference: no baseline takes it
// in from then on; `found_by` names the verdict's condition, for the log.
struct InterferenceMark {
  std::string drive_id;
  std::int64_t run_id = 0;
  std::string found_by;
};

// A confirmation re-test of `test` on `drive_id`, confirming run `of_run`.
struct RetestRequest {
  std::string drive_id;
  std::string test;
  std::int64_t of_run = 0;

  bool operator==(const RetestRequest&) const = default;
};

struct Judgement {
  std::vector<Verdict> verdicts;
  std::vector<InterferenceMark> interference;
  // Automatic re-baselines (a lasting shift the group shares): the judged
  // drive's first, then its siblings still on the old level that were not
  // already alerted as slowing before it (SeriesHistory::SlowingBefore).
  std::vector<RebaselineMark> rebaselines;
  std::vector<RetestRequest> retests;
  // Runs whose peer comparison this judgement made (each is compared once).
  std::vector<std::int64_t> peer_judged;

  // Another judgement's verdicts and consequences after this one's.
  void Add(Judgement other);
};

// What carrying out a judgement writes. An implementation asked twice for a
// re-test of the same run queues one: a doubt is confirmed once.
class JudgementEffects {
 public:
  virtual ~JudgementEffects() = default;
  virtual Status Verdicts(const std::vector<Verdict>& verdicts) = 0;
  virtual Status MarkInterference(const InterferenceMark& mark) = 0;
  virtual Status Rebaseline(const RebaselineMark& mark) = 0;
  virtual Status Retest(const RetestRequest& request) = 0;
  virtual Status MarkPeerJudged(std::int64_t run_id) = 0;
};

// Carries a judgement out, in the order that keeps alerts right: the
// verdicts first (alerts opened, refreshed, resolved), then the
// interference marks, the re-baselines (which close the drive's slowdown and
// trend alerts the shift opened) and the peer marks, the re-tests last. Every
// step is tried; the first error is returned.
Status ApplyJudgement(const Judgement& judgement, JudgementEffects& effects);

}  // namespace dp::detect
