#include "detect/baseline.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "detect/baseline_internal.h"
#include "detect/process_cache.h"
#include "detect/robust_stats.h"
#include "detect/student_t.h"

namespace dp::detect {

namespace {

// Later runs enter the baseline within this prediction quantile (see header).
constexpr double kScreenTail = 1e-4;
// The first runs are tested for one gross outlier (a busy run the guard did
// not see) at this familywise level, at most kMaxFirstDrops times; a dropped
// run is replaced by the next good one, so the baseline still has
// cfg.baseline_runs runs and its spread is not starved.
constexpr double kFirstRunsAlpha = 0.01;
constexpr int kMaxFirstDrops = 2;
// The level of the test for a step among the first runs (StepInFirstRuns),
// one-sided. At 1% a 5%-noise series whose first two runs happened 7% high
// (227, 225, then 201, 196, 194) made a step of three runs of ordinary
// noise (t 10 on 3 degrees of freedom) and was doubted on 15 runs of 20; a
// 40% drop at 1.5% noise stands at t 30-40.
constexpr double kStepAlpha = 1e-3;
// The level of the F test of an open segment's spread against the baseline's.
constexpr double kSpreadAlpha = 0.01;
// A segment that signalled is released once this many judged runs in a row
// were clear (what resolves its alert: AlertPolicy's resolve_after_clear_runs
// default) and its spread beats the baseline's by the F test at
// kReleaseAlpha (see ReplaySeries).
constexpr int kReleaseRuns = 3;
constexpr double kReleaseAlpha = 0.10;
// A series whose own variance exceeds its family's pooled variance by the
// F test at this level keeps its own spread (see SpreadPrior in the header).
constexpr double kPoolAlpha = 0.05;
// The smallest member is left out of its family's pool only when the
// members are far from one variance (Bartlett's test at this level). At
// kPoolAlpha the smallest of alike young spreads would go about as often as
// the largest, and a pool that drops its chance-tight members is biased
// wide; the tight starts worth leaving out are far off (1.1% among 11-32%).
constexpr double kTightAlpha = 1e-4;
// The pool leaves out a member at all only when Bartlett's test rejects
// its members as one variance at this level (see PoolSpread).
constexpr double kWideAlpha = 0.01;

// c4(n): E[s] = c4(n) sigma for n normal values; the two-term expansion is
// within 1e-4 of the exact Gamma-ratio form from n = 5 on.
double C4(int n) { return n > 1 ? 1 - 1.0 / (4.0 * n) - 7.0 / (32.0 * n * n) : 1; }

// A run and its re-test both beyond a heavy-tailed band: P(X > q) to this
// power (2 / (1 + rho), rho = 0.25; see "Pair rule for heavy tails").
constexpr double kPairBothPower = 2 / 1.25;

// The (probability, df, tails) keys of the quantiles a process asks for.
using QuantileKey = std::tuple<double, double, double>;

}  // namespace

// Quantiles are asked for a handful of (probability, df, tails) over and
// over; bisection costs microseconds (HeavyTBothQuantile milliseconds), so
// each is kept once per process (process_cache.h), at most 4096 a kind
// (past that it is computed for the call).
double CachedQuantile(double p, double df, double tail_df) {
  static ProcessCache<QuantileKey, double> cache(4096);
  return cache.Get(QuantileKey{p, df, tail_df}, [&] {
    return tail_df > 2 ? HeavyTQuantile(p, df, tail_df) : StudentTQuantile(p, df);
  });
}

double UncachedBothQuantile(double p, double df, double tail_df) {
  return HeavyTBothQuantile(p, df, tail_df, kPairBothPower);
}

double CachedBothQuantile(double p, double df, double tail_df) {
  static ProcessCache<QuantileKey, double> cache(4096);
  return cache.Get(QuantileKey{p, df, tail_df}, [&] { return UncachedBothQuantile(p, df, tail_df); });
}

namespace {

// The prediction quantile, in the baseline's sigmas, at probability p: the
// small-sample Student-t (df n-1), and for a metric with heavy tails a
// unit-variance t of tail_df degrees of freedom divided by that same
// estimated spread (HeavyTQuantile, student_t.h). Taking only the larger of
// the two quantiles, as before, let a 6-run p99 baseline's pair band be
// passed 9 times as often as its probability says.
double QuantileOf(double p, const Baseline& b) {
  return CachedQuantile(p, b.df(), b.tail_df > 2 ? b.tail_df : 0);
}

// The normal score of a t statistic under the same distribution.
double NormalScoreOf(double t, const Baseline& b) {
  if (b.tail_df > 2) return HeavyTToNormalScore(t, b.df(), b.tail_df);
  return TToNormalScore(t, b.df());
}

}  // namespace

double LowFloor(double percent) {
  return percent >= 100 ? std::numeric_limits<double>::infinity() : -std::log1p(-percent / 100);
}
double HighFloor(double percent) { return std::log1p(percent / 100); }

namespace {

BandWidths Widths(const Baseline& b, double sigmas, double floor_percent, double future_var) {
  const double q = QuantileOf(NormalCdf(sigmas), b);
  const double n = std::max(1, b.runs);
  const double stat = q * b.log_sigma * std::sqrt(future_var + 1.0 / n);
  return BandWidths{std::max(stat, LowFloor(floor_percent)),
                    std::max(stat, HighFloor(floor_percent))};
}

}  // namespace

double WorseWidth(const BandWidths& w, Direction d) {
  return d == Direction::kHigherIsBetter ? w.low : w.high;
}

namespace {

// One more value in a running mean and sum of squared deviations (Welford
// 1962).
void WelfordStep(double y, int& n, double& mean, double& m2) {
  ++n;
  const double d = y - mean;
  mean += d / n;
  m2 += d * (y - mean);
}

// The runs waiting in an open segment, as a spread: the degrees of freedom
// and the sum of squares of their log values about their own mean.
struct Waiting {
  double df = 0, ss = 0;
};

// The admitted runs, in the order they were admitted: a running mean and
// variance of the logs (Welford 1962) for judging, and the indices so that a
// full snapshot (median, MAD, run ids) of the first k admitted can be taken
// once at the end rather than after every admission.
class Accumulator {
 public:
  // window: how many of the newest admitted runs the baseline holds.
  Accumulator(const std::vector<Sample>& history, const SpreadPrior& prior, int window)
      : history_(history), prior_(prior), window_(std::max(window, 1)) {}
  // Admits a run; past the window the oldest admitted run leaves, so the
  // baseline follows slow legitimate change (see header, "Window").
  void Add(std::size_t index) {
    WelfordStep(std::log(history_[index].value), n_, mean_, m2_);
    admitted_.push_back(index);
    if (n_ > window_) Remove(admitted_[admitted_.size() - 1 - static_cast<std::size_t>(window_)]);
  }
  int n() const { return n_; }
  // Every admission so far (the window's runs are the newest n()).
  int total() const { return static_cast<int>(admitted_.size()); }
  // The scatter of the runs waiting in an open segment about their own mean
  // (see ReplaySeries); it widens the spread, never narrows it.
  void SetWaiting(Waiting w) { waiting_ = w; }
  Waiting waiting() const { return waiting_; }
  // The scatter of the runs after a step among the first runs about their
  // own level (StepInFirstRuns): pooled with the admitted runs' own.
  void SetStep(Waiting w) { step_ = w; }
  Waiting step() const { return step_; }

