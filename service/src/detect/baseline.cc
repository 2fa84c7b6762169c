#include "detect/baseline.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "detect/robust_stats.h"
#include "detect/student_t.h"

namespace dp::detect {

namespace {

// Later runs enter the baseline within this prediction quantile (see header).
constexpr double kScreenTail = 1e-4;
// A first run farther than this many MAD-based sigmas from the first runs'
// median is dropped (Iglewicz & Hoaglin 1993).
constexpr double kFirstRunsScreenSigmas = 3.5;

// c4(n): E[s] = c4(n) sigma for n normal values; the two-term expansion is
// within 1e-4 of the exact Gamma-ratio form from n = 5 on.
double C4(int n) { return n > 1 ? 1 - 1.0 / (4.0 * n) - 7.0 / (32.0 * n * n) : 1; }

// Student-t quantiles are asked for a handful of (probability, df) pairs
// over and over; bisection costs microseconds, so keep them per thread.
double CachedQuantile(double p, double df) {
  thread_local std::map<std::pair<double, double>, double> cache;
  auto key = std::make_pair(p, df);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  if (cache.size() > 4096) cache.clear();
  double q = StudentTQuantile(p, df);
  cache.emplace(key, q);
  return q;
}

// The prediction quantile, in the baseline's sigmas, at probability p: the
// small-sample Student-t (df n-1), and no less than the metric's own tails
// (a unit-variance t of tail_df degrees of freedom) ask for.
double QuantileOf(double p, const Baseline& b) {
  double q = CachedQuantile(p, b.df());
  if (b.tail_df > 2)
    q = std::max(q, CachedQuantile(p, b.tail_df) * std::sqrt((b.tail_df - 2) / b.tail_df));
  return q;
}

// The normal score of a t statistic under the same two distributions: the
// less surprising of the two.
double NormalScoreOf(double t, const Baseline& b) {
  double z = TToNormalScore(t, b.df());
  if (b.tail_df > 2)
    z = std::min(z, TToNormalScore(t * std::sqrt(b.tail_df / (b.tail_df - 2)), b.tail_df));
  return z;
}

double LowFloor(double percent) {
  return percent >= 100 ? std::numeric_limits<double>::infinity() : -std::log1p(-percent / 100);
}
double HighFloor(double percent) { return std::log1p(percent / 100); }

BandWidths Widths(const Baseline& b, double sigmas, double floor_percent, double future_var) {
  const double q = QuantileOf(NormalCdf(sigmas), b);
  const double n = std::max(1, b.runs);
  const double stat = q * b.log_sigma * std::sqrt(future_var + 1.0 / n);
  return BandWidths{std::max(stat, LowFloor(floor_percent)),
                    std::max(stat, HighFloor(floor_percent))};
}

double WorseWidth(const BandWidths& w, Direction d) {
  return d == Direction::kHigherIsBetter ? w.low : w.high;
}

// The admitted runs: running mean and variance of the logs (Welford 1962)
// and a sorted copy of the values for the median and MAD.
class Accumulator {
 public:
  void Add(const Sample& s) {
    const double y = std::log(s.value);
    ++n_;
    const double d = y - mean_;
    mean_ += d / n_;
    m2_ += d * (y - mean_);
    values_.insert(std::upper_bound(values_.begin(), values_.end(), s.value), s.value);
    run_ids_.push_back(s.run_id);
    if (n_ == 1) from_ = s.at;
    from_ = std::min(from_, s.at);
    to_ = std::max(to_, s.at);
  }
  int n() const { return n_; }

  Baseline Snapshot(const DetectionConfig& cfg, bool ready) const {
    Baseline b;
    b.ready = ready;
    b.wanted = cfg.baseline_runs;
    b.runs = n_;
    if (n_ == 0) return b;
    b.median = Median(values_);
    b.mad = Mad(values_);
    b.log_center = mean_;
    b.center = std::exp(mean_);
    const double sd = n_ > 1 ? std::sqrt(std::max(0.0, m2_) / (n_ - 1)) : 0;
    b.log_sigma = sd / C4(n_);
    b.run_ids = run_ids_;
    b.from_at = from_;
    b.to_at = to_;
    return b;
  }

