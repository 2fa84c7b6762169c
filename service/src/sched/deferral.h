// Deferral rules: whether a job may start now given the state of the drives
// it touches, as a pure function of plain data: a device that is asleep is
// not woken, a busy one is not tested, a pool that is scrubbing or
// resilvering is left alone. A deferred job is
// retried every retry_seconds until defer_window_seconds after it was
// queued, then skipped; each step is recorded with its reason.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "config/schedule_config.h"
#include "sched/job.h"

namespace dp {

// What the scheduler knows about a drive just before starting a job on it.
struct DriveState {
  double busy_share = 0;             // share of recent wall time the device was busy
                                     // with I/O not ours (0..1, like iostat %util / 100)
  bool asleep = false;               // in standby / spun down (asked without waking it)
  std::optional<int> temperature_c;  // nullopt: unknown (not a reason to defer)
  bool self_test_running = false;    // its own SMART self-test is in progress
  std::string pool_scan;             // "", "scrub" or "resilver": its pool's scan in progress
  // pool_scan is what the pools said just now (not the last discovery's
  // record): a scrub that has ended since is no reason to wait.
  bool pool_scan_current = false;
};

// Supplies DriveState. The daemon's implementation reads /proc/diskstats or
// devstat, smartctl -n standby, and zpool status; tests use a fake.
// Called from the scheduler thread; may take a little while (runs tools).
class DriveStateProbe {
 public:
  virtual ~DriveStateProbe() = default;
  // NotFound when the drive is gone.
  virtual Result<DriveState> Probe(const std::string& drive_id) = 0;
};

enum class DeferAction { kRun, kDefer, kSkip };

struct DeferDecision {
  DeferAction action = DeferAction::kRun;
  std::string reason;               // "asleep", "resilver", "scrub", "self-test",
                                    // "temperature", "busy" ("" for kRun)
  std::string detail;               // "busy 37% > 10%", "52°C > 50°C" ...
  std::optional<SysTime> retry_at;  // kDefer: when to look again
};

// The first reason in the order above that applies to any drive of the job,
// honouring the test's kind: SMART reads only mind "asleep"; self-tests mind
// everything; reads and pool writes mind everything. A forced job always runs.
// Deferred while now < job.queued_at + window, skipped after.
DeferDecision DecideDeferral(const Job& job, const std::vector<DriveState>& states,
                             const SchedulerConfig& config, SysTime now);

// The window rule alone, for a reason found elsewhere (e.g. "state-unknown"
// when the probe failed): kDefer with a retry time, or kSkip once the window
// has passed. A forced job runs.
DeferDecision DeferOrSkip(const Job& job, std::string reason, std::string detail,
                          const SchedulerConfig& config, SysTime now);

}  // namespace dp
