#include "detect/baseline.h"

#include <algorithm>
#include <cmath>

#include "detect/robust_stats.h"

namespace dp::detect {

Baseline ComputeBaseline(const std::vector<Sample>& history, int wanted, std::int64_t since) {
  Baseline b;
  b.wanted = wanted;
  std::vector<double> values;
  for (std::size_t i = 0; i < history.size() && b.runs < wanted; ++i) {
    const Sample& s = history[i];
    if (s.at < since || !s.Good()) continue;
    values.push_back(s.value);
    b.run_ids.push_back(s.run_id);
    if (b.runs == 0) b.from_at = s.at;
    b.to_at = s.at;
    ++b.runs;
    b.next_index = i + 1;
  }
  b.ready = b.runs >= wanted && wanted > 0;
  if (!values.empty()) {
    b.median = Median(values);
    b.mad = Mad(values);
  }
  return b;
}

Band BandOf(const Baseline& b, const DetectionConfig& cfg) {
  double half = std::max(cfg.band_sigmas * kMadToSigma * b.mad,
                         cfg.min_band_percent / 100.0 * std::fabs(b.median));
  return Band{b.median - half, b.median + half};
}

bool OutsideWorse(double value, const Band& band, Direction direction) {
  return direction == Direction::kHigherIsBetter ? value < band.low : value > band.high;
}

double WorsePercent(double value, double reference, Direction direction) {
  if (reference == 0) return 0;
  double d = (value - reference) / std::fabs(reference) * 100.0;
  return direction == Direction::kHigherIsBetter ? -d : d;
}

}  // namespace dp::detect
