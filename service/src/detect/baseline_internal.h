// What baseline.cc shares with runs_to_detect.cc (RunsToDetect asks the
// rules their own arithmetic): the band floors, the worse side of a band,
// a run's winsorized score and the CUSUM's median-shift limit. Internal to
// detect; see baseline.h for what each means.
#pragma once

#include "config/alerts_config.h"
#include "detect/baseline.h"

#include <cstddef>

namespace dp::detect {

// A run that has waited this many runs in an open segment that has not
// signalled joins the baseline anyway (baseline.h: the lagged self-start).
inline constexpr std::size_t kAdmitLag = 8;

// A floor of `percent` as a log-scale width below and above the centre.
double LowFloor(double percent);
double HighFloor(double percent);
// The width on the worse side for `d`.
double WorseWidth(const BandWidths& w, Direction d);
// The winsorized normal score of a worse-side deviation e (log units).
double Score(double e, const Baseline& b, const DetectionConfig& cfg, Direction d);
// The smallest median shift of a segment of m runs the baseline's own
// uncertainty does not explain (RulesOf).
double ShiftLimit(const Baseline& b, const DetectionConfig& cfg, double m);

// The bands' quantiles, computed once per process and shared by every thread
// (process_cache.h): the p-quantile of the prediction for one run (Student-t
// of df, or HeavyTQuantile for tail_df > 2), and the pair rule's
// both-beyond quantile for heavy tails (HeavyTBothQuantile at the pair's
// tail-dependence power). UncachedBothQuantile computes the latter afresh:
// the value the cache must hold, bit for bit.
double CachedQuantile(double p, double df, double tail_df);
double CachedBothQuantile(double p, double df, double tail_df);
double UncachedBothQuantile(double p, double df, double tail_df);

}  // namespace dp::detect
