// Baseline, Band and the replay of one series: a series' own reference, the
// bands around it, and the sequential evidence against it.
//
// Scale. Every metric is judged on the log of its value: run-to-run noise of
// a drive is multiplicative (a run 3% slower is 3% slower at 50 or 250 MB/s),
// latency percentiles are skewed and become near-symmetric on a log scale,
// and a "15% drop" or a "1.5x rise" is one fixed distance at any level.
// sigma is therefore the series' coefficient of variation (CV). Values that
// are not positive finite numbers are never evidence.
//
// Baseline. The first cfg.baseline_runs good runs (since an optional
// re-baseline time) form it. Among them the worst run by a leave-one-out
// Student-t prediction (each against the mean and sd of the others,
// Bonferroni over the runs, 1% in all) is dropped as a gross outlier (a busy
// run the guard did not see) and replaced by the next good run, at most
// twice, so the baseline still has its runs (a MAD over five runs dropped
// ordinary runs of a noisy series and left a baseline a third as wide as the
// series). Later good runs join it; it holds the newest
// cfg.baseline_max_runs (100) of them ("Window" below). A run enters
// only within a wide screen: the 1 - 1e-4 quantile of the Student-t
// prediction for it, never narrower than the single-run floor. Centre: the
// mean of the admitted log values; spread: their sd / c4(n) (unbiased under
// normal noise).
//
// The runs of an open CUSUM segment (below) wait outside, so a fresh drop is
// not absorbed into its own reference. Frozen for good, though, a baseline
// that started tight or off-centre would judge every later run against the
// wrong reference and raise the same false alert again and again; the
// self-starting charts of Hawkins (1987) avoid that by taking every run in.
// diskpulse takes the middle way:
//   - a segment that closes (CUSUM back to 0) joins the baseline;
//   - a run that has waited kAdmitLag (8) runs in a segment that has not met
//     a slowdown rule joins it anyway: the lag covers the runs a change needs
//     to be alerted at the noise where the pair rule cannot see it;
//   - a segment whose own (MAD-based) spread exceeds the baseline's by the
//     F test at 1% joins it at once, and the CUSUM restarts (a shift of the
//     level leaves the robust spread alone; a baseline that was too tight
//     does not);
//   - a segment that has signalled stays out, so an alert stays open while
//     the change lasts; unless its runs were back inside the band three in
//     a row (its alert resolved) and its spread beats the baseline's by the
//     F test at 10%: then the baseline was too tight, every score of the
//     segment is inflated by the same error, and the CUSUM would signal
//     against it again and again; it joins the baseline and restarts.
//
// Window. The baseline is the newest cfg.baseline_max_runs admitted runs,
// not the first: a baseline frozen after its first 100 runs judged a drive
// against the level it had two years earlier, and every legitimate slow
// change (ageing noise, a new controller absorbed by re-baselining, the
// season) was held against it for good. Sliding keeps it two years deep at
// weekly runs, so the yearly swing averages out of its centre, while slow
// real decay is not absorbed: it enters only through the admission screen
// and the lag above, a run at a time, so the centre trails a decay of
// -2.5%/month by about half the window (roughly a year, ~25%); the trend
// rule (trend_detector.h: Mann-Kendall over the last trend_window_days,
// slopes from trend_min_percent_per_month) reports such a decay within
// months, and the change rule sees it once it outruns the screen.
//
// A step among the first runs. A drive that starts to decline in its first
// weeks must be told, so a level shift inside the first runs is a change,
// not noise to learn: on a loop device held at 200 MB/s the 5th run caught a
// throttle change halfway (145 MB/s), the outlier test dropped it and the
// next run (120), then, its two drops spent, took the third (120) in; the
// baseline of four runs at 200 and one at 120 had a spread of 24%, a band of
// 70-460 MB/s, and five more runs at 120 joined it unseen. Once the first
// runs are in (the dropped ones counted, in order), they are tested for a
// step (StepInFirstRuns, baseline.cc): two runs or more, each worse than the
// mean of the two or more before them by the pair floor (confirm_min_percent:
// the smallest change worth an alert), the two levels apart by a one-sided
// two-sample Student-t test at 0.1% (Bonferroni over the splits; their
// within-level spread pooled with the family's, SpreadPrior below). Then the
// baseline forms on the runs before the step, its spread pooled with the
// scatter of the runs after it about their own level (without the first of
// them, which may have caught the change halfway), and the runs after it are
// judged against it in order, like any later run: the ordinary path (doubt,
// re-test, slowdown) tells the drop. A step landing on the last first run is
// one run off the rest, a gross outlier until the next run shows it is a
// level. A step at the second run cannot be told from a wild first run, and
// a 40% step at 5% noise without a family (t ~11 on 3 degrees of freedom)
// is not told either: at 1% a 5%-noise series whose first two runs happened
// 7% high made a step of ordinary runs.
// The gross-outlier test pools the others' variance with the family's
// (SpreadPrior, below) when they are alike, as the baseline's spread does:
// on its own 3 degrees of freedom it needed 10.2 sigmas, and one run 25% low
// among runs of 5% noise stayed in and tripled the band.
//
// Interfered runs. A sample flagged interfered (its run recognised
// afterwards as unseen interference; drive_shift.h, WasInterference, and
// among a young baseline's first runs WasYoungInterference) is
// judged and scored like any run, but never admitted: not among the first
// runs (the next good run takes its place), not through the screen, the lag
// or a closing segment, and its scatter never widens the waiting spread.
//
// Waiting runs. While they wait, the open segment's runs already say how
// much the series scatters: their sum of squares about their own mean (a
// level shift, the thing they wait to test, leaves it alone) is added to the
// baseline's, with their degrees of freedom, when that widens the spread; it
// never narrows it and never moves the centre. Only runs inside the
// admission screen count (an interfered run 30% down, or a drop at 1-3%
// noise, would take the band wide and hide the change that follows), and not
// the newest (a re-test is never judged against a spread that holds the run
// it re-tests); once the segment has signalled its scatter stays as it was.
// A tight, off-centre start then scores its later runs against a spread
// nearer the truth before the lag lets them in (a healthy seek series at 10%
// noise began with six runs at CV 6.5%, its siblings' included, and its next
// twelve, 18% above them, summed to a false CUSUM alert).
//
// Bands are Student-t prediction bands (Hahn & Meeker 1991, "Statistical
// Intervals", sec. 4.4): a future run, or the mean of m future runs, differs
// from the mean of n baseline runs by t_{n-1} * sigma * sqrt(1/m + 1/n).
// The quantile is the one a normal band of `band_sigmas` (`confirm_sigmas`)
// would have with sigma known, so the configured sigmas mean the same
// false-alarm probability at any baseline size. For a metric with heavy tails
// (TailDfOf: latency percentiles, access times) it is the quantile of a
// unit-variance Student-t of those degrees of freedom divided by the
// baseline's estimated spread (HeavyTQuantile, student_t.h), so neither its
// heavy tails nor its young spread spend more of the budget; the CUSUM's
// scores come from the same distribution (HeavyTToNormalScore).
//   single-run band  max(t_{n-1}(Phi(band_sigmas)) sigma sqrt(1 + 1/n), min_band_percent)
//   pair band        max(t_{n-1}(Phi(confirm_sigmas)) sigma sqrt(v2 + 1/n), confirm_min_percent)
// where v2 = (1 + rho) / 2 is the variance of the mean of two runs in units of
// one run's: a run and its re-test hours later share part of their
// environment (the week's temperature and load), so their mean does not halve
// the variance that part adds; rho = 0.25 is the allowance (kPairMeanVariance).
// A week's shared factor of 1% at 3% noise alone gives rho ~0.1, enough to
// take the pair rule's false alarms from the 4.5-sigma normal 3.4e-6 to
// ~8e-6 per series-run; 0.25 leaves room for larger shared factors at the
// cost of a slightly wider pair band.
// The percentage floors are the smallest change worth an alert: below them a
// change is not reported however quiet the series.
//
// Pair rule for heavy tails (TailDfOf: latency percentiles, access times).
// The mean of two such runs is about as heavy-tailed as one, so one wild run
// carries a pair's mean past any band: a p99 at 5% noise, mature baseline,
// measured +18% (just outside the single band) and on its re-test +175%,
// and their mean passed a 9-sigma pair band. For these metrics the pair rule
// asks instead that *both* runs be beyond the pair band of PairRuleWidths:
// the q at which two runs judged against the same estimated spread are both
// beyond it with the pair's probability Phi(-confirm_sigmas), averaged over
// that spread (HeavyTBothQuantile, student_t.h). A run and its re-test share
// part of their environment, so "both" is taken as P(X > q)^(2 / (1 + rho)),
// rho = 0.25 as above: the rate a normal pair's joint tail decays at (its
// coefficient of tail dependence is (1 + rho) / 2; Ledford & Tawn 1996).
// For a mature p99 baseline (t, 4 df) that is 6.4 sigmas for each run, where
// the mean needed about 9: one wild run no longer makes a pair, and a
// sustained rise that moves both runs is seen sooner.
//
// Spread shared by a family (SpreadPrior). A young baseline's spread is its
// weakest part: at 10 runs the Student-t quantile at the pair's probability
// is 9.3 sigmas against 4.5 with sigma known (5.3 at 36 degrees of freedom),
// and a tight start is what raises the same false alert again and again. But a drive's series are not
// independent sources of noise: the three zones and seq read the same path
// of the same platters with the same heads, the five seek strokes move the
// same actuator. Their variances are one variance estimated several times,
// so a series' spread is estimated from the family's pooled variance (the
// within-group mean square of a one-way layout): each member's sample
// variance weighted by its degrees of freedom, the family's other members
// acting as a scaled-inverse-chi-square prior with their degrees of freedom
// as pseudo-runs (Gelman et al., "Bayesian Data Analysis", 3rd ed., sec. 3.2;
// the predictive of a future run is then Student-t with the pooled degrees
// of freedom). Pooling is refused when the series' own variance is larger
// than the family's by the F test at kPoolAlpha: a member that is noisier
// than its family keeps its own spread rather than being judged by a
// narrower one. A member quieter than its family by chance (a tight start)
// is widened, which is the point. The pool itself keeps the members whose
// variances can be one (Bartlett's test at 1%, PoolSpread), leaving out an
// end member at a time: neither an interfered member nor a tight start sets
// it, and a member that is merely the noisiest of alike young spreads stays.
//
// Sequential evidence (ReplaySeries). Each judged run's deviation on the worse
// side, e (log units), becomes a normal score z: the smaller of the
// self-starting Student-t score (Hawkins 1987; student_t.h) and the floor's
// score band_sigmas * e / floor, winsorized at +-cfg.cusum_cap so one wild run
// (heavy-tailed noise, unseen interference) adds a bounded amount (Hawkins
// 1993, "Robustification of cumulative sum charts by winsorization"). A
// one-sided CUSUM (Page 1954) S = max(0, S + z - cusum_k) collects them; the
// runs since S last was 0 are the open segment. cusum_cap - cusum_k <
// cusum_h, so no single run can reach the decision interval. Pure functions.
#pragma once