  // What judging needs: centre, spread, size.
  Baseline Light(const DetectionConfig& cfg, bool ready, double tail_df) const {
    Baseline b;
    b.ready = ready;
    b.wanted = cfg.baseline_runs;
    b.tail_df = tail_df;
    b.runs = n_;
    if (n_ == 0) return b;
    b.log_center = mean_;
    b.center = std::exp(mean_);
    Spread(n_, m2_, waiting_, step_, b);
    return b;
  }

  // The baseline as it stood after its first `count` admissions (total()),
  // whole, with the waiting runs' scatter of that moment.
  Baseline Full(const DetectionConfig& cfg, bool ready, double tail_df, int count,
                Waiting waiting, Waiting step) const {
    count = std::min<int>(count, static_cast<int>(admitted_.size()));
    int n = 0;
    double mean = 0, m2 = 0;
    Baseline b;
    b.ready = ready;
    b.wanted = cfg.baseline_runs;
    b.tail_df = tail_df;
    std::vector<double> values;
    for (int k = std::max(0, count - window_); k < count; ++k) {
      const Sample& s = history_[admitted_[k]];
      WelfordStep(std::log(s.value), n, mean, m2);
      values.push_back(s.value);
      b.run_ids.push_back(s.run_id);
      b.from_at = k == 0 ? s.at : std::min(b.from_at, s.at);
      b.to_at = std::max(b.to_at, s.at);
    }
    b.runs = n;
    if (n == 0) return b;
    b.median = Median(values);
    b.mad = Mad(values);
    b.log_center = mean;
    b.center = std::exp(mean);
    Spread(n, m2, waiting, step, b);
    return b;
  }

 private:
  static double Sigma(int n, double m2) {
    const double sd = n > 1 ? std::sqrt(std::max(0.0, m2) / (n - 1)) : 0;
    return sd / C4(n);
  }
  // The spread of n runs with sum of squares m2, widened by the waiting runs'
  // scatter when that is the larger, and pooled with the family's when the
  // runs are not significantly noisier than it (see header).
  void Spread(int n, double m2, Waiting w, Waiting step, Baseline& b) const {
    b.own_log_sigma = b.log_sigma = Sigma(n, m2);
    double df = n > 1 ? n - 1 : 0, ss = std::max(0.0, m2);
    if (step.df > 0) {
      // A baseline formed before a step among the first runs has 2-4 runs;
      // the runs after the step scatter about their own level with the
      // series' noise as much as those before it (a level shift leaves that
      // scatter alone), so the two are one estimate: on 2 runs alone the
      // single band is 26 sigmas (Student-t, 1 df) and passes a 40% drop.
      df += step.df;
      ss += step.ss;
      b.step_df = step.df;
      b.log_sigma = std::sqrt(ss / df) / C4(static_cast<int>(std::lround(df)) + 1);
    }
    if (df > 0 && w.df > 0 && (ss + w.ss) / (df + w.df) > ss / df) {
      df += w.df;
      ss += w.ss;
      b.waiting_df = w.df;
      b.log_sigma = std::sqrt(ss / df) / C4(static_cast<int>(std::lround(df)) + 1);
    }
    Pool(df, ss, b);
    // A joint series' floor (its members' pooled spread over sqrt(k)) is an
    // estimate with the members' degrees of freedom, three times its own
    // runs'. Below it, the spread is the floor and known as well as the
    // floor is. Above it but alike (an F test at kPoolAlpha), the spread
    // stays its own, the larger, since the shared weekly factor makes the
    // floor a little low, but it is known with both estimates' degrees of
    // freedom, as a family's pool is: on an 8-run baseline with its own 7 a
    // pair needed 12 sigmas (Student-t at Phi(-4.5)), and the zones all 14%
    // down in a run and its re-test at 3% noise were not a pair.
    const double floor = prior_.floor_log_sd;
    if (floor > b.log_sigma) {
      b.log_sigma = floor;
      b.floor_df = prior_.floor_df;
    } else if (floor > 0 && prior_.floor_df > 0 && df > 0 &&
               FUpperTail(b.log_sigma * b.log_sigma / (floor * floor), df, prior_.floor_df) >=
                   kPoolAlpha) {
      b.floor_df = df + prior_.floor_df;
    }
  }
  void Pool(double own_df, double ss, Baseline& b) const {
    const double prior_var = prior_.log_sd * prior_.log_sd;
    if (prior_.df <= 0 || !(prior_var > 0)) return;
    const double own_var = own_df > 0 ? ss / own_df : 0;
    if (own_df > 0 && FUpperTail(own_var / prior_var, own_df, prior_.df) < kPoolAlpha) return;
    const double df = own_df + prior_.df;
    b.prior_df = prior_.df;
    b.log_sigma = std::sqrt((own_df * own_var + prior_.df * prior_var) / df) /
                  C4(static_cast<int>(std::lround(df)) + 1);
  }

