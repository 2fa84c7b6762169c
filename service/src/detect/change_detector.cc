#include "detect/change_detector.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "detect/baseline.h"
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
  return "not a number";
}

}  // namespace

Verdict EvaluateChange(const SeriesKey& key, std::vector<Sample> history,
                       const DetectionConfig& cfg, std::int64_t baseline_since) {
  std::stable_sort(history.begin(), history.end(), [](const Sample& a, const Sample& b) {
    return a.at != b.at ? a.at < b.at : a.run_id < b.run_id;
  });
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

  // The previous good run (after the re-baseline point): the first of a
  // possible confirmation pair.
  std::size_t prev_index = history.size();
  for (std::size_t i = history.size() - 1; i-- > 0;) {
    if (history[i].Good()) {
      if (history[i].at >= baseline_since) prev_index = i;
      break;
    }
  }
  // The baseline before the latest run judges it alone; the baseline before
  // the previous run judges the pair.
  Baseline base = ComputeBaseline(history, history.size() - 1, cfg, baseline_since);
  v.details["baseline_since"] = baseline_since;
  v.details["direction"] =
      dir == Direction::kHigherIsBetter ? "higher_is_better" : "lower_is_better";
  if (!base.ready) {
    // Counted with the latest run, which will be part of the baseline.
    base = ComputeBaseline(history, history.size(), cfg, baseline_since);
    v.baseline_runs = base.runs;
    v.baseline_median = base.median;
    v.baseline_mad = base.mad;
    v.details["baseline_run_ids"] = base.run_ids;
    v.kind = VerdictKind::kBaselining;
    v.current = latest.value;
    v.summary = who + " " + label + ": building its baseline (" + std::to_string(base.runs) +
                " of " + std::to_string(base.wanted) + " good runs)";
    return v;
  }

  bool slowdown = false;
  double pair_mean = 0;
  Band pair_band;
  if (prev_index < history.size()) {
    Baseline before_prev = ComputeBaseline(history, prev_index, cfg, baseline_since);
    if (before_prev.ready) {
      const Band band = BandOf(before_prev, cfg);
      pair_band = PairBandOf(before_prev, cfg);
      pair_mean = (history[prev_index].value + latest.value) / 2;
      slowdown = OutsideWorse(history[prev_index].value, band, dir) &&
                 OutsideWorse(latest.value, band, dir) && OutsideWorse(pair_mean, pair_band, dir);
      if (slowdown) base = std::move(before_prev);
    }
  }

  v.baseline_runs = base.runs;
  v.baseline_median = base.median;
  v.baseline_mad = base.mad;
  v.details["baseline_run_ids"] = base.run_ids;
  v.details["baseline_mean"] = base.center;
  v.details["baseline_sigma"] = base.sigma;
  const Band band = BandOf(base, cfg);
  v.band_low = band.low;
  v.band_high = band.high;
  // Evidence: the latest good runs that are not part of the baseline, newest last.
  std::vector<const Sample*> judged;
  for (std::size_t i = history.size(); i-- > 0 && judged.size() < 5;) {
    const Sample& s = history[i];
    if (!s.Good() || s.at < baseline_since) continue;
    if (std::find(base.run_ids.begin(), base.run_ids.end(), s.run_id) != base.run_ids.end())
      continue;
    judged.insert(judged.begin(), &s);
  }
  for (const Sample* s : judged)
    v.runs.push_back({s->run_id, s->at, s->value, OutsideWorse(s->value, band, dir)});
  const bool last_out = OutsideWorse(latest.value, band, dir);
  v.current = latest.value;
  v.change_percent = WorsePercent(latest.value, base.median, dir);
  const std::string unit = v.unit;
  const std::string band_text = "band " + FormatValue(band.low, "") + "-" +
                                FormatValue(band.high, unit) + ", " + std::to_string(base.runs) +
                                " runs";
  const std::string base_text = "baseline " + FormatValue(base.median, unit);
  const char* worse_word = dir == Direction::kHigherIsBetter ? "below" : "above";
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.0f%%", std::fabs(*v.change_percent));

  if (slowdown) {
    const Sample& prev = history[prev_index];
    v.kind = VerdictKind::kSlowdown;
    v.severity = *v.change_percent >= 50 ? Severity::kCritical : Severity::kWarning;
    v.details["pair_mean"] = pair_mean;
    v.details["pair_low"] = pair_band.low;
    v.details["pair_high"] = pair_band.high;
    v.details["rule"] =
        "two consecutive good runs outside the band and their mean outside the pair band";
    const bool rise = dir == Direction::kLowerIsBetter;
    const double pair_limit = rise ? pair_band.high : pair_band.low;
    v.summary = who + " " + key.test + (key.series.empty() ? "" : " " + key.series) + " " +
                MetricNoun(key.metric) + (rise ? " rose " : " dropped ") + pct + ": " +
                FormatValue(prev.value, "") + " and " + FormatValue(latest.value, unit) +
                " in two consecutive runs (mean " + FormatValue(pair_mean, "") + ", limit " +
                FormatValue(pair_limit, unit) + ") vs " + base_text + " (" + band_text + ")";
    return v;
  }
  if (!last_out) {
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