#include <algorithm>
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
  double median = 0;   // of the runs' values (value units)
  double mad = 0;      // unscaled MAD of the values (value units)
  double center = 0;   // exp(log_center): the geometric mean (value units)
  double log_center = 0;
  double log_sigma = 0;  // sd / c4(n) of the log values: the series' CV
  double tail_df = 0;    // the metric's tails (TailDfOf; 0 = normal)
  // log_sigma from its own runs alone, and the degrees of freedom the
  // family's pooled spread added to it (0: not pooled; see SpreadPrior).
  double own_log_sigma = 0;
  double prior_df = 0;
  // The degrees of freedom the scatter of runs still waiting in an open
  // segment added to the own runs' (0: none; see "Waiting runs" above).
  double waiting_df = 0;
  // A joint series' degrees of freedom when its members' floor informs its
  // spread (SpreadPrior::floor_log_sd; 0: it does not): the floor's when the
  // spread is the floor, the own runs' plus the floor's when the spread is
  // its own but alike the floor (baseline.cc, Spread).
  double floor_df = 0;
  // The degrees of freedom the runs after a step among the first runs added
  // with their scatter about their own level (0: none; see "A step among
  // the first runs").
  double step_df = 0;
  std::vector<std::int64_t> run_ids;
  std::int64_t from_at = 0, to_at = 0;

  // The waiting runs whose scatter widened log_sigma (0: none).
  int waiting_runs() const { return waiting_df > 0 ? static_cast<int>(waiting_df) + 1 : 0; }

  // Degrees of freedom of log_sigma: the own runs', a first-runs step's,
  // the waiting runs' and the family's; for a joint series its floor's
  // (floor_df) when set.
  double df() const {
    if (floor_df > 0) return floor_df;
    const double d = (runs > 1 ? runs - 1 : 0) + step_df + waiting_df + prior_df;
    return d > 0 ? d : 1;
  }
};

