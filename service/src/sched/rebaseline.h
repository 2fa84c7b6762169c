// Re-baselining on request, e.g. after a firmware update. RequestRebaseline records a mark in the store
// (RunEvaluator then forms the drive's baselines anew from the runs that start
// at or after it: detect's baseline_since) and resolves the drive's active
// slowdown and trend alerts — of the mark's test, or of every test — with the
// reason in Alert::resolution ("re-baselined: ..."), so that a known change
// does not keep nagging the owner. No notification is sent for them: the
// owner asked, or discovery logged the firmware change. Peer, SMART and pool
// alerts are left alone (they do not compare with the drive's own past).
//
// Called by the API (POST /api/v1/drives/{id}/rebaseline) and by discovery
// when a drive's firmware version changes. Free functions; thread-safe as the
// Store and the repository are.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "alert/alert_repository.h"
#include "alert/alert_service.h"
#include "base/result.h"
#include "base/status.h"
#include "model/alert.h"
#include "store/store.h"

namespace dp {

struct RebaselineOutcome {
  RebaselineMark mark;          // as stored (id set)
  std::vector<Alert> resolved;  // the alerts it closed, as stored
};

// The tests a re-baseline may name: "" (every test) or a test judged against
// its own history (IsJudgedTest: seq, zones, seek, random, sweep).
// InvalidArgument naming the accepted tests otherwise.
Status ValidateRebaselineTest(const std::string& test);

// Whether an alert condition ("slowdown:seq:qd8-1m:mb_per_s") is one a
// re-baseline of `test` ("" = every test) closes.
bool ClosedByRebaseline(const std::string& condition, const std::string& test);

// Records the mark (mark.at and mark.drive_id required; an empty reason
// becomes "re-baseline requested") and resolves the matching active alerts of
// the drive at mark.at. Errors: an invalid test or unknown drive
// (InvalidArgument), store failures. The mark is kept even if resolving an
// alert fails (the error is returned; the next request resolves the rest).
// With `service` (the daemon's AlertService over `alerts`), the alerts are
// resolved under its lock, so a run evaluated at the same moment cannot
// reopen them.
Result<RebaselineOutcome> RequestRebaseline(Store& store, AlertRepository& alerts,
                                            RebaselineMark mark,
                                            AlertService* service = nullptr);

// The re-baseline time that applies to `test` of the drive (0 = never): what
// RunEvaluator hands detect as baseline_since.
Result<std::int64_t> BaselineSince(Store& store, const std::string& drive_id,
                                   const std::string& test);

}  // namespace dp
