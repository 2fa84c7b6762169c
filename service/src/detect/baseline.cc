#include "detect/baseline.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "detect/robust_stats.h"

namespace dp::detect {
namespace {

// Small-sample correction factors b_n of the MAD (Croux & Rousseeuw 1992);
// n / (n - 0.8) beyond the table.
double MadCorrection(int n) {
  static const double kTable[] = {1.0, 1.0, 1.196, 1.495, 1.363, 1.206, 1.200, 1.140, 1.129,
                                  1.107};
  if (n < 0) return 1.0;
  if (n <= 9) return kTable[n];
  return n / (n - 0.8);
}

}  // namespace

Baseline ComputeBaseline(const std::vector<Sample>& history, std::size_t end,
                         const DetectionConfig& cfg, std::int64_t since) {
  Baseline b;
  b.wanted = cfg.baseline_runs;
  std::vector<const Sample*> good;
  for (std::size_t i = 0; i < history.size() && i < end; ++i) {
    if (history[i].at >= since && history[i].Good()) good.push_back(&history[i]);
  }
  const std::size_t first = std::min<std::size_t>(good.size(), cfg.baseline_runs);
  std::vector<double> values;
  std::vector<const Sample*> used;
  for (std::size_t i = 0; i < first; ++i) {
    values.push_back(good[i]->value);
    used.push_back(good[i]);
  }
  b.ready = static_cast<int>(first) >= cfg.baseline_runs && cfg.baseline_runs > 0;
  if (b.ready) {
    const Band initial = BandFor(Median(values), Mad(values), static_cast<int>(first), cfg);
    for (std::size_t i = first;
         i < good.size() && static_cast<int>(values.size()) < cfg.baseline_max_runs; ++i) {
      double v = good[i]->value;
      if (v < initial.low || v > initial.high) continue;
      values.push_back(v);
      used.push_back(good[i]);
    }
  }
  b.runs = static_cast<int>(values.size());
  for (const Sample* s : used) b.run_ids.push_back(s->run_id);
  if (!used.empty()) {
    b.from_at = used.front()->at;
    b.to_at = used.back()->at;
    b.median = Median(values);
    b.mad = Mad(values);
  }
  return b;
}

Band BandFor(double median, double mad, int n, const DetectionConfig& cfg) {
  double sigma = kMadToSigma * mad * MadCorrection(n);
  if (n > 0) sigma *= std::sqrt(1 + std::numbers::pi / (2.0 * n));
  double half = std::max(cfg.band_sigmas * sigma, cfg.min_band_percent / 100.0 * std::fabs(median));
  return Band{median - half, median + half};
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
