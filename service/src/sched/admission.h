// Admission: whether a queued job may start now, as a pure function of what
// the scheduler gathered for it: the probe's answer for each drive of the job,
// the latest inventory and the deferral rules (sched/deferral.h). The
// scheduler applies the decision (starts, defers or skips the run); the rule
// itself is here so it can be tested on plain data.
#pragma once

#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "config/schedule_config.h"
#include "model/drive.h"
#include "model/pool.h"
#include "sched/deferral.h"
#include "sched/job.h"

namespace dp {

// The reason a run is skipped when a drive of its job is gone.
inline constexpr const char* kMissingReason = "missing";

// `probed` holds the probe's answer for each of job.Drives(), in that order
// (NotFound: the drive is gone). Decides, in this order:
//  - kSkip with reason "missing" when a drive of the job is not present in
//    `drives` or the probe did not find it (detail: the probe's message);
//  - when the probe failed otherwise, the window rule for "state-unknown"
//    (DeferOrSkip, detail: the error);
//  - else DecideDeferral on the probed states, where a state that does not
//    say whether its pool scrubs or resilvers, and is not current
//    (DriveState::pool_scan_current), takes it from `pools` (the job's pool,
//    or the pool the drive is a member of).
// A forced job ignores the deferral rules, never the "missing" one.
DeferDecision Admit(const Job& job, const std::vector<Result<DriveState>>& probed,
                    const std::vector<Drive>& drives, const std::vector<Pool>& pools,
                    const SchedulerConfig& config, SysTime now);

}  // namespace dp
