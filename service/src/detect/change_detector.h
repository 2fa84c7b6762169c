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

#include <cstddef>
#include <cstdint>
#include <string>
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

// What the rule decided, before a sentence is made of it: the verdict with
// every field but its summary (kind, rule, severity, evidence, details), and
// the figures the summary quotes. Deciding and wording apart, so a test can
// assert the decision by its fields and the wording can change alone.
struct ChangeDecision {
  Verdict verdict;  // summary left empty
  // kInconclusive on a run: that run and why it is not evidence (failed,
  // partial, contended, not a positive number); empty: no runs at all.
  std::int64_t not_evidence_run = 0;
  std::string not_evidence_because;
  // kBaselining: good runs so far, of the number the baseline wants.
  std::size_t good_runs = 0, wanted_runs = 0;
  // Judged (kClear, kNeedsConfirmation, kSlowdown): the baseline the latest
  // run was judged against and what its noise lets the series tell apart.
  Band band;
  double baseline_center = 0;
  int baseline_runs = 0;
  double noise_percent = 0;
  int pooled_series = 0;   // series of the family pooled into the noise; 0: its own runs
  int runs_to_detect = 0;  // runs a 15% drop (1.5x rise) takes to be seen; 0: not reliably
  // kSlowdown by the pair rule: the run before the latest, the pair's mean and
  // the limit it passed (both runs past it when pair_both).
  double previous_value = 0, pair_mean = 0, pair_limit = 0;
  bool pair_both = false;
  // kSlowdown by the CUSUM rule: the open segment it summed.
  std::size_t segment_runs = 0;
  double cusum = 0, cusum_h = 0, segment_mean_percent = 0;
};

ChangeDecision DecideChange(const SeriesKey& key, std::vector<Sample> history,
                            const DetectionConfig& cfg, std::int64_t baseline_since = 0,
                            const SpreadPrior& prior = {});

// The one-line summary of a decision (the verdict's `summary`).
std::string ChangeSentence(const SeriesKey& key, const ChangeDecision& decision);

// DecideChange with its sentence as the verdict's summary.
Verdict EvaluateChange(const SeriesKey& key, std::vector<Sample> history,
                       const DetectionConfig& cfg, std::int64_t baseline_since = 0,
                       const SpreadPrior& prior = {});

}  // namespace dp::detect