  const std::vector<Sample>& history_;
  const SpreadPrior prior_;
  int n_ = 0;
  double mean_ = 0, m2_ = 0;
  Waiting waiting_, step_;
  int window_;
  // Welford's step backwards: the run at `index` leaves the running mean
  // and sum of squares.
  void Remove(std::size_t index) {
    const double x = std::log(history_[index].value);
    if (n_ <= 1) {
      n_ = 0;
      mean_ = m2_ = 0;
      return;
    }
    const double old_mean = mean_;
    mean_ = (n_ * mean_ - x) / (n_ - 1);
    m2_ = std::max(0.0, m2_ - (x - old_mean) * (x - mean_));
    --n_;
  }

  std::vector<std::size_t> admitted_;
};

}  // namespace

// The winsorized normal score of a worse-side deviation e (baseline.h).
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

// The smallest median shift of a segment of m runs that the baseline's own
// uncertainty does not explain (see RulesOf): the segment's median against
// the baseline's mean, variance sigma^2 (1/n + pi/(2m)), `confirm_sigmas`
// standard errors. For near-normal figures the spread is taken as estimated:
// its own uncertainty is what the Student-t bands and the CUSUM's scores
// already allow for, and a Student-t quantile at this probability with the 4
// degrees of freedom of a lone 5-run baseline (about 30) would never let a
// CUSUM see even a 25% drop on it. Heavy-tailed figures (TailDfOf: latency
// percentiles and access times) are the exception: from runs with such
// tails a young baseline's spread is erratic (a p99 baseline of 6 runs at
// 15% noise measured 9.9%; a seek stroke's 5 runs pooled with its four
// siblings' measured 3.1% at 5% noise, 6.4% at 10%), and a CUSUM summed
// ordinary runs against it into a false alert, so theirs is the Student-t
// quantile at the baseline's degrees of freedom, the family's included
// (6.0 for a 5-run seek stroke with four siblings, 20 degrees of freedom;
// 4.6 once they have grown).
// A seek stroke's rise on a young baseline is then seen by the pair rule, or
// by the CUSUM once the baseline has grown: RunsToDetect, which asks this
// test, says how many runs.
double ShiftLimit(const Baseline& b, const DetectionConfig& cfg, double m) {
  if (!(b.log_sigma > 0) || m <= 0) return 0;
  const double se = b.log_sigma * std::sqrt(1.0 / std::max(1, b.runs) + M_PI / (2 * m));
  double q = cfg.confirm_sigmas;
  if (b.tail_df > 2)
    q = std::max(q, CachedQuantile(NormalCdf(cfg.confirm_sigmas), b.df(), 0));
  return q * se;
}


BandWidths SingleWidths(const Baseline& b, const DetectionConfig& cfg) {
  return Widths(b, cfg.band_sigmas, cfg.min_band_percent, 1.0);
}

BandWidths PairWidths(const Baseline& b, const DetectionConfig& cfg) {
  BandWidths w = Widths(b, cfg.confirm_sigmas, cfg.confirm_min_percent, kPairMeanVariance);
  if (b.tail_df <= 2) return w;
  // Heavy tails: the mean of two runs is then about as heavy-tailed as one
  // run, and a band for it from one run's tail quantile is needlessly wide.
  // The pair rule needs both runs beyond the single band a AND their mean
  // beyond the pair band m, and a mean beyond m needs one run beyond m; so
  // for independent runs P(pair) <= 2 P(X > a) P(X > m) whatever the
  // distribution (a union bound). The pair band from that bound, at the
  // pair's probability Phi(-confirm_sigmas), is m = Q(1 - Phi(-confirm) /
  // (2 Phi(-band))): for p99 (t, 4 df) at the defaults 8.5 sigmas of the
  // series instead of 17 (15 without the pair correlation allowance). The
  // narrower of the two, never below the floor.
  // The bound holds for a given spread; taken with each run's tail averaged
  // over the young baseline's spread (Q is HeavyTQuantile's), it is not
  // quite one: both tails grow together when the spread came out small, and
  // on 6-10 runs the pairs pass 2-4 times as often as the bound says (10
  // times on a 5-run access time), while from about 20 runs on they pass a
  // third as often or less. Averaging the bound itself over the spread was
  // tried: honest on young baselines, but it took a p99 x1.5 rise seen
  // within 3 runs at 3% noise from 96.8% to 91.2% of changes, and removed
  // no false alert: slower detection bought nothing.
  const double p_single = NormalCdf(-cfg.band_sigmas);
  const double p_pair = NormalCdf(-cfg.confirm_sigmas);
  if (p_single <= 0 || p_pair <= 0 || p_pair >= 2 * p_single) return w;
  const BandWidths bound = Widths(b, NormalQuantile(1 - p_pair / (2 * p_single)),
                                  cfg.confirm_min_percent, 1.0);
  return BandWidths{std::min(w.low, bound.low), std::min(w.high, bound.high)};
}

BandWidths PairRuleWidths(const Baseline& b, const DetectionConfig& cfg) {
  if (!PairRuleOnBoth(b)) return PairWidths(b, cfg);
  const double q = CachedBothQuantile(NormalCdf(-cfg.confirm_sigmas), b.df(), b.tail_df);
  const double n = std::max(1, b.runs);
  const double stat = q * b.log_sigma * std::sqrt(1 + 1.0 / n);
  return BandWidths{std::max(stat, LowFloor(cfg.confirm_min_percent)),
                    std::max(stat, HighFloor(cfg.confirm_min_percent))};
}

Band BandOf(const Baseline& b, const DetectionConfig& cfg) {
  const BandWidths w = SingleWidths(b, cfg);
  return Band{std::exp(b.log_center - w.low), std::exp(b.log_center + w.high)};
}

Band PairBandOf(const Baseline& b, const DetectionConfig& cfg) {
  const BandWidths w = PairRuleWidths(b, cfg);
  return Band{std::exp(b.log_center - w.low), std::exp(b.log_center + w.high)};
}

double WorseLogDeviation(double value, const Baseline& b, Direction direction) {
  const double d = std::log(value) - b.log_center;
  return direction == Direction::kHigherIsBetter ? -d : d;
}

SegmentRules RulesOf(const std::vector<JudgedRun>& seg, double cusum, const Baseline& b,
                     const DetectionConfig& cfg, Direction direction) {
  SegmentRules out;
  if (seg.empty()) return out;
  const double pair_floor = direction == Direction::kHigherIsBetter
                                ? LowFloor(cfg.confirm_min_percent)
                                : HighFloor(cfg.confirm_min_percent);
  for (const JudgedRun& r : seg) out.segment_deviation += r.deviation;
  out.segment_deviation /= static_cast<double>(seg.size());
  if (seg.size() < 2) return out;
  const JudgedRun& x = seg[seg.size() - 2];
  const JudgedRun& y = seg.back();
  out.pair_deviation = (x.deviation + y.deviation) / 2;
  const double judged = PairRuleDeviation(PairRuleOnBoth(b), x.deviation, y.deviation);
  out.pair = x.outside && y.outside && judged > WorseWidth(PairRuleWidths(b, cfg), direction);
  // The replay asks this after every run of an open segment; the medians are
  // only needed once the CUSUM is there.
  if (cusum < cfg.cusum_h) return out;
  std::vector<double> recent;
  for (std::size_t i = seg.size() > 3 ? seg.size() - 3 : 0; i < seg.size(); ++i)
    recent.push_back(seg[i].deviation);
  // The segment's median, not its mean: one interfered run in it (60% worse)
  // would move a mean over ten runs by 6%.
  std::vector<double> all;
  for (const JudgedRun& r : seg) all.push_back(r.deviation);
  // And the mean of the last two (the run that asked for a re-test and its
  // re-test, where the alert opens) beyond it too: interference that
  // outlasted a re-test put two runs 30% down, the next scheduled run was
  // 11% down and its re-test 4%, and the last three's median (11%) carried
  // a CUSUM of those capped scores to an alert on a run inside the band.
  const double m = static_cast<double>(all.size());
  const double median = Median(std::move(all));
  out.cusum = median > pair_floor && Median(recent) > pair_floor &&
              (seg[seg.size() - 2].deviation + seg.back().deviation) / 2 > pair_floor;
  // And the segment a level shift that the baseline's own uncertainty does
  // not explain: a young baseline's centre is itself off the series' level by
  // a standard error or two, and at 5-15% noise a CUSUM summed every run
  // against that offset (healthy drives, traced: 5-12-run baselines 2-3
  // standard errors off). The shift is tested as two samples would be: the
  // segment's median against the baseline's mean, with the variance of both,
  // sigma^2 (1/n + pi/(2m)) (a median of m normal values has variance
  // pi sigma^2 / (2m)), at the pair's number of standard errors
  // (ShiftLimit). Until it passes, the segment has not signalled and its runs
  // join the baseline through the admission lag, which corrects the centre.
  if (out.cusum) out.cusum = median > ShiftLimit(b, cfg, m);
  return out;
}

namespace {

// The first runs' worst outlier by a leave-one-out Student-t prediction
// (each run against the mean and sd of the others, Bonferroni over the runs)
// that is also more than `floor` (log units) from them, or npos when none is
// gross. Needs four runs (two degrees of freedom).
// The others' variance is pooled with the family's (prior, as the baseline's
// spread is; refused, as there, when the others are noisier than the family
// by the F test at kPoolAlpha). Alone, four runs give it 3 degrees of
// freedom and a Bonferroni quantile of 10.2 sigmas: a run 25% low among
// runs of 5% noise (t ~5) stayed, and the baseline's spread came out ~14%,
// its band three times the clean series'. With a family of 12 degrees of
// freedom the quantile is 3.7.
std::size_t WorstFirstRun(const std::vector<Sample>& history, const std::vector<std::size_t>& first,
                          double floor, const SpreadPrior& prior) {
  const std::size_t m = first.size();
  if (m < 4) return std::string::npos;
  std::vector<double> y;
  double sum = 0, sum2 = 0;
  for (std::size_t j : first) {
    y.push_back(std::log(history[j].value));
    sum += y.back();
    sum2 += y.back() * y.back();
  }
  const double p = 1 - kFirstRunsAlpha / (2.0 * m);
  const double prior_var = prior.log_sd * prior.log_sd;
  std::size_t worst = std::string::npos;
  double worst_ratio = 1;  // t over its quantile
  for (std::size_t j = 0; j < m; ++j) {
    const double k = static_cast<double>(m) - 1;
    const double mean = (sum - y[j]) / k;
    double var = std::max(0.0, (sum2 - y[j] * y[j] - k * mean * mean) / (k - 1));
    double df = k - 1;
    if (prior.df > 0 && prior_var > 0 && FUpperTail(var / prior_var, df, prior.df) >= kPoolAlpha) {
      var = (df * var + prior.df * prior_var) / (df + prior.df);
      df += prior.df;
    }
    const double dev = std::fabs(y[j] - mean);
    // Gross means beyond the smallest change worth an alert too: among very
    // tight runs a 0.5% one is far out in sigmas, and dropping it would let a
    // later (perhaps already slow) run into the baseline in its place.
    if (dev <= floor) continue;
    const double t = var > 0 ? dev / std::sqrt(var * (1 + 1 / k)) : std::numeric_limits<double>::infinity();
    const double ratio = t / CachedQuantile(p, df, 0);
    if (ratio > worst_ratio) {
      worst_ratio = ratio;
      worst = j;
    }
  }
  return worst;
}

// A step among the first runs: seen[at..] (two runs or more) sit together
// on the worse side of seen[..at) (two runs or more), or nullopt.
struct FirstRunsStep {
  std::size_t at = 0;
  Waiting after;  // the scatter of seen[at + 1..] about their own mean
};

// The rule (see header, "A step among the first runs"): every run from the
// split on is worse than the mean of the runs before it by more than `floor`
// (the pair floor: a change worth an alert), and the two levels differ by a
// one-sided two-sample Student-t test at kStepAlpha, Bonferroni over the
// tests made; of those that pass, the largest t over its quantile. The
// level after the split is tested twice: with its first run, and without
// it, since that run may have caught the change halfway (a throttle changed
// during the run: 145 MB/s between 200 and 120), and its distance from both
// levels then reads as scatter. The variance is the two levels' pooled
// within-level variance, pooled with the family's (prior) as the baseline's
// spread is, and refused likewise when the runs are noisier than the family
// (kPoolAlpha); the quantile is the metric's (HeavyTQuantile for heavy
// tails).
std::optional<FirstRunsStep> StepInFirstRuns(const std::vector<Sample>& history,
                                             const std::vector<std::size_t>& seen, double floor,
                                             Direction direction, double tail_df,
                                             const SpreadPrior& prior) {
  const std::size_t m = seen.size();
  if (m < 4) return std::nullopt;
  std::vector<double> w;  // log values, + = worse
  for (std::size_t j : seen) {
    const double y = std::log(history[j].value);
    w.push_back(direction == Direction::kHigherIsBetter ? -y : y);
  }
  struct Level {
    double mean = 0, ss = 0;
    int n = 0;
  };
  auto level = [&](std::size_t from, std::size_t to) {
    Level l;
    for (std::size_t j = from; j < to; ++j) WelfordStep(w[j], l.n, l.mean, l.ss);
    return l;
  };
  const double prior_var = prior.log_sd * prior.log_sd;
  const double tests = 2.0 * (static_cast<double>(m) - 3);  // at = 2 .. m - 2, two ways
  std::optional<FirstRunsStep> best;
  double best_ratio = 1;
  for (std::size_t at = 2; at + 2 <= m; ++at) {
    const Level before = level(0, at);
    bool apart = true;
    for (std::size_t j = at; j < m && apart; ++j) apart = w[j] - before.mean > floor;
    if (!apart) continue;
    for (std::size_t from : {at, at + 1}) {
      const Level after = level(from, m);
      double df = before.n + after.n - 2, var = df > 0 ? (before.ss + after.ss) / df : 0;
      if (prior.df > 0 && prior_var > 0 &&
          (df <= 0 || FUpperTail(var / prior_var, df, prior.df) >= kPoolAlpha)) {
        var = (df * var + prior.df * prior_var) / (df + prior.df);
        df += prior.df;
      }
      if (df <= 0) continue;
      const double se = std::sqrt(var * (1.0 / before.n + 1.0 / after.n));
      const double t = se > 0 ? (after.mean - before.mean) / se
                              : std::numeric_limits<double>::infinity();
      const double ratio = t / CachedQuantile(1 - kStepAlpha / tests, df, tail_df > 2 ? tail_df : 0);
      if (ratio <= best_ratio) continue;
      best_ratio = ratio;
      const Level settled = level(at + 1, m);
      best = FirstRunsStep{at, {settled.n > 1 ? settled.n - 1.0 : 0.0, settled.ss}};
    }
  }
  return best;
}

// True when the open segment's runs not yet in the baseline (4 or more)
// spread more than the baseline's own spread allows: their variance against
// the baseline's by the F test (Fisher 1924) at kSpreadAlpha. The segment's
// spread is MAD-based (1.4826 b_n MAD about its median), because a segment
// that opened one run before a real drop holds a level shift, and a plain
// variance would take the shift for scatter and fold the drop into its own
// reference; a shift of the level leaves the robust spread alone, a baseline
// whose first runs happened to agree too well does not.
bool SpreadOutgrowsBaseline(const std::vector<Sample>& history, const std::vector<JudgedRun>& seg,
                            std::size_t pending, const Baseline& b, double alpha) {
  // Four runs at least: the MAD of three is one run's distance.
  if (seg.size() < pending + 4 || b.runs < 2) return false;
  std::vector<double> logs;
  for (std::size_t k = pending; k < seg.size(); ++k)
    logs.push_back(std::log(history[seg[k].index].value));
  const int m = static_cast<int>(logs.size());
  const double spread = kMadToSigma * MadSmallSampleFactor(m) * Mad(logs);
  // Against the baseline's own runs, not the family's pooled spread: the
  // question is whether those runs were a fair sample of the series. A start
  // that was tight is usually off-centre too, and the pooled spread widens
  // its bands but does not move its centre (a 10%-noise seek series began
  // 11% low on 5 runs of CV 4.7%: pooled to 8%, its segment never beat the
  // spread, and the same alert re-opened three times).
  const double base_sd = b.own_log_sigma * C4(b.runs);  // the plain sample sd
  if (base_sd <= 0) return spread > 1e-9;
  return FUpperTail(spread * spread / (base_sd * base_sd), m - 1, b.runs - 1) < alpha;
}

// One pass over a series (ReplaySeries): what each run leaves for the next
// (the baseline's runs, the open segment and its CUSUM), and the steps a run
// goes through.
struct Replayer {
  Replayer(const std::vector<Sample>& history, const DetectionConfig& cfg, Direction direction,
           double tail_df, const SpreadPrior& prior)
      : history(history), cfg(cfg), direction(direction), tail_df(tail_df), prior(prior),
        acc(history, prior, cfg.baseline_max_runs),
        wanted(static_cast<std::size_t>(std::max(cfg.baseline_runs, 1))) {}

