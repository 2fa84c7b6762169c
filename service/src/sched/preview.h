// Schedule preview: the next due times of every (schedule, target), computed
// with the scheduler's own NextDue, for `diskpulsed --show-schedule` and the
// API. Pure given the states it is handed (and the time zone).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "config/schedule_config.h"
#include "model/drive.h"
#include "model/pool.h"
#include "sched/next_due.h"
#include "sched/scheduler_store.h"

namespace dp {

struct PlannedTarget {
  std::string schedule;
  std::string target_key;          // drive id | pool:NAME | vdev:POOL/VDEV
  std::string label;               // sda, tank, tank/mirror-0
  std::vector<std::string> tests;  // the schedule's tests at this level
  DueState state;
  std::vector<SysTime> due;  // the next runs; due[0] <= now means "due now"
};

// The state of (schedule, target) as the caller knows it.
using DueStateLookup =
    std::function<DueState(const std::string& schedule, const std::string& target_key)>;

// The next `count` runs of each target of each enabled schedule, assuming
// each runs when due.
std::vector<PlannedTarget> PlanSchedule(const std::vector<ScheduleConfig>& schedules,
                                        const std::vector<Drive>& drives,
                                        const std::vector<Pool>& pools,
                                        const DueStateLookup& state_of, SysTime now, int count);

// Human text, one block per schedule and one line per target, times in
// local time:
//   weekly-read  0 3 * * sun  jitter 3h  tests zones seek random seq
//     sda          last 2026-01-04 04:12 CET  next Sun 2026-01-11 04:12 CET, ...
// States come from `store` (nullptr: nothing run yet, every target first seen now).
std::string PreviewSchedule(const std::vector<ScheduleConfig>& schedules,
                            const std::vector<Drive>& drives, const std::vector<Pool>& pools,
                            SchedulerStore* store, SysTime now, int count);
// The same text from a ready plan.
std::string FormatPlan(const std::vector<ScheduleConfig>& schedules,
                       const std::vector<PlannedTarget>& plan, SysTime now);

}  // namespace dp
