#include "detect/change_detector.h"

#include <algorithm>
#include <cmath>

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

  // The runs judged: the latest good run and the good run before it (when it
  // is after the re-baseline point). The baseline is built from the runs
  // before the latest; the previous run only counts as evidence when it did
  // not enter the baseline (runs outside the first band never do).
  std::size_t prev_index = history.size();
  for (std::size_t i = history.size() - 1; i-- > 0;) {
    if (history[i].Good()) {
      if (history[i].at >= baseline_since) prev_index = i;
      break;
    }
  }
  Baseline base = ComputeBaseline(history, history.size() - 1, cfg, baseline_since);
  const bool has_prev =
      prev_index < history.size() && std::find(base.run_ids.begin(), base.run_ids.end(),
                                               history[prev_index].run_id) == base.run_ids.end();
  v.baseline_runs = base.runs;
  v.details["baseline_run_ids"] = base.run_ids;
  v.details["baseline_since"] = baseline_since;
  v.details["direction"] =
      dir == Direction::kHigherIsBetter ? "higher_is_better" : "lower_is_better";
  if (base.runs > 0) {
    v.baseline_median = base.median;
    v.baseline_mad = base.mad;
  }
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
  const bool prev_out = has_prev && OutsideWorse(history[prev_index].value, band, dir);
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

  if (!last_out) {
    v.kind = VerdictKind::kClear;
    v.summary = who + " " + label + ": " + FormatValue(latest.value, unit) + " within its " +
                base_text + " (" + band_text + ")";
    return v;
  }
  if (!prev_out) {
    v.kind = VerdictKind::kNeedsConfirmation;
    v.severity = Severity::kInfo;
    v.summary = who + " " + label + ": " + FormatValue(latest.value, unit) + " is " + pct + " " +
                worse_word + " its " + base_text + " (" + band_text + "); re-test to confirm";
    return v;
  }
  const Sample& prev = history[prev_index];
  v.kind = VerdictKind::kSlowdown;
  v.severity = *v.change_percent >= 50 ? Severity::kCritical : Severity::kWarning;
  const bool rise = dir == Direction::kLowerIsBetter;
  v.summary = who + " " + key.test + (key.series.empty() ? "" : " " + key.series) + " " +
              MetricNoun(key.metric) + (rise ? " rose " : " dropped ") + pct + ": " +
              FormatValue(prev.value, "") + " and " + FormatValue(latest.value, unit) +
              " in two consecutive runs vs " + base_text + " (" + band_text + ")";
  return v;
}

}  // namespace dp::detect
