// Exclusion and caps: which queued jobs may start next to the running ones,
// as pure functions (the scheduler's admission rules):
//  - one job per drive at a time, whatever the test;
//  - members of one vdev never run heavy tests (reads, pool writes) at the
//    same time (their figures would share the vdev's load and bus);
//  - pool-write excludes heavy tests on every member of its pool;
//  - at most max_concurrent heavy tests overall, and max_per_controller per
//    known controller (an unknown controller "" has no cap of its own).
// SMART reads and self-test starts are light: they only need their drive.
#pragma once

#include <string>
#include <vector>

#include "config/schedule_config.h"
#include "sched/job.h"

namespace dp {

// Whether two jobs may not run at the same time; `why` says which rule.
bool Conflicts(const Job& a, const Job& b, std::string* why = nullptr);

// Whether `job` may start next to `running`; `why` names the blocking rule
// ("drive", "vdev", "pool", "max_concurrent", "controller").
bool CanStart(const Job& job, const std::vector<const Job*>& running, const SchedulerConfig& config,
              std::string* why = nullptr);

// Greedy admission in queue order: the indices of `queue` that can start now
// beside `running` and beside each other.
std::vector<std::size_t> PickStartable(const std::vector<Job>& queue,
                                       const std::vector<Job>& running,
                                       const SchedulerConfig& config);

}  // namespace dp
