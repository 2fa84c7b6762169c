// EvaluateChange: judges the latest run of one series against the series' own
// baseline (detect/baseline.h).
//
// The rule, over the series' replay (detect/baseline.h: log scale, Student-t
// bands, winsorized CUSUM):
//   - the latest good run outside the single-run band on the worse side
//     -> kNeedsConfirmation (the scheduler re-tests after the configured delay);
//   - kSlowdown when either
//     (pair) the latest two consecutive good runs are both outside the
//       single-run band of the baseline before them AND their mean is outside
//       the pair band: a "2 of 2 beyond the limit" run rule (Western Electric
//       Statistical Quality Control Handbook, 1956) with the mean as the
//       likelihood-ratio statistic for a shift seen twice (Neyman-Pearson), so
//       one outlier never alerts however far out it is; or
//     (sustained) the CUSUM of the runs' scores reached cusum_h, and both the
//       median change over its open segment and the median of the segment's
//       last three runs and the mean of its last two are beyond
//       confirm_min_percent: a smaller change on a
//       noisier series, seen over as many runs as its noise needs, and still
//       there now (not a segment held open by one wild run). Medians, so one
//       interfered run in the segment cannot carry it over the floor.
// A drive-wide shift is held further by the evaluator (drive_shift.h).
// The verdict's details say the series' noise (CV) and how many runs a 15%
// drop (1.5x rise for times) takes to be seen at that noise. Runs that are
// contended, partial, failed or not a positive number are skipped: never
// evidence either way. Pure function, thread-safe.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "config/alerts_config.h"
#include "detect/baseline.h"
#include "detect/sample.h"
#include "model/verdict.h"

namespace dp::detect {

// history: the series' samples (any order; sorted by time here), including the
// latest run. baseline_since: unix seconds of the last re-baseline request
// (0 = none); samples before it are ignored. prior: the spread of the series'
// family (baseline.h, SpreadPrior; FamilyPrior in series.h), pooled into its
// baseline's; empty = the series' own runs alone.
// Verdict kinds: kInconclusive (latest run not good, or empty history),
// kBaselining (fewer than cfg.baseline_runs good runs so far, or the latest
// run is itself part of the baseline), kClear, kNeedsConfirmation, kSlowdown.
// condition = "slowdown:TEST:SERIES:METRIC" for every kind.
// Evidence: baseline (median, MAD, runs, run ids), band, the judged runs with
// their outside flags; a slowdown adds details "pair_mean", "pair_low",
// "pair_high" and "rule".
// How much worse (WorsePercent) a slowdown of `metric` must be to be critical,
// notified at once rather than watched for housekeeping: a rate halved
// (MB/s, IOPS: 50%), a mean access time doubled (100%: the same halving of
// seeks per second), a p99 latency quadrupled (300%). A tail quantile moves
// far more than the mean under the housekeeping the watch is there for (a
// 20-45% slower random read makes p99 1.5-2x); a read retry or a remapped
// region makes it tens of times worse.
double CriticalWorsePercent(std::string_view metric);

Verdict EvaluateChange(const SeriesKey& key, std::vector<Sample> history,
                       const DetectionConfig& cfg, std::int64_t baseline_since = 0,
                       const SpreadPrior& prior = {});

}  // namespace dp::detect