  const std::vector<Sample>& history;
  const DetectionConfig& cfg;
  const Direction direction;
  const double tail_df;
  const SpreadPrior& prior;
  Replay r;
  Accumulator acc;
  std::vector<std::size_t> first;
  // Every first run in order, the dropped ones too: a step's first runs are
  // dropped as gross before the runs after them show it is a level.
  std::vector<std::size_t> seen;
  int dropped = 0;
  bool formed = false;
  const std::size_t wanted;
  Baseline b;            // the baseline as it stands for the run being judged (light)
  int judged_with = 0;   // admitted runs when the last good run was judged
  Waiting judged_waiting;  // and the waiting runs' scatter then
  Waiting judged_step;     // and the first runs' step scatter then
  // The open segment's first runs that are a first-runs step's: their
  // scatter is the baseline's already (Accumulator::SetStep).
  std::size_t step_runs = 0;
  double screen = 0;
  std::size_t pending = 0;  // segment runs from here on are not in the baseline yet
  bool signalled = false;   // the open segment has met a slowdown rule
  int clear_since = 0;      // judged runs in a row since, neither outside nor a rule

  void Refresh() {
    b = acc.Light(cfg, formed, tail_df);
    const double q = QuantileOf(1 - kScreenTail, b);
    screen = std::max(q * b.log_sigma * std::sqrt(1 + 1.0 / std::max(1, b.runs)),
                      LowFloor(cfg.min_band_percent));
  }