 private:
  int n_ = 0;
  double mean_ = 0, m2_ = 0;
  std::vector<double> values_;
  std::vector<std::int64_t> run_ids_;
  std::int64_t from_ = 0, to_ = 0;
};

// The winsorized normal score of a worse-side deviation e (see header).
double Score(double e, const Baseline& b, const DetectionConfig& cfg, Direction d) {
  if (e == 0) return 0;
  const double floor = d == Direction::kHigherIsBetter ? LowFloor(cfg.min_band_percent)
                                                       : HighFloor(cfg.min_band_percent);
  const double by_floor = floor > 0 ? cfg.band_sigmas * std::fabs(e) / floor
                                    : std::numeric_limits<double>::infinity();
  double by_t = std::numeric_limits<double>::infinity();
  if (b.log_sigma > 0) {
    const double t = std::fabs(e) / (b.log_sigma * std::sqrt(1 + 1.0 / std::max(1, b.runs)));
    by_t = NormalScoreOf(t, b);
  }
  const double z = std::min({by_t, by_floor, cfg.cusum_cap});
  return e > 0 ? z : -z;
}

}  // namespace

BandWidths SingleWidths(const Baseline& b, const DetectionConfig& cfg) {
  return Widths(b, cfg.band_sigmas, cfg.min_band_percent, 1.0);
}

BandWidths PairWidths(const Baseline& b, const DetectionConfig& cfg) {
  return Widths(b, cfg.confirm_sigmas, cfg.confirm_min_percent, 0.5);
}

Band BandOf(const Baseline& b, const DetectionConfig& cfg) {
  const BandWidths w = SingleWidths(b, cfg);
  return Band{std::exp(b.log_center - w.low), std::exp(b.log_center + w.high)};
}

Band PairBandOf(const Baseline& b, const DetectionConfig& cfg) {
  const BandWidths w = PairWidths(b, cfg);
  return Band{std::exp(b.log_center - w.low), std::exp(b.log_center + w.high)};
}

double WorseLogDeviation(double value, const Baseline& b, Direction direction) {
  const double d = std::log(value) - b.log_center;
  return direction == Direction::kHigherIsBetter ? -d : d;
}

Replay ReplaySeries(const std::vector<Sample>& history, std::size_t end,
                    const DetectionConfig& cfg, std::int64_t since, Direction direction,
                    double tail_df) {
  Replay r;
  Accumulator acc;
  std::vector<std::size_t> first;
  bool formed = false;
  const std::size_t wanted = static_cast<std::size_t>(std::max(cfg.baseline_runs, 1));
  Baseline b;  // the baseline as it stands for the run being judged
  Baseline judged_with;  // b before the latest refresh
  bool last_refreshed = false;
  double screen = 0;
  auto refresh = [&] {
    b = acc.Snapshot(cfg, formed);
    b.tail_df = tail_df;
    const double q = QuantileOf(1 - kScreenTail, b);
    screen = std::max(q * b.log_sigma * std::sqrt(1 + 1.0 / std::max(1, b.runs)),
                      LowFloor(cfg.min_band_percent));
  };
  auto admit = [&](std::size_t i, double deviation) {
    if (acc.n() >= cfg.baseline_max_runs || std::fabs(deviation) > screen) return false;
    acc.Add(history[i]);
    return true;
  };

  for (std::size_t i = 0; i < history.size() && i < end; ++i) {
    const Sample& s = history[i];
    if (s.at < since || !s.Good()) continue;
    ++r.good_runs;
    if (!formed) {
      first.push_back(i);
      r.last_judged = false;
      if (first.size() < wanted) continue;
      // The first runs are not screened on entry: drop a gross outlier among
      // them, judged by their own median and MAD.
      std::vector<double> logs;
      for (std::size_t j : first) logs.push_back(std::log(history[j].value));
      const double med = Median(logs);
      const double mad_sigma =
          kMadToSigma * Mad(logs) * MadSmallSampleFactor(static_cast<int>(logs.size()));
      const double cut = std::max(kFirstRunsScreenSigmas * mad_sigma, LowFloor(cfg.min_band_percent));
      for (std::size_t j = 0; j < first.size(); ++j)
        if (mad_sigma == 0 || std::fabs(logs[j] - med) <= cut) acc.Add(history[first[j]]);
      formed = cfg.baseline_runs > 0;
      refresh();
      continue;
    }
    JudgedRun run;
    last_refreshed = false;
    run.index = i;
    run.deviation = WorseLogDeviation(s.value, b, direction);
    run.score = Score(run.deviation, b, cfg, direction);
    run.outside = run.deviation > WorseWidth(SingleWidths(b, cfg), direction);
    r.last = run;
    r.last_judged = true;
    const double next = std::max(0.0, r.cusum + run.score - cfg.cusum_k);
    if (next > 0) {
      r.cusum = next;
      r.segment.push_back(run);
      continue;
    }
    // The segment closed: its runs (and this one) were ordinary after all.
    bool grew = false;
    for (const JudgedRun& j : r.segment) grew = admit(j.index, j.deviation) || grew;
    grew = admit(i, run.deviation) || grew;
    r.segment.clear();
    r.cusum = 0;
    if (grew) {
      judged_with = b;
      last_refreshed = true;
      refresh();
    }
  }
  if (!formed) {
    // Still forming: report what there is, not ready.
    for (std::size_t j : first) acc.Add(history[j]);
    b = acc.Snapshot(cfg, false);
    b.tail_df = tail_df;
  }
  r.baseline = b;
  if (r.last_judged) r.last_baseline = last_refreshed ? std::move(judged_with) : b;
  return r;
}

Baseline ComputeBaseline(const std::vector<Sample>& history, std::size_t end,
                         const DetectionConfig& cfg, std::int64_t since, Direction direction,
                         double tail_df) {
  return ReplaySeries(history, end, cfg, since, direction, tail_df).baseline;
}

bool OutsideWorse(double value, const Band& band, Direction direction) {
  return direction == Direction::kHigherIsBetter ? value < band.low : value > band.high;
}

double WorsePercent(double value, double reference, Direction direction) {
  if (reference == 0) return 0;
  double d = (value - reference) / std::fabs(reference) * 100.0;
  return direction == Direction::kHigherIsBetter ? -d : d;
}

int RunsToDetect(const Baseline& b, const DetectionConfig& cfg, double percent,
                 Direction direction) {
  if (!b.ready || percent <= 0) return 0;
  const double delta =
      direction == Direction::kHigherIsBetter ? LowFloor(percent) : HighFloor(percent);
  // Below the pair floor a change is never reported, however many runs.
  const double floor = direction == Direction::kHigherIsBetter ? LowFloor(cfg.confirm_min_percent)
                                                               : HighFloor(cfg.confirm_min_percent);
  if (delta < floor) return 0;
  const double single = WorseWidth(SingleWidths(b, cfg), direction);
  const double pair = WorseWidth(PairWidths(b, cfg), direction);
  const double sd = b.log_sigma;
  if (delta >= single + sd && delta >= pair + sd / std::sqrt(2.0)) return 2;
  const double z = Score(delta, b, cfg, direction) - cfg.cusum_k;
  if (z <= 0) return 0;
  return std::max(2, static_cast<int>(std::ceil(cfg.cusum_h / z)));
}

}  // namespace dp::detect
