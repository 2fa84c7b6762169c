// Targets: which drives, pools and vdevs a schedule applies to, given the
// current inventory, and the jobs each of them gets. Pure functions.
//
// Drive-level tests (everything but pool-write and parallel) get one target
// per selected present drive, keyed by the drive id. pool-write gets one
// target per selected pool ("pool:tank"), parallel one per selected data
// vdev with at least two present members ("vdev:tank/mirror-0"). A pool or
// vdev is selected when the selection is empty, names the pool, or selects
// one of its members.
#pragma once

#include <string>
#include <vector>

#include "config/schedule_config.h"
#include "model/drive.h"
#include "model/pool.h"
#include "sched/job.h"

namespace dp {

// Whether the selection picks the drive (empty selection: every drive).
bool SelectsDrive(const DriveSelection& select, const Drive& drive, const std::vector<Pool>& pools);

// Where a drive sits: its pool and vdev ("" when in none).
struct Placement {
  std::string pool;
  std::string vdev;
};
Placement PlacementOf(const std::string& drive_id, const std::vector<Pool>& pools);

// One thing a schedule tracks a due time for.
struct ScheduleTarget {
  std::string key;        // drive id | "pool:NAME" | "vdev:POOL/VDEV": state and jitter key
  std::string label;      // for people: "sda", "tank", "tank/mirror-0"
  std::vector<Job> jobs;  // one per test of the schedule at this level, in its order
};

// The targets of one schedule. Jobs come with test, schedule, trigger, drive
// and placement filled; run_id and queued_at are the scheduler's.
std::vector<ScheduleTarget> ExpandSchedule(const ScheduleConfig& schedule,
                                           const std::vector<Drive>& drives,
                                           const std::vector<Pool>& pools);

// A job for one drive (run-now), with placement and controller filled.
Job MakeDriveJob(const std::string& test, const Drive& drive, const std::vector<Pool>& pools);

// Finds a present drive by id, name, device path or device basename.
const Drive* FindDrive(const std::vector<Drive>& drives, const std::string& which);

}  // namespace dp
