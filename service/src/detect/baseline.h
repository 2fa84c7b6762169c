// Baseline and Band: a series' own reference, the median and MAD of its first
// N good runs (since an optional re-baseline time), and the robust band
// median +- max(k * 1.4826 * MAD, p% of the median) around it. Using the
// first runs (not a moving window) keeps a slow decay from dragging the
// reference along with it. Median/MAD: Hampel (1974); Leys et al. (2013),
// "Detecting outliers: Do not use standard deviation around the mean, use
// absolute deviation around the median". The percentage floor keeps a lucky,
// very tight baseline from turning ordinary noise into alarms. Pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "config/alerts_config.h"
#include "detect/sample.h"

namespace dp::detect {

struct Baseline {
  bool ready = false;           // runs == wanted
  int runs = 0;                 // good runs found (<= wanted)
  int wanted = 0;
  double median = 0;
  double mad = 0;               // unscaled
  std::vector<std::int64_t> run_ids;
  std::int64_t from_at = 0, to_at = 0;
  // Index (in the chronological history given) just after the last baseline
  // sample: the samples from here on are judged against the baseline.
  std::size_t next_index = 0;
};

// history must be in chronological order. Only good samples with at >= since
// count (since: a re-baseline request, e.g. after a firmware update).
Baseline ComputeBaseline(const std::vector<Sample>& history, int wanted, std::int64_t since);

struct Band {
  double low = 0, high = 0;
};
Band BandOf(const Baseline& b, const DetectionConfig& cfg);

// True when value lies outside the band on the worse side for direction.
bool OutsideWorse(double value, const Band& band, Direction direction);

// How much worse value is than reference, in percent (+ = worse).
double WorsePercent(double value, double reference, Direction direction);

}  // namespace dp::detect
