// EvaluateChange: judges the latest run of one series against the series' own
// baseline (detect/baseline.h).
//
// The rule (a run outside the band triggers a confirmation re-test soon after;
// two consecutive runs outside -> a slowdown alert):
//   - the latest good run outside the single-run band on the worse side
//     -> kNeedsConfirmation (the scheduler re-tests soon);
//   - the latest two consecutive good runs x1, x2 both outside the single-run
//     band of the baseline before x1, AND their mean outside that baseline's
//     pair band -> kSlowdown (throughput drop, access-time or latency rise,
//     by the metric's direction).
// Both runs of the pair are judged against the same baseline, which holds
// neither of them. The two single-run conditions are a "2 of 2 beyond the
// limit" run rule (Western Electric Statistical Quality Control Handbook,
// 1956), so one outlier is never an alert however far out it is; the pair
// mean is the likelihood-ratio statistic for a shift seen in two independent
// normal runs (Neyman-Pearson: the sum of the two deviations), which is what
// separates a real 5-sigma drop from two merely unlucky runs: at the same
// false-alarm rate it detects far more than squaring a single-run
// probability does. Contended, partial and failed runs are skipped: never
// evidence either way. Pure function, thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "config/alerts_config.h"
#include "detect/sample.h"
#include "model/verdict.h"

namespace dp::detect {

// history: the series' samples (any order; sorted by time here), including the
// latest run. baseline_since: unix seconds of the last re-baseline request
// (0 = none); samples before it are ignored.
// Verdict kinds: kInconclusive (latest run not good, or empty history),
// kBaselining (fewer than cfg.baseline_runs good runs so far, or the latest
// run is itself part of the baseline), kClear, kNeedsConfirmation, kSlowdown.
// condition = "slowdown:TEST:SERIES:METRIC" for every kind.
// Evidence: baseline (median, MAD, runs, run ids), band, the judged runs with
// their outside flags; a slowdown adds details "pair_mean", "pair_low",
// "pair_high" and "rule".
Verdict EvaluateChange(const SeriesKey& key, std::vector<Sample> history,
                       const DetectionConfig& cfg, std::int64_t baseline_since = 0);

}  // namespace dp::detect
