// DetectionHistory: the one choice of which stored samples of a series the
// detectors see, used by the run evaluator (to judge a run) and the history
// endpoint (to draw the band the detector judges against), so the two can
// never disagree about a series' baseline.
//
// A series' samples oldest first without repeats: the newest `newest` (the
// runs judged, the trend window) and, when those do not reach back that far,
// the oldest since the drive's re-baseline mark `since` (where its baseline
// is: up to 2 x baseline_max_runs, room for runs the baseline screens out).
// With only the newest, a drive tested daily for years would see its baseline
// slide forward with the window and absorb a slow decline.
#pragma once

#include <cstdint>
#include <vector>

#include "base/result.h"
#include "store/store.h"

namespace dp {

inline constexpr int kDetectionNewestRuns = 500;

Result<std::vector<MeasurementSample>> DetectionHistory(Store& store, HistoryQuery query,
                                                        std::int64_t since,
                                                        int baseline_max_runs,
                                                        int newest = kDetectionNewestRuns);

}  // namespace dp
