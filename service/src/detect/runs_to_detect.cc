// RunsToDetect (baseline.h): how many runs a series needs to alert a change
// of a given size, asked of the rules' own arithmetic.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "detect/baseline.h"
#include "detect/baseline_internal.h"
#include "detect/student_t.h"

namespace dp::detect {

namespace {

// The run, from `first` on, by which the last pair's mean and the last
// three runs' median have both been beyond `floor` for 95% of changes whose
// run i measures measured(i) from the baseline's centre: each run scatters
// by sd, and all of them by the centre's own error (variance sd^2 / n),
// which they share. 1000 seeded draws (a fixed seed, so a series' figure
// does not flicker between calls); 0 when it is not by `last`.
template <typename Measured>
int FloorsMetBy(int first, int last, const Measured& measured, double sd, double n,
                double floor) {
  constexpr int kDraws = 1000;
  std::mt19937_64 rng(0x5eed2026);
  std::normal_distribution<double> unit(0, 1);
  // More than this many draws never met: no figure (and no need to go on).
  constexpr int kNeverAllowed = kDraws / 20;
  std::vector<int> met;
  met.reserve(kDraws);
  int never = 0;
  for (int d = 0; d < kDraws && never <= kNeverAllowed; ++d) {
    const double centre = sd * unit(rng) / std::sqrt(n);
    double prev2 = 0, prev1 = 0;
    int at = 0;
    for (int i = std::max(1, first - 2); i <= last; ++i) {
      const double x = measured(i) + centre + sd * unit(rng);
      if (i >= first) {
        const double pair = (prev1 + x) / 2;
        const double median = i >= 3 ? std::max(std::min(prev2, prev1),
                                                std::min(std::max(prev2, prev1), x))
                                     : pair;  // two runs: RulesOf's median is their mean
        if (pair > floor && median > floor) {
          at = i;
          break;
        }
      }
      prev2 = prev1;
      prev1 = x;
    }
    if (at == 0) ++never;
    met.push_back(at > 0 ? at : last + 1);
  }
  if (never > kNeverAllowed) return 0;
  const std::size_t k = static_cast<std::size_t>(kDraws - kNeverAllowed) - 1;
  std::nth_element(met.begin(), met.begin() + static_cast<std::ptrdiff_t>(k), met.end());
  return met[k] <= last ? met[k] : 0;
}

}  // namespace

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
  const double pair = WorseWidth(PairRuleWidths(b, cfg), direction);
  // A promise kept for about 19 changes in 20, not for the typical one. The
  // bands are the detector's, from its estimated spread; the runs that must
  // pass them scatter by the series' true spread, which a young baseline
  // can underestimate by half (the chance-tight starts). So the chances
  // below take the one-sided 95% upper bound of the spread, sd
  // sqrt(df / chi2_0.05(df)) (Wilson & Hilferty 1931 for the quantile):
  // 1.16 sd at 60 degrees of freedom, 1.5 at 10, 2.1 at 4. Each run's
  // deviation carries the baseline centre's own error too (variance
  // sd^2 / n).
  constexpr double kPromiseZ = 1.645;
  const double est = b.log_sigma;
  const double df = b.df();
  const double wh = 1 - 2 / (9 * df) - kPromiseZ * std::sqrt(2 / (9 * df));
  if (!(est > 0) || wh <= 0) return 0;
  const double sd = est / std::sqrt(wh * wh * wh);
  const double n = std::max(1, b.runs);
  auto beyond = [&](double over, double var) { return NormalCdf(over / (sd * std::sqrt(var))); };
  // The pair rule: the run that asks for a re-test outside the single band,
  // its re-test too, and their mean outside the pair band. The three rise
  // together, so the product of their chances is a lower bound for all
  // three (Harris's inequality). With a 95% margin on each (a product of
  // 86%), "within ~2 runs" was kept for 85-88% of drops at 5% noise.
  const double outside = beyond(delta - single, 1 + 1 / n);
  if (PairRuleOnBoth(b)) {
    // Heavy tails: each of the two runs beyond the pair band as well.
    const double each = beyond(delta - std::max(single, pair), 1 + 1 / n);
    if (each * each >= 0.95) return 2;
  } else if (outside * outside * beyond(delta - pair, kPairMeanVariance + 1 / n) >= 0.95) {
    return 2;
  }
  if (Score(delta, b, cfg, direction) <= cfg.cusum_k) return 0;
  // While the CUSUM has not signalled, a run that has waited kAdmitLag runs
  // joins the baseline (ReplaySeries), and each such run of the change moves
  // the centre towards it: after j of them the change measures
  // delta n / (n + j). Run i of the change is judged after i - 1 - kAdmitLag
  // have joined. Left out, a 15% drop at 10% noise on an 11-run baseline
  // that promised ~21 runs was never alerted: it had become the baseline.
  auto measured = [&](int i) {
    const int joined = std::max(0, i - 1 - static_cast<int>(kAdmitLag));
    return delta * n / (n + joined);
  };
  // Once the CUSUM is over h, the alert also needs the last pair's mean and
  // the last three runs' median beyond the pair floor (RulesOf), and at 10%
  // noise a 15% drop clears a 10% floor in a pair only about 3 times in 4:
  // left out of the promise, "seen within ~N runs" was kept for 72% of drops
  // at 10% noise and 52% at 15%. Consecutive tries
  // share runs, so their chances are not independent; the run by which 95%
  // of changes have met both is taken from seeded draws of the runs
  // (FloorsMetBy). Replaying the whole rule on such draws (the CUSUM with
  // its resets and joins as well) was tried: it cost five times as much and
  // kept fewer promises (83% at 10% noise against 89%) on runs with
  // heavier tails and shared factors than the independent normal draws it
  // replays.
  //
  // The CUSUM gains a run's score less k. Its scores are in units of the
  // estimate and winsorized at cusum_cap, so their mean and spread are taken
  // over the run's scatter (by sd, and the centre's error: 17 points of the
  // normal from -4 to 4 sd): a change far beyond the cap scores the cap
  // every run, one near it scores less on average than its mean deviation
  // would. After m runs the CUSUM has crossed its decision interval h for
  // 95% of such changes once its sum less 1.645 times the sum's spread
  // reaches h. The segment's median must then pass the shift test and the
  // floor too, with the same margin on the median of m runs (standard error
  // sd sqrt(pi / 2m)); from that run on the floors are tried run after run.
  // Beyond a year of weekly runs the change is not told from the centre's
  // own uncertainty (the baseline grows meanwhile, and the figure is asked
  // again after every run).
  const double run_sd = sd * std::sqrt(1 + 1 / n);
  auto score_moments = [&](double e, double& mean, double& var) {
    double w_sum = 0, s1 = 0, s2 = 0;
    for (int j = -8; j <= 8; ++j) {
      const double x = j * 0.5;
      const double w = std::exp(-x * x / 2);
      const double sc = Score(e + run_sd * x, b, cfg, direction);
      w_sum += w;
      s1 += w * sc;
      s2 += w * sc * sc;
    }
    mean = s1 / w_sum;
    var = std::max(0.0, s2 / w_sum - mean * mean);
  };
  constexpr int kHorizon = 52;
  double sum = 0, var = 0, last_e = std::numeric_limits<double>::quiet_NaN(), mean = 0, v = 0;
  for (int m = 1; m <= kHorizon; ++m) {
    const double e = measured(m);
    // Runs that join move it a little each run: the moments are asked
    // again once it has moved a tenth of a spread.
    if (!(std::fabs(e - last_e) < 0.1 * sd)) {
      score_moments(e, mean, v);
      last_e = e;
    }
    sum += mean - cfg.cusum_k;
    var += v;
    if (m < 2 || sum - kPromiseZ * std::sqrt(var) < cfg.cusum_h) continue;
    const double median =
        measured((m + 1) / 2) - kPromiseZ * sd * std::sqrt(M_PI / (2.0 * m));
    if (!(median > ShiftLimit(b, cfg, m) && median > floor)) continue;
    // A slowdown opens on a confirmation re-test (HoldSlowdown): the rule met
    // on a scheduled run waits for the re-test after it. Doubted weeks come
    // in pairs, a scheduled run and its re-test, so the run that opens it is
    // the even one.
    const int met = FloorsMetBy(m, kHorizon, measured, sd, n, floor);
    return met > 0 ? met + met % 2 : 0;
  }
  return 0;
}

}  // namespace dp::detect
