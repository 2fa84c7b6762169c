#include "detect/environment_detector.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "detect/baseline.h"
#include "detect/robust_stats.h"
#include "detect/verdict_text.h"

namespace dp::detect {
namespace {

// How many of its own sigmas worse the median sibling must be (see below).
constexpr double kSharedScore = 2.0;

struct Judged {
  bool outside = false;
  double percent = 0;    // worse, in percent of the baseline
  double deviation = 0;  // worse, log units
  double score = 0;      // deviation in the series' own sigmas
};

// The run at index i of h against the baseline before it; nullopt when the
// baseline is not formed yet.
std::optional<Judged> JudgeAt(const std::vector<Sample>& h, std::size_t i, const DetectionConfig& cfg,
                              std::int64_t since, Direction dir, double tail_df) {
  Baseline b = ComputeBaseline(h, i, cfg, since, dir, tail_df);
  if (!b.ready || b.runs == 0) return std::nullopt;
  const double dev = WorseLogDeviation(h[i].value, b, dir);
  const BandWidths w = SingleWidths(b, cfg);
  Judged j;
  j.outside = dev > (dir == Direction::kHigherIsBetter ? w.low : w.high);
  j.percent = WorsePercent(h[i].value, b.center, dir);
  j.deviation = dev;
  j.score = b.log_sigma > 0 ? dev / b.log_sigma : 0;
  return j;
}

}  // namespace

Verdict EvaluateEnvironment(const SeriesKey& self, std::vector<Sample> self_history,
                            std::vector<PeerHistory> siblings, const std::string& group,
                            const std::string& owner_drive_id, const DetectionConfig& cfg,
                            std::int64_t baseline_since) {
  Verdict v;
  v.drive_id = owner_drive_id;
  v.condition = JoinCondition({"environment", group, self.test, self.series, self.metric});
  v.test = self.test;
  v.series = self.series;
  v.metric = self.metric;
  v.unit = UnitOf(self.metric);
  v.kind = VerdictKind::kInconclusive;
  const Direction dir = DirectionOf(self.metric);
  SortByTime(self_history);
  std::size_t last = self_history.size();
  for (std::size_t i = self_history.size(); i-- > 0;)
    if (self_history[i].Good()) {
      last = i;
      break;
    }
  const std::string label = group + " " + self.Label();
  if (last == self_history.size() || last + 1 != self_history.size()) {
    v.summary = label + ": the latest run is not evidence";
    return v;
  }
  const Sample& latest = self_history[last];
  v.at = latest.at;
  auto own = JudgeAt(self_history, last, cfg, baseline_since, dir, TailDfOf(self.metric));
  if (!own) {
    v.summary = label + ": " + self.Who() + " is still building its baseline";
    return v;
  }
  int measured = 0, worse = 0;
  std::vector<double> changes{own->percent};
  std::vector<double> sibling_scores, sibling_deviations;
  nlohmann::json members = nlohmann::json::array();
  members.push_back({{"drive_id", self.drive_id},
                     {"drive_name", self.Who()},
                     {"value", latest.value},
                     {"change_percent", own->percent},
                     {"outside", own->outside}});
  for (auto& sib : siblings) {
    if (sib.drive_id == self.drive_id) continue;
    // Every sibling, measured in this window or not (it may run later in
    // the week's order): the vdev's shift is theirs too.
    v.siblings_since.push_back({sib.drive_id, sib.baseline_since});
    SortByTime(sib.samples);
    std::size_t best = sib.samples.size();
    std::int64_t best_gap = 0;
    for (std::size_t i = 0; i < sib.samples.size(); ++i) {
      const Sample& s = sib.samples[i];
      if (!s.Good()) continue;
      const std::int64_t gap = std::llabs(s.at - latest.at);
      if (gap > cfg.peer_window_seconds) continue;
      if (best == sib.samples.size() || gap < best_gap) {
        best = i;
        best_gap = gap;
      }
    }
    if (best == sib.samples.size()) continue;
    // Against the sibling's baseline as it is now: once the vdev's siblings
    // have absorbed a shift they no longer look worse, and a drive that then
    // drops alone is its own slowdown (judged against their old level,
    // every later drop of any member was "shared" and absorbed again). A
    // baseline re-formed and not ready yet: its old one.
    auto j = JudgeAt(sib.samples, best, cfg, sib.baseline_since, dir, TailDfOf(self.metric));
    if (!j && sib.baseline_since > 0)
      j = JudgeAt(sib.samples, best, cfg, 0, dir, TailDfOf(self.metric));
    if (!j) continue;
    ++measured;
    if (j->outside) ++worse;
    changes.push_back(j->percent);
    sibling_scores.push_back(j->score);
    sibling_deviations.push_back(j->deviation);
    members.push_back({{"drive_id", sib.drive_id},
                       {"drive_name", sib.drive_name.empty() ? sib.drive_id : sib.drive_name},
                       {"run_id", sib.samples[best].run_id},
                       {"value", sib.samples[best].value},
                       {"change_percent", j->percent},
                       {"outside", j->outside}});
  }
  v.details["members"] = members;
  v.siblings_measured = measured;
  v.details["siblings_measured"] = measured;
  v.details["siblings_worse"] = worse;
  const double median = Median(changes);
  v.change_percent = median;
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.0f%%", std::fabs(median));
  if (measured < cfg.peer_min_siblings) {
    v.summary = label + ": " + std::to_string(measured) + " sibling(s) measured in the window, " +
                std::to_string(cfg.peer_min_siblings) + " needed";
    return v;
  }
  // Shared: the typical sibling is clearly worse against its own baseline
  // (its median score kSharedScore sigmas), by at least half the drive's own
  // change. Not "every sibling outside its band": a step of the whole box a
  // little beyond the band's floor leaves one sibling in four inside it, and
  // with five siblings the vdev's shift was taken for five drives failing
  // (field model, 8% step at 3% noise). The median of healthy siblings'
  // scores stays far below it: of two, their mean must pass 2 sigmas (2.8
  // standard errors, 0.2%); a drive failing alone still stands out.
  const double median_score = sibling_scores.empty() ? 0 : Median(sibling_scores);
  const double median_deviation = sibling_deviations.empty() ? 0 : Median(sibling_deviations);
  v.details["siblings_median_score"] = median_score;
  const bool shared =
      median_score >= kSharedScore && median_deviation >= 0.5 * own->deviation;
  if (own->outside && shared) {
    v.kind = VerdictKind::kEnvironment;
    v.severity = Severity::kWarning;
    const bool rise = dir == Direction::kLowerIsBetter;
    v.summary = group + ": " + self.test + (self.series.empty() ? "" : " " + self.series) + " " +
                MetricNoun(self.metric) + (rise ? " rose" : " dropped") + " across the vdev (" +
                std::to_string(worse + 1) + " of " + std::to_string(measured + 1) +
                " members outside their bands, median " + pct +
                ") in the same window: a change they share (controller, driver, enclosure "
                "temperature, pool load), not one drive failing";
    return v;
  }
  if (shared) {
    // The vdev is still worse than its old level. A drive whose baselines
    // re-formed since (a re-baseline mark) and that moved with its siblings
    // has absorbed the shift: clear. One inside its band by chance has not:
    // no evidence either way, so the vdev's alert does not churn.
    std::optional<Judged> old;
    if (baseline_since > 0)
      old = JudgeAt(self_history, last, cfg, 0, dir, TailDfOf(self.metric));
    if (old && old->deviation >= 0.5 * median_deviation) {
      v.kind = VerdictKind::kClear;
      v.summary = label + ": " + self.Who() + " moved with its siblings and its baseline "
                  "re-formed on the new level";
      return v;
    }
    v.summary = label + ": the siblings are worse, " + self.Who() +
                "'s run is inside its band: no evidence either way";
    return v;
  }
  v.kind = VerdictKind::kClear;
  v.summary = label + ": " + std::to_string(worse) + " of " + std::to_string(measured) +
              " siblings worse in the same window: not shared";
  return v;
}

}  // namespace dp::detect