// The spread of a series' family (see above) apart from the series itself:
// the pooled plain sd of the other members' log values and its degrees of
// freedom. Empty (df 0) when there is no other member with a formed baseline.
struct SpreadPrior {
  double log_sd = 0;
  double df = 0;
  int members = 0;  // the other series pooled
  // A spread the series cannot be below, whatever its runs measured (0:
  // none): what its members' noise implies for a joint series
  // (JointSpreadFloor, series.h). It widens a tight start and never narrows.
  double floor_log_sd = 0;
  double floor_df = 0;  // the degrees of freedom behind it
};

// The pooled spread of `others` (baselines formed without a prior; not
// ready ones and those of fewer than two runs are left out).
SpreadPrior PoolSpread(const std::vector<Baseline>& others);

// Variance of the mean of a run and its re-test, in one run's variance (see
// above: (1 + rho) / 2 with rho = 0.25).
inline constexpr double kPairMeanVariance = 0.625;

struct Band {
  double low = 0, high = 0;
};

// Half-widths (log units) on the low and high side of the single-run and pair
// bands; the floors differ per side (-log(1 - p) below, log(1 + p) above).
struct BandWidths {
  double low = 0, high = 0;
};
BandWidths SingleWidths(const Baseline& b, const DetectionConfig& cfg);
// The band a pair's mean must pass: the change rule's for light-tailed
// metrics, and the peer rule's (which compares means) for every metric.
BandWidths PairWidths(const Baseline& b, const DetectionConfig& cfg);

