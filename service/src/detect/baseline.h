// Baseline and Band: a series' own reference and the robust band around it.
//
// The baseline starts as the median and MAD of the series' first
// cfg.baseline_runs good runs (since an optional re-baseline time) and then
// grows with later good runs that fall inside that first band, up to
// cfg.baseline_max_runs: more runs make the reference tighter, and runs
// outside the band (a slowdown) never enter it, so a sustained drop cannot
// drag its own reference down. The runs being judged are never part of it.
//
// The band is median +- max(k * s, p% of the median) where
//   s = 1.4826 * MAD * b_n * sqrt(1 + pi / (2n)):
//   1.4826 * MAD estimates the standard deviation of normal data (Hampel 1974;
//   Leys et al. 2013, "Detecting outliers: do not use standard deviation
//   around the mean, use absolute deviation around the median");
//   b_n is the small-sample correction of the MAD (Croux & Rousseeuw 1992,
//   "Time-efficient algorithms for two highly robust estimators of scale");
//   sqrt(1 + pi/(2n)) widens the band for the uncertainty of a median of n
//   runs (its variance is ~ pi/2 * sigma^2 / n), as a prediction interval does.
// The percentage floor keeps a lucky, very tight baseline from turning
// ordinary noise into alarms. Pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "config/alerts_config.h"
#include "detect/sample.h"

namespace dp::detect {

struct Baseline {
  bool ready = false;           // at least cfg.baseline_runs good runs
  int runs = 0;                 // good runs in the baseline
  int wanted = 0;               // cfg.baseline_runs
  double median = 0;
  double mad = 0;               // unscaled
  std::vector<std::int64_t> run_ids;
  std::int64_t from_at = 0, to_at = 0;
};

// history must be in chronological order. Only good samples with at >= since
// and index < end count (end: the first sample being judged).
Baseline ComputeBaseline(const std::vector<Sample>& history, std::size_t end,
                         const DetectionConfig& cfg, std::int64_t since);

struct Band {
  double low = 0, high = 0;
};
// The band of a baseline of n runs with the given median and MAD.
Band BandFor(double median, double mad, int n, const DetectionConfig& cfg);
inline Band BandOf(const Baseline& b, const DetectionConfig& cfg) {
  return BandFor(b.median, b.mad, b.runs, cfg);
}

// True when value lies outside the band on the worse side for direction.
bool OutsideWorse(double value, const Band& band, Direction direction);

// How much worse value is than reference, in percent (+ = worse).
double WorsePercent(double value, double reference, Direction direction);

}  // namespace dp::detect