  bool Admit(std::size_t i, double deviation) {
    if (history[i].interfered || std::fabs(deviation) > screen) return false;
    acc.Add(i);
    return true;
  }

  // The scatter of the segment's waiting runs about their own mean widens
  // the spread (see header): all but the newest, so a re-test is never judged
  // against a spread that holds the run it re-tests; frozen while the segment
  // has signalled. True when it changed.
  bool UpdateWaiting() {
    if (signalled) return false;
    Waiting w;
    const std::size_t to = r.segment.empty() ? 0 : r.segment.size() - 1;
    double mean = 0, m2 = 0;
    int m = 0;
    for (std::size_t k = std::max(pending, step_runs); k < to; ++k) {
      if (std::fabs(r.segment[k].deviation) <= screen && !history[r.segment[k].index].interfered)
        WelfordStep(std::log(history[r.segment[k].index].value), m, mean, m2);
    }
    if (m >= 2) w = {static_cast<double>(m - 1), m2};
    const Waiting was = acc.waiting();
    if (w.df == was.df && w.ss == was.ss) return false;
    acc.SetWaiting(w);
    return true;
  }

  // A step's runs that join the baseline leave the step's scatter (they are
  // then in the admitted runs' own).
  bool DropStep() {
    if (acc.step().df <= 0 && step_runs == 0) return false;
    acc.SetStep({});
    step_runs = 0;
    return true;
  }

