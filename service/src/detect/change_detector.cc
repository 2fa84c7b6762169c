#include "detect/change_detector.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "detect/baseline.h"
#include "detect/robust_stats.h"
#include "detect/verdict_text.h"

namespace dp::detect {
namespace {

Verdict Start(const SeriesKey& key) {
  Verdict v;
  v.drive_id = key.drive_id;
  v.drive_name = key.drive_name;
  v.condition = JoinCondition({"slowdown", key.test, key.series, key.metric});
  v.test = key.test;
  v.series = key.series;
  v.metric = key.metric;
  v.unit = UnitOf(key.metric);
  return v;
}

std::string Why(const Sample& s) {
  if (s.failed) return "failed";
  if (s.partial) return "partial";
  if (s.contended) return "contended";
  return "not a positive number";
}

}  // namespace

double CriticalWorsePercent(std::string_view metric) {
  if (metric == "p99_us") return 300;
  if (DirectionOf(metric) == Direction::kLowerIsBetter) return 100;
  return 50;
}

namespace {

// The baseline the latest run was judged against: its evidence, its noise and
// what that noise lets the series tell apart.
void DescribeBaseline(ChangeDecision& d, const Replay& replay, const DetectionConfig& cfg,
                      const SpreadPrior& prior, Direction dir) {
  Verdict& v = d.verdict;
  const Baseline& base = replay.last_baseline;
  v.baseline_runs = base.runs;
  v.baseline_median = base.median;
  v.baseline_mad = base.mad;
  v.details["baseline_run_ids"] = base.run_ids;
  v.baseline_center = base.center;
  v.details["baseline_mean"] = base.center;
  v.details["baseline_sigma"] = base.log_sigma * base.center;
  d.noise_percent = 100 * base.log_sigma;
  v.details["noise_percent"] = d.noise_percent;
  // The noise is the family's pooled spread when the series is judged with
  // it (baseline.h): how many runs stand behind it, and its own figure.
  v.details["noise_df"] = base.df();
  // Runs of an open change that widened a tight start's spread while they
  // wait to join it (baseline.h, "Waiting runs").
  if (base.waiting_runs() > 0) v.details["noise_waiting_runs"] = base.waiting_runs();
  if (base.prior_df > 0) {
    v.details["noise_own_percent"] = 100 * base.own_log_sigma;
    v.details["noise_pooled_series"] = prior.members;
    d.pooled_series = prior.members;
  }
  v.details["cusum"] = replay.cusum;
  // The run's own worse-side score: what a drive-wide check reads of it.
  v.score = replay.last.score;
  v.details["score"] = replay.last.score;
  v.details["cusum_h"] = cfg.cusum_h;
  // What this series can tell apart: a 15% drop of a throughput, a 1.5x rise
  // of a time; the page shows it beside each chart.
  const double probe = dir == Direction::kHigherIsBetter ? 15 : 50;
  d.runs_to_detect = RunsToDetect(base, cfg, probe, dir);
  v.details["detectable"] = {{"change_percent", probe}, {"runs", d.runs_to_detect}};
  d.band = BandOf(base, cfg);
  v.band_low = d.band.low;
  v.band_high = d.band.high;
  d.baseline_center = base.center;
  d.baseline_runs = base.runs;
}

// Evidence: the open segment's runs (where it began: the baseline is the runs
// before it), or the latest when none is open; at most the newest eight.
void ListEvidence(Verdict& v, const Replay& replay, const std::vector<Sample>& history) {
  const auto& seg = replay.segment;
  if (!seg.empty()) {
    v.segment_from = history[seg.front().index].at;
    v.details["segment_from"] = *v.segment_from;
  }
  std::vector<JudgedRun> judged(seg.begin(), seg.end());
  if (judged.empty() || judged.back().index != replay.last.index) judged = {replay.last};
  if (judged.size() > 8) judged.erase(judged.begin(), judged.end() - 8);
  for (const JudgedRun& r : judged) {
    const Sample& s = history[r.index];
    v.runs.push_back({s.run_id, s.at, s.value, r.outside});
  }
}

// The kind of a judged run: kSlowdown when the pair or the CUSUM rule holds
// on the open segment ending in it, else kNeedsConfirmation when it is
// outside the band on the worse side, else kClear.
void ApplyRules(ChangeDecision& d, const SeriesKey& key, const Replay& replay,
                const std::vector<Sample>& history, const DetectionConfig& cfg, Direction dir) {
  Verdict& v = d.verdict;
  const Baseline& base = replay.last_baseline;
  const auto& seg = replay.segment;
  bool pair_rule = false, cusum_rule = false;
  if (seg.size() >= 2 && seg.back().index == replay.last.index) {
    const SegmentRules rules = RulesOf(seg, replay.cusum, base, cfg, dir);
    pair_rule = rules.pair;
    cusum_rule = rules.cusum;
    d.previous_value = history[seg[seg.size() - 2].index].value;
    d.pair_mean = std::sqrt(d.previous_value * history[seg.back().index].value);
    d.segment_mean_percent = 100 * (1 - std::exp(-rules.segment_deviation));
    v.details["segment_mean_percent"] = d.segment_mean_percent;
  }
  if (!pair_rule && !cusum_rule) {
    v.kind = replay.last.outside ? VerdictKind::kNeedsConfirmation : VerdictKind::kClear;
    if (replay.last.outside) v.severity = Severity::kInfo;
    return;
  }
  v.kind = VerdictKind::kSlowdown;
  v.severity = *v.change_percent >= CriticalWorsePercent(key.metric) ? Severity::kCritical
                                                                      : Severity::kWarning;
  if (pair_rule) {
    const Band pair_band = PairBandOf(base, cfg);
    d.pair_both = PairRuleOnBoth(base);
    d.pair_limit = dir == Direction::kLowerIsBetter ? pair_band.high : pair_band.low;
    v.details["pair_mean"] = d.pair_mean;
    v.details["pair_low"] = pair_band.low;
    v.details["pair_high"] = pair_band.high;
    v.rule = Verdict::Rule::kPair;
    v.details["rule"] =
        d.pair_both ? "two consecutive good runs, each outside the pair band"
                    : "two consecutive good runs outside the band and their mean outside the pair band";
    return;
  }
  d.segment_runs = seg.size();
  d.cusum = replay.cusum;
  d.cusum_h = cfg.cusum_h;
  v.rule = Verdict::Rule::kCusum;
  v.details["rule"] = "the runs' scores, summed by a one-sided CUSUM, crossed its decision interval";
}

// "band LOW-HIGH, N runs, noise CV x%: a 15% drop is seen within ~k runs".
std::string BandText(const ChangeDecision& d, Direction dir, const std::string& unit) {
  char pooled[64] = "";
  if (d.pooled_series > 0)
    std::snprintf(pooled, sizeof pooled, " (with %d series of the same read path)",
                  d.pooled_series);
  char noise[220];
  const char* change = dir == Direction::kHigherIsBetter ? "15% drop" : "1.5x rise";
  if (d.runs_to_detect > 0)
    std::snprintf(noise, sizeof noise, "noise CV %.1f%%%s: a %s is seen within ~%d runs",
                  d.noise_percent, pooled, change, d.runs_to_detect);
  else
    std::snprintf(noise, sizeof noise, "noise CV %.1f%%%s: a %s is not reliably seen at this noise",
                  d.noise_percent, pooled, change);
  return "band " + FormatValue(d.band.low, "") + "-" + FormatValue(d.band.high, unit) + ", " +
         std::to_string(d.baseline_runs) + " runs, " + noise;
}

// The sentence of a slowdown: by how much, by which rule, against what.
std::string SlowdownSentence(const SeriesKey& key, const ChangeDecision& d, Direction dir,
                             const std::string& pct, const std::string& against) {
  const Verdict& v = d.verdict;
  const bool rise = dir == Direction::kLowerIsBetter;
  const char* worse_word = rise ? "above" : "below";
  const std::string head = key.Who() + " " + key.test +
                           (key.series.empty() ? "" : " " + key.series) + " " +
                           MetricNoun(key.metric) + (rise ? " rose " : " dropped ") + pct;
  if (v.rule == Verdict::Rule::kPair) {
    const std::string pair_text =
        d.pair_both ? std::string("both ") + worse_word + " " + FormatValue(d.pair_limit, v.unit)
                    : "mean " + FormatValue(d.pair_mean, "") + ", limit " +
                          FormatValue(d.pair_limit, v.unit);
    return head + ": " + FormatValue(d.previous_value, "") + " and " +
           FormatValue(*v.current, v.unit) + " in two consecutive runs (" + pair_text + ") vs " +
           against;
  }
  char text[200];
  std::snprintf(text, sizeof text, " over its last %zu runs (CUSUM %.1f >= %.1f, mean %.0f%% %s)",
                d.segment_runs, d.cusum, d.cusum_h, d.segment_mean_percent, worse_word);
  return head + text + " vs " + against;
}

}  // namespace

ChangeDecision DecideChange(const SeriesKey& key, std::vector<Sample> history,
                            const DetectionConfig& cfg, std::int64_t baseline_since,
                            const SpreadPrior& prior) {
  history = ChronologicalRuns(std::move(history));
  ChangeDecision d;
  Verdict& v = d.verdict;
  v = Start(key);
  const Direction dir = DirectionOf(key.metric);
  if (history.empty()) {
    v.kind = VerdictKind::kInconclusive;
    return d;
  }
  const Sample& latest = history.back();
  v.at = latest.at;
  if (!latest.Good()) {
    v.kind = VerdictKind::kInconclusive;
    d.not_evidence_run = latest.run_id;
    d.not_evidence_because = Why(latest);
    v.details["reason"] = d.not_evidence_because;
    v.details["run_id"] = latest.run_id;
    return d;
  }
  v.details["baseline_since"] = baseline_since;
  v.details["direction"] =
      dir == Direction::kHigherIsBetter ? "higher_is_better" : "lower_is_better";
  const Replay replay = ReplaySeries(history, history.size(), cfg, baseline_since, dir,
                                     TailDfOf(key.metric), prior);
  v.current = latest.value;
  if (!replay.last_judged) {
    const Baseline& base = replay.baseline;
    v.baseline_runs = base.runs;
    v.baseline_median = base.median;
    v.baseline_mad = base.mad;
    v.details["baseline_run_ids"] = base.run_ids;
    v.kind = VerdictKind::kBaselining;
    d.good_runs = replay.good_runs;
    d.wanted_runs = base.wanted;
    return d;
  }
  DescribeBaseline(d, replay, cfg, prior, dir);
  ListEvidence(v, replay, history);
  v.change_percent = WorsePercent(latest.value, replay.last_baseline.center, dir);
  ApplyRules(d, key, replay, history, cfg, dir);
  return d;
}

std::string ChangeSentence(const SeriesKey& key, const ChangeDecision& d) {
  const Verdict& v = d.verdict;
  const std::string who_what = key.Who() + " " + key.Label();
  if (v.kind == VerdictKind::kInconclusive) {
    if (d.not_evidence_because.empty()) return who_what + ": no runs yet";
    return who_what + ": run " + std::to_string(d.not_evidence_run) + " was " +
           d.not_evidence_because + ", not used as evidence";
  }
  if (v.kind == VerdictKind::kBaselining)
    return who_what + ": building its baseline (" +
           std::to_string(std::min(d.good_runs, d.wanted_runs)) + " of " +
           std::to_string(d.wanted_runs) + " good runs)";
  const Direction dir = DirectionOf(key.metric);
  const std::string against =
      "baseline " + FormatValue(d.baseline_center, v.unit) + " (" + BandText(d, dir, v.unit) + ")";
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.0f%%", std::fabs(v.change_percent.value_or(0)));
  if (v.kind == VerdictKind::kSlowdown) return SlowdownSentence(key, d, dir, pct, against);
  const std::string value = FormatValue(v.current.value_or(0), v.unit);
  if (v.kind == VerdictKind::kClear) return who_what + ": " + value + " within its " + against;
  const char* worse_word = dir == Direction::kHigherIsBetter ? "below" : "above";
  return who_what + ": " + value + " is " + pct + " " + worse_word + " its " + against +
         "; re-test to confirm";
}

Verdict EvaluateChange(const SeriesKey& key, std::vector<Sample> history,
                       const DetectionConfig& cfg, std::int64_t baseline_since,
                       const SpreadPrior& prior) {
  ChangeDecision d = DecideChange(key, std::move(history), cfg, baseline_since, prior);
  d.verdict.summary = ChangeSentence(key, d);
  return std::move(d.verdict);
}

}  // namespace dp::detect
