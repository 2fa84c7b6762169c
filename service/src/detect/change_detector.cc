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

Verdict EvaluateChange(const SeriesKey& key, std::vector<Sample> history,
                       const DetectionConfig& cfg, std::int64_t baseline_since,
                       const SpreadPrior& prior) {
  history = ChronologicalRuns(std::move(history));
  Verdict v = Start(key);
  const Direction dir = DirectionOf(key.metric);
  const std::string who = key.Who();
  const std::string label = key.Label();
  if (history.empty()) {
    v.kind = VerdictKind::kInconclusive;
    v.summary = who + " " + label + ": no runs yet";
    return v;
  }
  const Sample& latest = history.back();
  v.at = latest.at;
  if (!latest.Good()) {
    v.kind = VerdictKind::kInconclusive;
    v.details["reason"] = Why(latest);
    v.details["run_id"] = latest.run_id;
    v.summary = who + " " + label + ": run " + std::to_string(latest.run_id) + " was " +
                Why(latest) + ", not used as evidence";
    return v;
  }
  v.details["baseline_since"] = baseline_since;
  v.details["direction"] =
      dir == Direction::kHigherIsBetter ? "higher_is_better" : "lower_is_better";
  const Replay replay = ReplaySeries(history, history.size(), cfg, baseline_since, dir,
                                     TailDfOf(key.metric), prior);
  if (!replay.last_judged) {
    const Baseline& base = replay.baseline;
    v.baseline_runs = base.runs;
    v.baseline_median = base.median;
    v.baseline_mad = base.mad;
    v.details["baseline_run_ids"] = base.run_ids;
    v.kind = VerdictKind::kBaselining;
    v.current = latest.value;
    v.summary = who + " " + label + ": building its baseline (" +
                std::to_string(std::min<std::size_t>(replay.good_runs, base.wanted)) + " of " +
                std::to_string(base.wanted) + " good runs)";
    return v;
  }

  const Baseline& base = replay.last_baseline;
  const Band band = BandOf(base, cfg);
  const Band pair_band = PairBandOf(base, cfg);
  const auto& seg = replay.segment;
  bool pair_rule = false, cusum_rule = false;
  double pair_mean = 0, segment_mean_percent = 0;
  if (seg.size() >= 2 && seg.back().index == replay.last.index) {
    const SegmentRules rules = RulesOf(seg, replay.cusum, base, cfg, dir);
    pair_rule = rules.pair;
    cusum_rule = rules.cusum;
    pair_mean = std::sqrt(history[seg[seg.size() - 2].index].value * history[seg.back().index].value);
    segment_mean_percent = 100 * (1 - std::exp(-rules.segment_deviation));
    v.details["segment_mean_percent"] = segment_mean_percent;
  }
  const bool slowdown = pair_rule || cusum_rule;

  v.baseline_runs = base.runs;
  v.baseline_median = base.median;
  v.baseline_mad = base.mad;
  v.details["baseline_run_ids"] = base.run_ids;
  v.baseline_center = base.center;
  v.details["baseline_mean"] = base.center;
  v.details["baseline_sigma"] = base.log_sigma * base.center;
  const double noise_pct = 100 * base.log_sigma;
  v.details["noise_percent"] = noise_pct;
  // The noise is the family's pooled spread when the series is judged with
  // it (baseline.h): how many runs stand behind it, and its own figure.
  v.details["noise_df"] = base.df();
  // Runs of an open change that widened a tight start's spread while they
  // wait to join it (baseline.h, "Waiting runs").
  if (base.waiting_runs() > 0) v.details["noise_waiting_runs"] = base.waiting_runs();
  if (base.prior_df > 0) {
    v.details["noise_own_percent"] = 100 * base.own_log_sigma;
    v.details["noise_pooled_series"] = prior.members;
  }
  v.details["cusum"] = replay.cusum;
  // The run's own worse-side score: what a drive-wide check reads of it.
  v.score = replay.last.score;
  v.details["score"] = replay.last.score;
  v.details["cusum_h"] = cfg.cusum_h;
  // What this series can tell apart: a 15% drop of a throughput, a 1.5x rise
  // of a time; the page shows it beside each chart.
  const double probe = dir == Direction::kHigherIsBetter ? 15 : 50;
  const int runs_needed = RunsToDetect(base, cfg, probe, dir);
  v.details["detectable"] = {{"change_percent", probe}, {"runs", runs_needed}};
  v.band_low = band.low;
  v.band_high = band.high;
  // Evidence: the open segment's runs, or the latest when none is open.
  // Where the open segment began: the baseline is the runs before it (the
  // evidence below keeps only its newest runs).
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
  v.current = latest.value;
  v.change_percent = WorsePercent(latest.value, base.center, dir);
  const std::string unit = v.unit;
  char pooled[64] = "";
  if (base.prior_df > 0)
    std::snprintf(pooled, sizeof pooled, " (with %d series of the same read path)",
                  prior.members);
  char noise[220];
  const char* change = dir == Direction::kHigherIsBetter ? "15% drop" : "1.5x rise";
  if (runs_needed > 0)
    std::snprintf(noise, sizeof noise, "noise CV %.1f%%%s: a %s is seen within ~%d runs",
                  noise_pct, pooled, change, runs_needed);
  else
    std::snprintf(noise, sizeof noise, "noise CV %.1f%%%s: a %s is not reliably seen at this noise",
                  noise_pct, pooled, change);
  const std::string band_text = "band " + FormatValue(band.low, "") + "-" +
                                FormatValue(band.high, unit) + ", " + std::to_string(base.runs) +
                                " runs, " + noise;
  const std::string base_text = "baseline " + FormatValue(base.center, unit);
  const char* worse_word = dir == Direction::kHigherIsBetter ? "below" : "above";
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.0f%%", std::fabs(*v.change_percent));

  if (slowdown) {
    v.kind = VerdictKind::kSlowdown;
    v.severity = *v.change_percent >= CriticalWorsePercent(key.metric) ? Severity::kCritical
                                                                        : Severity::kWarning;
    const bool rise = dir == Direction::kLowerIsBetter;
    if (pair_rule) {
      const Sample& prev = history[seg[seg.size() - 2].index];
      v.details["pair_mean"] = pair_mean;
      v.details["pair_low"] = pair_band.low;
      v.details["pair_high"] = pair_band.high;
      const bool both = PairRuleOnBoth(base);
      v.rule = Verdict::Rule::kPair;
      v.details["rule"] =
          both ? "two consecutive good runs, each outside the pair band"
               : "two consecutive good runs outside the band and their mean outside the pair band";
      const double pair_limit = rise ? pair_band.high : pair_band.low;
      const std::string pair_text =
          both ? std::string("both ") + worse_word + " " + FormatValue(pair_limit, unit)
               : "mean " + FormatValue(pair_mean, "") + ", limit " + FormatValue(pair_limit, unit);
      v.summary = who + " " + key.test + (key.series.empty() ? "" : " " + key.series) + " " +
                  MetricNoun(key.metric) + (rise ? " rose " : " dropped ") + pct + ": " +
                  FormatValue(prev.value, "") + " and " + FormatValue(latest.value, unit) +
                  " in two consecutive runs (" + pair_text + ") vs " + base_text + " (" +
                  band_text + ")";
    } else {
      char text[200];
      std::snprintf(text, sizeof text,
                    " over its last %zu runs (CUSUM %.1f >= %.1f, mean %.0f%% %s)", seg.size(),
                    replay.cusum, cfg.cusum_h, segment_mean_percent,
                    worse_word);
      v.rule = Verdict::Rule::kCusum;
      v.details["rule"] =
          "the runs' scores, summed by a one-sided CUSUM, crossed its decision interval";
      v.summary = who + " " + key.test + (key.series.empty() ? "" : " " + key.series) + " " +
                  MetricNoun(key.metric) + (rise ? " rose " : " dropped ") + pct + text + " vs " +
                  base_text + " (" + band_text + ")";
    }
    return v;
  }
  if (!replay.last.outside) {
    v.kind = VerdictKind::kClear;
    v.summary = who + " " + label + ": " + FormatValue(latest.value, unit) + " within its " +
                base_text + " (" + band_text + ")";
    return v;
  }
  v.kind = VerdictKind::kNeedsConfirmation;
  v.severity = Severity::kInfo;
  v.summary = who + " " + label + ": " + FormatValue(latest.value, unit) + " is " + pct + " " +
              worse_word + " its " + base_text + " (" + band_text + "); re-test to confirm";
  return v;
}

}  // namespace dp::detect