  // The open segment's waiting runs join the baseline and the CUSUM restarts;
  // true when the baseline changed.
  bool FoldSegment() {
    bool grew = DropStep();
    grew = acc.waiting().df > 0 || grew;
    acc.SetWaiting({});
    for (std::size_t k = pending; k < r.segment.size(); ++k)
      grew = Admit(r.segment[k].index, r.segment[k].deviation) || grew;
    r.segment.clear();
    r.cusum = 0;
    pending = 0;
    signalled = false;
    clear_since = 0;
    return grew;
  }

  // Judges good run i against the baseline as it stands, and lets it into
  // the baseline or its open segment.
  void Judge(std::size_t i) {
    const Sample& s = history[i];
    JudgedRun run;
    run.index = i;
    run.deviation = WorseLogDeviation(s.value, b, direction);
    run.score = Score(run.deviation, b, cfg, direction);
    run.outside = run.deviation > WorseWidth(SingleWidths(b, cfg), direction);
    r.last = run;
    r.last_judged = true;
    judged_with = acc.total();
    judged_waiting = acc.waiting();
    judged_step = acc.step();
    const double next = std::max(0.0, r.cusum + run.score - cfg.cusum_k);
    bool grew = false;
    if (next > 0) {
      r.cusum = next;
      r.segment.push_back(run);
      if (!signalled && SpreadOutgrowsBaseline(history, r.segment, pending, b, kSpreadAlpha)) {
        // The open runs scatter far more than the baseline allows: the
        // baseline's spread is what was wrong (a tight start), not the
        // drive. They join it, and the scores summed against the old
        // spread no longer mean anything.
        if (FoldSegment()) Refresh();
        return;
      }
      const bool rule = RulesOf(r.segment, r.cusum, b, cfg, direction).Any();
      clear_since = rule || run.outside ? 0 : clear_since + 1;
      if (signalled && clear_since >= kReleaseRuns &&
          SpreadOutgrowsBaseline(history, r.segment, pending, b, kReleaseAlpha)) {
        // Its alert has resolved (runs in a row back inside the band) and
        // the segment scatters more than the baseline allows: a baseline
        // that started too tight. Every score of the segment is then
        // inflated by the same error, so the CUSUM signals again and again
        // against it (one healthy series at 10% noise re-opened its alert
        // 17 times in four years on a 5-run baseline of CV 4.7%). The
        // segment joins the baseline and the CUSUM restarts. A real change
        // keeps its runs out: it is seldom back inside the band three runs
        // in a row, and a level shift leaves the robust spread alone.
        if (FoldSegment()) Refresh();
        return;
      }
      // Resolved without that evidence of a tight start, but with more runs
      // waiting than the baseline has: the baseline is the weaker of the two
      // estimates of the series' level, and the segment's runs join it
      // through the admission lag like any open segment's. Kept out for
      // good, a 5-run baseline that began 11% off-centre on a 10%-noise seek
      // series stayed 5 runs for 45 and re-opened its alert three times. A
      // drop on an established baseline that comes back part of the way
      // keeps its runs out.
      if (signalled && clear_since >= kReleaseRuns &&
          r.segment.size() - pending > static_cast<std::size_t>(b.runs))
        signalled = false;
      signalled = signalled || rule;
      // Frozen while a segment is open, the baseline cannot correct a start
      // that happened to be tight or off-centre, and every later run then
      // looks worse against it; self-starting charts (Hawkins 1987) take
      // every run in. The lag keeps a fresh change out of its own reference
      // for the runs it needs to signal; once it has, nothing of it enters.
      while (!signalled && r.segment.size() - pending > kAdmitLag) {
        grew = DropStep() || grew;
        grew = Admit(r.segment[pending].index, r.segment[pending].deviation) || grew;
        ++pending;
      }
    } else {
      // The segment closed: its runs (and this one) were ordinary after all.
      grew = FoldSegment();
      grew = Admit(i, run.deviation) || grew;
    }
    grew = UpdateWaiting() || grew;
    if (grew) Refresh();
  }