// True when the pair rule asks both runs, not their mean, past its band.
inline bool PairRuleOnBoth(const Baseline& b) { return b.tail_df > 2; }
// The band the change rule's pair is judged by: each run must pass it for a
// heavy-tailed metric (PairRuleOnBoth; see "Pair rule for heavy tails"),
// their mean otherwise (PairWidths). Never narrower than the pair floor.
BandWidths PairRuleWidths(const Baseline& b, const DetectionConfig& cfg);
// The worse deviation of two consecutive runs x and y that the pair rule
// compares with PairRuleWidths: the smaller of the two when `on_both`
// (PairRuleOnBoth), their mean otherwise. The change rule and the peer rule
// both judge a pair by it, so the two cannot drift apart.
inline double PairRuleDeviation(bool on_both, double x, double y) {
  return on_both ? std::min(x, y) : (x + y) / 2;
}

// The bands in value units; PairBandOf is PairRuleWidths'.
Band BandOf(const Baseline& b, const DetectionConfig& cfg);
Band PairBandOf(const Baseline& b, const DetectionConfig& cfg);

// One run judged against the baseline as it stood before its segment.
struct JudgedRun {
  std::size_t index = 0;  // into the history given to ReplaySeries
  double deviation = 0;   // log units, + = worse
  double score = 0;       // winsorized normal score, + = worse
  bool outside = false;   // beyond the single-run band on the worse side
};

