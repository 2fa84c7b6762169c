#include "detect/trend_detector.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "detect/baseline.h"
#include "detect/robust_stats.h"
#include "detect/verdict_text.h"

namespace dp::detect {
namespace {

constexpr double kDay = 86400.0;
constexpr double kMonthDays = 30.44;
constexpr std::size_t kMaxRuns = 400;  // bounds the O(n^2) pair loops
// One-sided 95% bound of the slope (Gilbert 1987, see TheilSenInterval).
constexpr double kSlopeBoundZ = 1.645;

}  // namespace

Verdict EvaluateTrend(const SeriesKey& key, std::vector<Sample> history, const DetectionConfig& cfg,
                      std::int64_t baseline_since) {
  SortByTime(history);
  Verdict v;
  v.drive_id = key.drive_id;
  v.drive_name = key.drive_name;
  v.condition = JoinCondition({"trend", key.test, key.series, key.metric});
  v.test = key.test;
  v.series = key.series;
  v.metric = key.metric;
  v.unit = UnitOf(key.metric);
  const std::string who = key.Who() + " " + key.Label();
  if (history.empty() || !history.back().Good()) {
    v.kind = VerdictKind::kInconclusive;
    if (!history.empty()) v.at = history.back().at;
    v.summary = who + ": latest run is not evidence";
    return v;
  }
  const Direction dir = DirectionOf(key.metric);
  const std::int64_t latest = history.back().at;
  v.at = latest;
  const std::int64_t from = std::max<std::int64_t>(
      baseline_since, latest - static_cast<std::int64_t>(cfg.trend_window_days * kDay));
  std::vector<const Sample*> good;
  for (const auto& s : history)
    if (s.Good() && s.at >= from) good.push_back(&s);
  if (good.size() > kMaxRuns) good.erase(good.begin(), good.end() - kMaxRuns);

  double span_days = good.empty() ? 0 : (good.back()->at - good.front()->at) / kDay;
  v.details["window_runs"] = good.size();
  v.details["span_days"] = span_days;
  if (static_cast<int>(good.size()) < cfg.trend_min_runs || span_days < cfg.trend_min_span_days) {
    v.kind = VerdictKind::kBaselining;
    v.summary = who + ": too little history for a trend (" + std::to_string(good.size()) +
                " good runs over " + FormatValue(span_days, "") + " days)";
    return v;
  }
  std::vector<double> x, y;
  for (const Sample* s : good) {
    x.push_back((s->at - good.front()->at) / kDay);
    y.push_back(s->value);
  }
  const double median = Median(y);
  const double slope_per_day = TheilSenSlope(x, y);
  const double pct_month = median == 0 ? 0 : slope_per_day * kMonthDays / std::fabs(median) * 100.0;
  const double worse_pct_month = dir == Direction::kHigherIsBetter ? -pct_month : pct_month;
  const MannKendall mk = MannKendallTest(y);
  const double p = dir == Direction::kHigherIsBetter ? mk.p_decreasing : mk.p_increasing;
  // The worse-direction slope that the drive exceeds with 95% confidence.
  const SlopeInterval ci = TheilSenInterval(x, y, mk.var_s, kSlopeBoundZ);
  const double bound_per_day = dir == Direction::kHigherIsBetter ? -ci.high : ci.low;
  const double worse_bound_pct_month =
      median == 0 ? 0 : bound_per_day * kMonthDays / std::fabs(median) * 100.0;

  v.current = y.back();
  v.slope_percent_per_month = worse_pct_month;
  v.p_value = p;
  v.details["window_median"] = median;
  v.details["slope_per_day"] = slope_per_day;
  v.details["mann_kendall_s"] = mk.s;
  v.details["mann_kendall_z"] = mk.z;
  v.details["slope_bound_percent_per_month"] = worse_bound_pct_month;
  v.details["method"] =
      "Theil-Sen slope with its one-sided 95% confidence bound, one-sided Mann-Kendall test";
  const std::size_t keep = std::min<std::size_t>(good.size(), 10);
  for (std::size_t i = good.size() - keep; i < good.size(); ++i)
    v.runs.push_back({good[i]->run_id, good[i]->at, good[i]->value, false});

  char text[256];
  if (p < cfg.trend_alpha && worse_bound_pct_month >= cfg.trend_min_percent_per_month) {
    v.kind = VerdictKind::kTrend;
    v.severity = Severity::kWarning;
    const char* verb = dir == Direction::kHigherIsBetter ? "getting slower" : "rising";
    std::snprintf(text, sizeof text,
                  " is %s by %.1f%%/month (at least %.1f%%/month with 95%% confidence; "
                  "Theil-Sen over %zu runs in %.0f days, Mann-Kendall p=%.2g)",
                  verb, worse_pct_month, worse_bound_pct_month, good.size(), span_days, p);
    v.summary = key.Who() + " " + key.test + (key.series.empty() ? "" : " " + key.series) + " " +
                MetricNoun(key.metric) + text;
  } else {
    v.kind = VerdictKind::kClear;
    std::snprintf(text, sizeof text, ": no significant trend (%+.1f%%/month worse, p=%.2g)",
                  worse_pct_month, p);
    v.summary = who + text;
  }
  return v;
}

}  // namespace dp::detect