  // Good run i while the baseline is still forming: it joins the first runs;
  // once there are enough of them, a step among them or a gross one is set
  // apart, and the baseline forms.
  void Form(std::size_t i) {
    const Sample& s = history[i];
    if (s.interfered) return;
    first.push_back(i);
    seen.push_back(i);
    r.last_judged = false;
    if (first.size() < wanted) return;
    const double pair_floor = direction == Direction::kHigherIsBetter
                                  ? LowFloor(cfg.confirm_min_percent)
                                  : HighFloor(cfg.confirm_min_percent);
    if (const auto step =
            StepInFirstRuns(history, seen, pair_floor, direction, tail_df, prior)) {
      // A level shift among the first runs is a change to report, not
      // noise to learn (see header): the baseline forms on the runs before
      // it, and those after it are judged against it, in order, like any
      // later run.
      for (std::size_t k = 0; k < step->at; ++k) acc.Add(seen[k]);
      acc.SetStep(step->after);
      formed = cfg.baseline_runs > 0;
      Refresh();
      for (std::size_t k = step->at; k < seen.size(); ++k) {
        Judge(seen[k]);
        if (acc.step().df > 0 && !r.segment.empty() && r.segment.back().index == seen[k] &&
            r.segment.size() == step_runs + 1)
          ++step_runs;
      }
      return;
    }
    if (dropped < kMaxFirstDrops) {
      // Gross means further off than the pair floor: interference makes a
      // run 10-60% worse, while at 3% noise one of five ordinary runs is
      // 6% off four that agreed often enough: dropping such a run leaves a
      // baseline far tighter than the series (CV 1% where its noise is 3%),
      // and two ordinary runs later make a pair against it.
      const std::size_t worst =
          WorstFirstRun(history, first, LowFloor(cfg.confirm_min_percent), prior);
      if (worst != std::string::npos) {
        first.erase(first.begin() + static_cast<std::ptrdiff_t>(worst));
        ++dropped;
        return;
      }
    }
    for (std::size_t j : first) acc.Add(j);
    formed = cfg.baseline_runs > 0;
    Refresh();
  }
};

}  // namespace

Replay ReplaySeries(const std::vector<Sample>& history, std::size_t end,
                    const DetectionConfig& cfg, std::int64_t since, Direction direction,
                    double tail_df, const SpreadPrior& prior) {
  Replayer p(history, cfg, direction, tail_df, prior);
  Replay& r = p.r;
  for (std::size_t i = 0; i < history.size() && i < end; ++i) {
    const Sample& s = history[i];
    if (s.at < since || !s.Good()) continue;
    ++r.good_runs;
    if (!p.formed) p.Form(i);
    else p.Judge(i);
  }
  Accumulator& acc = p.acc;
  if (!p.formed) {
    // Still forming: report what there is, not ready.
    for (std::size_t j : p.first) acc.Add(j);
    r.baseline = acc.Full(cfg, false, tail_df, acc.total(), {}, {});
    return r;
  }
  r.baseline = acc.Full(cfg, true, tail_df, acc.total(), acc.waiting(), acc.step());
  r.segment_pending = p.pending;
  if (r.last_judged)
    r.last_baseline = acc.Full(cfg, true, tail_df, p.judged_with, p.judged_waiting, p.judged_step);
  return r;
}

Baseline ComputeBaseline(const std::vector<Sample>& history, std::size_t end,
                         const DetectionConfig& cfg, std::int64_t since, Direction direction,
                         double tail_df, const SpreadPrior& prior) {
  return ReplaySeries(history, end, cfg, since, direction, tail_df, prior).baseline;
}

SpreadPrior PoolSpread(const std::vector<Baseline>& others) {
  struct Member {
    double df, var;
  };
  std::vector<Member> m;
  for (const Baseline& o : others) {
    if (!o.ready || o.runs < 2 || !(o.own_log_sigma >= 0)) continue;
    const double sd = o.own_log_sigma * C4(o.runs);  // the plain sample sd
    m.push_back({static_cast<double>(o.runs - 1), sd * sd});
  }
  // The pool keeps the members whose variances can be one variance: while
  // Bartlett's test of homogeneity (Bartlett 1937; Snedecor & Cochran,
  // "Statistical Methods", sec. 13.2) rejects them at kWideAlpha, the member
  // at the end whose leaving makes the rest the more alike is left out: the
  // largest variance, or the smallest when they are far from alike (else
  // the pool stops there).
  //   - The largest: one member's young baseline that kept an interfered run
  //     (the first runs' outlier test has 3 degrees of freedom) had a CV of
  //     14% among members of 3%, and pooled it widened its family's screens
  //     until they admitted the next interfered run too.
  //   - The smallest, when the members are far from alike (kTightAlpha): a
  //     member whose first runs agreed by chance is a tight start itself,
  //     which the pool exists to widen, not to follow. Tested
  //     only as the largest against the rest, one seek stroke whose runs
  //     agreed to 1.1% at 15% noise made each noisier sibling in turn look
  //     too large (16% against 11% and 1.1%), and the family's pool became
  //     that one tight member.
  // The test reads the whole set at once, so the largest of five alike young
  // spreads is not left out by chance (which a largest-against-the-rest F
  // test at 5% did one time in six).
  // At 1%, not 5%: leaving out the largest biases the pool narrow, and a
  // narrow pool is a false alert, where a wide one costs a week of delay.
  // Young spreads of one noise scatter far (on 6 degrees of freedom the
  // middle 90% of s spans 0.48-1.45 sigma), and a heavy draw in one member's
  // first runs makes it the largest: a drive's read path at 5% noise
  // measured 4.1%, 2.2% and 8.0% on 7 runs each (Bartlett p 0.02); without
  // the 8% member the pool was 3.0%, and a seq series that had started as
  // tight (2.9% on 5 runs) took two ordinary low runs for a slowdown. An
  // interfered member (14% among 3%) is far beyond 1% and still left out.
  auto sorted = [](const Member& a, const Member& b) { return a.var > b.var; };
  std::sort(m.begin(), m.end(), sorted);
  std::size_t from = 0, to = m.size();  // the members kept: m[from, to)
  auto bartlett_p = [&](std::size_t lo, std::size_t hi) {
    if (hi - lo < 2) return 1.0;
    double df = 0, ss = 0, sum_log = 0, inv = 0;
    for (std::size_t k = lo; k < hi; ++k) {
      if (!(m[k].var > 0)) return 0.0;  // a flat member is never one of the rest
      df += m[k].df;
      ss += m[k].df * m[k].var;
      sum_log += m[k].df * std::log(m[k].var);
      inv += 1 / m[k].df;
    }
    const double groups = static_cast<double>(hi - lo);
    const double c = 1 + (inv - 1 / df) / (3 * (groups - 1));
    const double stat = std::max(0.0, (df * std::log(ss / df) - sum_log) / c);
    // chi-square with groups - 1 degrees of freedom, as F(groups - 1, inf).
    return FUpperTail(stat / (groups - 1), groups - 1, 1e8);
  };
  while (to - from >= 2) {
    const double p = bartlett_p(from, to);
    if (p >= kWideAlpha) break;
    // m is sorted largest first: m[from] the largest, m[to - 1] the smallest.
    if (bartlett_p(from, to - 1) > bartlett_p(from + 1, to)) {
      // The smallest is the odd one: left out only when far from the rest,
      // else kept, and so are the others (leaving out the largest instead
      // would let it drag the pool down one alike member at a time).
      if (p >= kTightAlpha) break;
      --to;
    } else {
      ++from;
    }
  }
  SpreadPrior p;
  double ss = 0;
  for (std::size_t k = from; k < to; ++k) {
    p.df += m[k].df;
    ss += m[k].df * m[k].var;
    ++p.members;
  }
  if (p.df > 0) p.log_sd = std::sqrt(ss / p.df);
  return p;
}

bool OutsideWorse(double value, const Band& band, Direction direction) {
  return direction == Direction::kHigherIsBetter ? value < band.low : value > band.high;
}

double WorseLog(double value, double reference, Direction direction) {
  if (!(value > 0) || !(reference > 0)) return std::nan("");
  const double d = std::log(value / reference);
  return direction == Direction::kHigherIsBetter ? -d : d;
}

double WorsePercent(double value, double reference, Direction direction) {
  if (reference == 0) return 0;
  double d = (value - reference) / std::fabs(reference) * 100.0;
  return direction == Direction::kHigherIsBetter ? -d : d;
}

}  // namespace dp::detect
