// Drive and pool health read straight from the system, one Verdict per
// condition (firing or clear), so each alert opens with its evidence and
// resolves on the first pass that no longer sees the problem
// (model/condition.h ClearsToResolve):
//   missing:                   a known drive gone longer than
//                              detection.missing_grace_minutes (never for a
//                              drive the owner forgot);
//   pool:POOL:state:           the pool, or one of its data/log/special
//                              vdevs, not ONLINE (an md array missing a
//                              member is DEGRADED);
//   pool:POOL:members:         members UNAVAIL/FAULTED/REMOVED that map to no
//                              present drive, named by their last known
//                              identity: ONE alert per pool listing them all,
//                              so an enclosure that drops twelve disks raises
//                              one pool alert, not twelve (members that still
//                              map to a drive keep their per-drive
//                              zfs:POOL:state alert, detect/pool_detector.h);
//   pool:POOL:errors:          ZFS permanent (data) errors;
//   pool:POOL:capacity:        space used at or past
//                              detection.pool_capacity_warning_percent /
//                              _critical_percent (zpool list; a figure, so it
//                              resolves after resolve_after_clear_runs);
//   scrub:POOL:overdue:        no scrub finished within
//                              detection.scrub_overdue_days;
//   scrub:POOL:findings:       the last scrub or resilver finished with errors,
//                              or a scrub that had to repair data;
//   wear:endurance:            an SSD's used endurance (NVMe percentage_used,
//                              ATA 177/202/231/233 by name) at or past
//                              detection.wear_warning_percent / _critical_;
//   selftest:overdue:          the newest SMART self-test ran more than
//                              detection.self_test_overdue_days powered-on
//                              days ago, or none ever ran in that long;
//   selftest:aborted:          the newest self-test was aborted or
//                              interrupted by the host.
// (A failed self-test is smart:self_test, detect/smart_detector.h.)
// Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/alerts_config.h"
#include "model/drive.h"
#include "model/pool.h"
#include "model/smart_snapshot.h"
#include "model/verdict.h"

namespace dp::detect {

// One verdict per drive (transport "file" left out): firing for a drive
// missing past the grace, clear for a present, forgotten or excluded one; a
// drive missing for less than the grace is kInconclusive. `excluded`: the
// entries of inventory.exclude; a drive one of them names (its id, name,
// device path or node name, or a stable path) was left out on purpose, so
// its absence is never a missing drive and a missing alert it had resolves.
std::vector<Verdict> EvaluateMissingDrives(const std::vector<Drive>& drives, std::int64_t now,
                                           const DetectionConfig& cfg,
                                           const std::vector<std::string>& excluded = {});

// Whether an inventory.exclude entry names the drive (see above).
bool ExcludedDrive(const Drive& drive, const std::vector<std::string>& excluded);

// What the store remembers of a pool (watch/health_checks.h fills it).
struct PoolMemory {
  std::optional<std::int64_t> first_seen;  // when the pool was first seen
  // A member path (or the "was PATH" of its note) -> the drive last seen
  // there, for naming a member that maps to no present drive.
  std::map<std::string, Drive> last_drive_at;
};

// The pool's state, unmapped bad members, permanent errors and scrubs.
// `now`: unix seconds of this observation.
std::vector<Verdict> EvaluatePoolHealth(const Pool& pool, const PoolMemory& memory,
                                        std::int64_t now, const DetectionConfig& cfg);

// When the scan of `pool` finished (unix seconds), from zpool status's text
// ("... with 0 errors on Sun Feb  4 20:54:25 2024", read as local time, which
// is how zpool prints it) or its JSON (end_time); nullopt when unknown.
std::optional<std::int64_t> ScanFinishedAt(const PoolScan& scan);

// SSD wear and self-test verdicts of one drive's newest snapshot.
std::vector<Verdict> EvaluateDriveUpkeep(const Drive& drive, const SmartSnapshot& snapshot,
                                         std::int64_t at, const DetectionConfig& cfg);

}  // namespace dp::detect
