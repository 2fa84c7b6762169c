#include "detect/baseline.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "detect/robust_stats.h"

namespace dp::detect {

namespace {

double SampleSd(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
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
    // Sequential screen: each later run must lie inside the band of the
    // baseline as it stands, so neither a drop nor a lucky fast run gets in.
    for (std::size_t i = first;
         i < good.size() && static_cast<int>(values.size()) < cfg.baseline_max_runs; ++i) {
      const int n = static_cast<int>(values.size());
      const Band band = BandFor(Median(values), Mad(values), SampleSd(values), n, cfg);
      double v = good[i]->value;
      if (v < band.low || v > band.high) continue;
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
    b.sd = SampleSd(values);
  }
  return b;
}

Band BandFor(double median, double mad, double sd, int n, const DetectionConfig& cfg) {
  double c4 = n > 1 ? 1 - 1.0 / (4.0 * n) - 7.0 / (32.0 * n * n) : 1;
  // The screen (sd = 0) uses the MAD; the band of a screened baseline its SD.
  double sigma = sd > 0 ? sd / c4 : kMadToSigma * mad * MadSmallSampleFactor(n);
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
