#include "detect/baseline.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "detect/robust_stats.h"

namespace dp::detect {

namespace {

// c4(n): E[s] = c4(n) sigma for n normal values; the two-term expansion is
// within 1e-4 of the exact Gamma-ratio form from n = 5 on.
double C4(int n) { return n > 1 ? 1 - 1.0 / (4.0 * n) - 7.0 / (32.0 * n * n) : 1; }

// Half-width of a prediction band for the mean of 1/future_variance future
// runs around a centre estimated with variance sigma^2 * centre_variance.
double HalfWidth(double centre, double sigma, double k, double floor_percent,
                 double future_variance, double centre_variance) {
  const double spread = sigma * std::sqrt(future_variance + centre_variance);
  return std::max(k * spread, floor_percent / 100.0 * std::fabs(centre));
}

double MadSigma(double mad, int n) { return kMadToSigma * mad * MadSmallSampleFactor(n); }

// The screen's sigma while the baseline grows: the SD of the runs so far, or
// the MAD-based one while they are all equal.
double ScreenSigma(double mad, double sd, int n) { return sd > 0 ? sd / C4(n) : MadSigma(mad, n); }

// Running median (a sorted copy) and mean/variance (Welford 1962, "Note on a
// method for calculating corrected sums of squares and products") of the
// admitted runs, so screening m later runs costs O(m n) moves, not O(m n log n).
class Running {
 public:
  void Add(double x) {
    sorted_.insert(std::upper_bound(sorted_.begin(), sorted_.end(), x), x);
    const double d = x - mean_;
    mean_ += d / static_cast<double>(sorted_.size());
    m2_ += d * (x - mean_);
  }
  int n() const { return static_cast<int>(sorted_.size()); }
  double Median() const {
    const std::size_t k = sorted_.size();
    if (k == 0) return 0;
    return k % 2 ? sorted_[k / 2] : (sorted_[k / 2 - 1] + sorted_[k / 2]) / 2;
  }
  double Sd() const { return n() > 1 ? std::sqrt(std::max(0.0, m2_) / (n() - 1)) : 0; }
  const std::vector<double>& values() const { return sorted_; }

 private:
  std::vector<double> sorted_;
  double mean_ = 0, m2_ = 0;
};

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
  Running run;
  std::vector<const Sample*> used;
  for (std::size_t i = 0; i < first; ++i) {
    run.Add(good[i]->value);
    used.push_back(good[i]);
  }
  b.ready = static_cast<int>(first) >= cfg.baseline_runs && cfg.baseline_runs > 0;
  if (b.ready) {
    // Sequential screen: each later run must lie within the wide screen of
    // the baseline as it stands, so neither a drop nor a fluke gets in.
    double mad = Mad(run.values());
    for (std::size_t i = first; i < good.size() && run.n() < cfg.baseline_max_runs; ++i) {
      const int n = run.n();
      const double median = run.Median();
      const double sigma = ScreenSigma(mad, run.Sd(), n);
      // The median's variance is ~ pi/2 sigma^2 / n (efficiency 2/pi).
      const double half = HalfWidth(median, sigma, kScreenSigmas, cfg.min_band_percent, 1,
                                    std::numbers::pi / (2.0 * n));
      const double v = good[i]->value;
      if (std::fabs(v - median) > half) continue;
      run.Add(v);
      used.push_back(good[i]);
      if (run.Sd() == 0) mad = Mad(run.values());  // only needed while all runs are equal
    }
  }
  b.runs = run.n();
  for (const Sample* s : used) b.run_ids.push_back(s->run_id);
  if (!used.empty()) {
    b.from_at = used.front()->at;
    b.to_at = used.back()->at;
    b.median = run.Median();
    b.mad = Mad(run.values());
    // Skip the runs beyond the screen of the median (only unscreened first
    // runs can be), then the classical estimates over the rest.
    const double skip = std::max(kScreenSigmas * MadSigma(b.mad, b.runs),
                                 cfg.min_band_percent / 100.0 * std::fabs(b.median));
    std::vector<double> kept;
    for (double x : run.values())
      if (std::fabs(x - b.median) <= skip || b.mad == 0) kept.push_back(x);
    b.kept = static_cast<int>(kept.size());
    double mean = 0;
    for (double x : kept) mean += x;
    mean /= static_cast<double>(kept.size());
    double ss = 0;
    for (double x : kept) ss += (x - mean) * (x - mean);
    b.center = mean;
    b.sd = kept.size() > 1 ? std::sqrt(ss / static_cast<double>(kept.size() - 1)) : 0;
    b.sigma = b.sd > 0 ? b.sd / C4(b.kept) : MadSigma(b.mad, b.runs);
  }
  return b;
}

Band BandOf(const Baseline& b, const DetectionConfig& cfg) {
  const double half = HalfWidth(b.center, b.sigma, cfg.band_sigmas, cfg.min_band_percent, 1,
                                b.kept > 0 ? 1.0 / b.kept : 0);
  return Band{b.center - half, b.center + half};
}

Band PairBandOf(const Baseline& b, const DetectionConfig& cfg) {
  const double half = HalfWidth(b.center, b.sigma, cfg.confirm_sigmas, cfg.confirm_min_percent, 0.5,
                                b.kept > 0 ? 1.0 / b.kept : 0);
  return Band{b.center - half, b.center + half};
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
