// Baseline and Band: a series' own reference and the robust band around it.
// (Robust screening, efficient scale: see the note on the band below.)
//
// The baseline starts as the median and MAD of the series' first
// cfg.baseline_runs good runs (since an optional re-baseline time) and then
// grows with later good runs, each admitted only when it falls inside the band
// of the baseline as it stands then, up to cfg.baseline_max_runs: more runs
// make the reference tighter, and runs outside the band (a slowdown, a
// fluke) never enter it, so a sustained drop cannot drag its own reference
// along. The run being judged is never part of it.
//
// The band is median +- max(k * s, p% of the median). Runs enter the baseline
// only through the screen above (the first band is median +- k * MAD-based
// sigma: Hampel 1974; Leys et al. 2013, "Detecting outliers: do not use
// standard deviation around the mean, use absolute deviation around the
// median"), so the screened runs are free of gross outliers and their scale
// can be estimated efficiently: s is their standard deviation, bias-corrected
// by c4(n) (the "reject, then estimate classically" scheme: the MAD has only
// 37% efficiency at the normal, Rousseeuw & Croux 1993, so on 5-20 runs it
// swings too much to set a band; it sets the screen, where robustness is what
// counts, with its small-sample correction b_n, Croux & Rousseeuw 1992);
// times sqrt(1 + pi/(2n)) for the uncertainty of a median of n runs (its
// variance is ~ pi/2 * sigma^2 / n), as a prediction interval does.
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
  bool ready = false;  // at least cfg.baseline_runs good runs
  int runs = 0;        // good runs in the baseline
  int wanted = 0;      // cfg.baseline_runs
  double median = 0;
  double mad = 0;  // unscaled
  double sd = 0;   // sample standard deviation of the baseline runs
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
// The band of a baseline of n runs with the given median, MAD and SD.
Band BandFor(double median, double mad, double sd, int n, const DetectionConfig& cfg);
inline Band BandOf(const Baseline& b, const DetectionConfig& cfg) {
  return BandFor(b.median, b.mad, b.sd, b.runs, cfg);
}

// True when value lies outside the band on the worse side for direction.
bool OutsideWorse(double value, const Band& band, Direction direction);

// How much worse value is than reference, in percent (+ = worse).
double WorsePercent(double value, double reference, Direction direction);

}  // namespace dp::detect