struct Replay {
  // The baseline the next run is judged against: frozen while a segment is
  // open (its runs are not in it).
  Baseline baseline;
  std::vector<JudgedRun> segment;  // the open segment, oldest first (S > 0)
  double cusum = 0;                // S after the last good run
  // The last good run's judgement; absent when it formed the baseline.
  bool last_judged = false;
  JudgedRun last;
  Baseline last_baseline;  // the baseline the last good run was judged against
  std::size_t good_runs = 0;  // good runs since `since` (judged or not)
  // segment[segment_pending..] are not in the baseline (older ones waited
  // out the admission lag and joined it).
  std::size_t segment_pending = 0;
};

// The slowdown rules (change_detector.h) over an open segment whose last run
// is the one just judged, against the baseline b it was judged with.
struct SegmentRules {
  bool pair = false;     // the last two runs outside, their mean (heavy tails: each) beyond the pair band
  bool cusum = false;    // CUSUM >= h; segment and recent median, last two's mean beyond the floor
  double pair_deviation = 0;     // mean worse-side deviation of the last two (log units)
  double segment_deviation = 0;  // mean over the segment (log units)
  bool Any() const { return pair || cusum; }
};
SegmentRules RulesOf(const std::vector<JudgedRun>& seg, double cusum, const Baseline& b,
                     const DetectionConfig& cfg, Direction direction);

// history must be in chronological order. Only good samples with at >= since
// and index < end count.
// tail_df: the metric's tails (TailDfOf), kept in every baseline it forms.
// prior: the family's spread, pooled into every baseline it forms.
Replay ReplaySeries(const std::vector<Sample>& history, std::size_t end,
                    const DetectionConfig& cfg, std::int64_t since, Direction direction,
                    double tail_df = 0, const SpreadPrior& prior = {});

// The baseline for judging history[end] (ReplaySeries(...).baseline).
Baseline ComputeBaseline(const std::vector<Sample>& history, std::size_t end,
                         const DetectionConfig& cfg, std::int64_t since,
                         Direction direction = Direction::kHigherIsBetter, double tail_df = 0,
                         const SpreadPrior& prior = {});

// True when value lies outside the band on the worse side for direction.
bool OutsideWorse(double value, const Band& band, Direction direction);

// How much worse value is than reference, in percent (+ = worse).
double WorsePercent(double value, double reference, Direction direction);

// How much worse value is than reference on the log scale (+ = worse, so a
// 20% drop of a throughput and a 25% rise of a time are the same shift);
// NaN when either is not positive.
double WorseLog(double value, double reference, Direction direction);

// Worse-side deviation of value from the baseline, in log units (+ = worse).
double WorseLogDeviation(double value, const Baseline& b, Direction direction);

// Runs a sustained change of `percent` (a drop for higher-is-better
// metrics, a rise otherwise) needs before it is alerted at this baseline's
// noise, for about 19 such changes in 20, counting a confirmation re-test as
// a run: 2 when the pair rule sees it, more when only the CUSUM can; 0 when
// it stays under the floors or needs more than a year of weekly runs. The
// runs scatter by the 95% upper bound of the spread (a young baseline's
// estimate can be half its series' noise); what the CUSUM's alert needs
// besides its sum (the floors on its last runs, the runs that join the
// baseline while it waits, the confirmation re-test) is counted too.
int RunsToDetect(const Baseline& b, const DetectionConfig& cfg, double percent,
                 Direction direction);

}  // namespace dp::detect
