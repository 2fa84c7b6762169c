// HealthChecks: after each discovery pass, the verdicts on what a pass can
// see without running a test (detect/health_detector.h): drives gone,
// pools and members not ONLINE, permanent errors, scrubs, SSD wear and
// self-tests, from the store's drives, the pass's pools and each present
// drive's newest SMART snapshot; and the owner's "forget" of a retired
// drive, which closes its missing alert. Stateless: every input is read
// from the store or passed in, so the daemon's discovery thread and the
// demo's seeding call the same code.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "alert/alert_service.h"
#include "base/result.h"
#include "config/alerts_config.h"
#include "model/drive.h"
#include "model/pool.h"
#include "model/verdict.h"

namespace dp {

class Store;

// The verdicts of one pass at `now`. `pools`: the pools this pass read, with
// members mapped to drive ids; pools_read false (zpool failed) judges no
// pool, so their alerts stay as they are rather than resolve on no evidence.
// `excluded`: inventory.exclude, whose drives are never missing.
Result<std::vector<Verdict>> JudgeHealth(Store& store, const std::vector<Pool>& pools,
                                         bool pools_read, std::int64_t now,
                                         const DetectionConfig& cfg,
                                         const std::vector<std::string>& excluded = {});

// JudgeHealth's verdicts applied to the alerts; the first error is returned.
Status ApplyHealth(Store& store, AlertService& alerts, const std::vector<Pool>& pools,
                   bool pools_read, std::int64_t now, const DetectionConfig& cfg,
                   const std::vector<std::string>& excluded = {});

// Only the missing-drive verdicts of the drives the store has as gone,
// applied to the alerts: between discovery passes, a drive already marked
// gone opens its alert once the grace has passed, without a whole pass.
// `listed`: the disk names the kernel lists now; a gone drive whose node is
// among them is back and left to the next discovery pass.
Status ApplyMissing(Store& store, AlertService& alerts, std::int64_t now,
                    const DetectionConfig& cfg, const std::vector<std::string>& excluded,
                    const std::set<std::string>& listed);

// The owner retires a drive that is gone (POST /api/v1/drives/{id}/forget,
// `diskpulse forget`): the store marks it forgotten (NotFound, or
// FailedPrecondition for a present drive) and every alert of the drive still
// active (missing, SMART, slowdown, self-test...) is resolved with the reason
// "retired: REASON", without a notification: a drive taken out for good has
// nothing left to remind anyone of. Returns the drive as stored.
Result<Drive> ForgetDrive(Store& store, AlertService* alerts, const std::string& drive_id,
                          const std::string& reason, std::int64_t at);

}  // namespace dp
