#include "watch/health_checks.h"

#include <map>

#include "detect/health_detector.h"
#include "store/store.h"

namespace dp {

Result<std::vector<Verdict>> JudgeHealth(Store& store, const std::vector<Pool>& pools,
                                         bool pools_read, std::int64_t now,
                                         const DetectionConfig& cfg,
                                         const std::vector<std::string>& excluded) {
  DP_ASSIGN_OR_RETURN(std::vector<Drive> drives, store.ListDrives());
  std::vector<Verdict> out = detect::EvaluateMissingDrives(drives, now, cfg, excluded);
  std::map<std::string, const Drive*> by_id;
  for (const Drive& d : drives) by_id[d.id] = &d;

  for (const Drive& d : drives) {
    if (!d.present) continue;
    DP_ASSIGN_OR_RETURN(std::optional<SmartSnapshot> snap, store.LatestSmart(d.id));
    if (!snap) continue;
    for (Verdict& v : detect::EvaluateDriveUpkeep(d, *snap, now, cfg)) out.push_back(std::move(v));
  }

  if (!pools_read) return out;
  for (const Pool& pool : pools) {
    DP_ASSIGN_OR_RETURN(Store::PoolRecall recall, store.RecallPool(pool.kind, pool.name));
    detect::PoolMemory memory;
    memory.first_seen = recall.first_seen;
    for (const auto& [path, drive_id] : recall.drive_at_path) {
      auto d = by_id.find(drive_id);
      if (d != by_id.end()) memory.last_drive_at[path] = *d->second;
    }
    for (Verdict& v : detect::EvaluatePoolHealth(pool, memory, now, cfg))
      out.push_back(std::move(v));
  }
  return out;
}

Status ApplyHealth(Store& store, AlertService& alerts, const std::vector<Pool>& pools,
                   bool pools_read, std::int64_t now, const DetectionConfig& cfg,
                   const std::vector<std::string>& excluded) {
  DP_ASSIGN_OR_RETURN(std::vector<Verdict> verdicts,
                      JudgeHealth(store, pools, pools_read, now, cfg, excluded));
  return alerts.OnVerdicts(verdicts);
}

Status ApplyMissing(Store& store, AlertService& alerts, std::int64_t now,
                    const DetectionConfig& cfg, const std::vector<std::string>& excluded,
                    const std::set<std::string>& listed) {
  DP_ASSIGN_OR_RETURN(std::vector<Drive> drives, store.ListDrives());
  std::vector<Drive> gone;
  for (Drive& d : drives)
    if (!d.present && !d.forgotten_at && !listed.count(DeviceBasename(d.dev_path)))
      gone.push_back(std::move(d));
  if (gone.empty()) return Status::Ok();
  return alerts.OnVerdicts(detect::EvaluateMissingDrives(gone, now, cfg, excluded));
}

Result<Drive> ForgetDrive(Store& store, AlertService* alerts, const std::string& drive_id,
                          const std::string& reason, std::int64_t at) {
  const std::string why = reason.empty() ? "retired by its owner" : reason;
  DP_ASSIGN_OR_RETURN(Drive d, store.ForgetDrive(drive_id, at, why));
  if (alerts) {
    auto closed = alerts->ResolveActive(
        [&](const Alert& a) { return a.drive_id == d.id; }, "retired: " + why, at);
    if (!closed.ok()) return closed.status();
  }
  return d;
}

}  // namespace dp
