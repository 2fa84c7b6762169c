// Re-baselining on request, e.g. after a firmware update: the rules around
// AlertService::Rebaseline (alert/alert_service.h), which keeps the mark and
// closes the drive's slowdown and trend alerts under the alert service's
// lock. RunEvaluator then forms the drive's baselines anew from the runs
// that start at or after the mark (BaselineSince: detect's baseline_since).
//
// Called by the API (POST /api/v1/drives/{id}/rebaseline) and by discovery
// when a drive's firmware version changes; both go through the daemon's one
// AlertService. Free functions; thread-safe as the Store and the service are.
#pragma once

#include <cstdint>
#include <string>

#include "alert/alert_service.h"
#include "base/result.h"
#include "base/status.h"
#include "model/rebaseline_mark.h"
#include "store/store.h"

namespace dp {

// The tests a re-baseline may name: "" (every test) or a test judged against
// its own history (IsJudgedTest, model/test_catalog.h).
// InvalidArgument naming the accepted tests otherwise.
Status ValidateRebaselineTest(const std::string& test);

// Validates mark.test, then AlertService::Rebaseline. Errors: an invalid
// test (InvalidArgument), store failures.
Result<RebaselineOutcome> RequestRebaseline(AlertService& alerts, RebaselineMark mark);

// The re-baseline time that applies to `test` of the drive (0 = never): what
// RunEvaluator hands detect as baseline_since.
Result<std::int64_t> BaselineSince(Store& store, const std::string& drive_id,
                                   const std::string& test);

}  // namespace dp
