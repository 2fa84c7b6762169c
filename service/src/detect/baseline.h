// Baseline and Band: a series' own reference and the bands around it.
//
// The baseline starts as the median and MAD of the series' first
// cfg.baseline_runs good runs (since an optional re-baseline time) and then
// grows with later good runs, each admitted only when it lies within a wide
// screen of the baseline as it stands then (kScreenSigmas sigmas, the
// "3.5" outlier cut-off of Iglewicz & Hoaglin 1993, "How to Detect and Handle
// Outliers"), up to cfg.baseline_max_runs. More runs make the reference
// firmer; a slowdown or a fluke never enters it, so a sustained drop cannot
// drag its own reference along. The runs being judged are never part of it
// (detect/change_detector.h judges them against the baseline before them).
//
// Centre and scale ("reject, then estimate classically"): the baseline runs
// farther than kScreenSigmas MAD-based sigmas from their median (the first
// runs are not screened on entry) are skipped, and the rest give a skipped
// mean C and a standard deviation s (the skipped mean: Andrews et al. 1972,
// "Robust Estimates of Location", the Princeton study). Free of gross
// outliers, they are efficient where the median (64%) and the MAD (37%,
// Rousseeuw & Croux 1993) are not, and 5-30 runs need efficiency: sigma =
// s / c4(n), made unbiased by c4(n) ~ 1 - 1/(4n) - 7/(32n^2).
//
// Bands are prediction bands (Hahn & Meeker 1991, "Statistical Intervals",
// ch. 4): a future run x, or the mean of m future runs, differs from the
// mean C of n baseline runs by a normal deviate of variance
// sigma^2 (1/m + 1/n).
//   single-run band  C +- max(band_sigmas * sigma * sqrt(1 + 1/n),
//                             min_band_percent % of C)
//   pair band        C +- max(confirm_sigmas * sigma * sqrt(1/2 + 1/n),
//                             confirm_min_percent % of C)
// The percentage floors are a prior on ordinary noise: they keep a lucky,
// very tight baseline (a sigma estimated too small from few runs, which is
// where a plain z band over an estimated sigma leaks false alarms: the
// Student-t tail) from turning ordinary noise into alarms. Pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "config/alerts_config.h"
#include "detect/sample.h"

namespace dp::detect {

// Later runs farther than this many sigmas from the baseline median (or than
// min_band_percent, whichever is wider) do not enter the baseline.
inline constexpr double kScreenSigmas = 3.5;

struct Baseline {
  bool ready = false;  // at least cfg.baseline_runs good runs
  int runs = 0;        // good runs in the baseline
  int wanted = 0;      // cfg.baseline_runs
  double median = 0;
  double mad = 0;     // unscaled
  double sd = 0;      // sample standard deviation of the runs kept (not skipped)
  double center = 0;  // skipped mean: the mean of the runs kept
  double sigma = 0;   // sd / c4(kept); 1.4826 * b_n * MAD when sd is 0
  int kept = 0;       // runs within the screen of the median
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

// The single-run band of a baseline.
Band BandOf(const Baseline& b, const DetectionConfig& cfg);
// The band for the mean of two runs (the confirmation pair).
Band PairBandOf(const Baseline& b, const DetectionConfig& cfg);

// True when value lies outside the band on the worse side for direction.
bool OutsideWorse(double value, const Band& band, Direction direction);

// How much worse value is than reference, in percent (+ = worse).
double WorsePercent(double value, double reference, Direction direction);

}  // namespace dp::detect
