#include "detect/environment_detector.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numbers>
#include <optional>
#include <utility>

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

// A sibling's runs over a window, against its baseline as it stood at
// `reference` (when the drive's open segment began): the median worse-side
// deviation (log units) of its good runs from `from` on and that median in
// its standard errors (a median's is about 1.25 times a mean's for
// near-normal runs); the step at `reference`, the median of its kStepRuns
// good runs from there on less that of its kStepRuns just before (their
// middles a month or so apart, over which a yearly swing of 2% moves the
// vdev about 1%; not the window, the segment's newest runs, which a long
// segment puts months after its start); and the deviation of each of its
// good runs since `history_from` (not before its mark), for the step
// search below. The median, so one interfered run does not carry the
// sibling, and a step is measured at its full depth.
struct TimedDeviation {
  std::int64_t at = 0;
  double deviation = 0;
};
struct WindowJudged {
  double deviation = 0;
  double se = 0;  // of the median deviation
  double score = 0;
  int runs = 0;
  double step = 0;  // at the drive's segment
  std::vector<TimedDeviation> history;
  // The baseline's sigma (log units) and its good runs before the window
  // (run id -> worse-side deviation): the member's usual runs, whose
  // series move together as much as its series of one run do.
  double sigma = 0;
  std::map<std::int64_t, double> usual;
};
constexpr std::size_t kStepRuns = 6;
std::optional<WindowJudged> JudgeWindow(const std::vector<Sample>& h, std::int64_t reference,
                                        std::int64_t from, std::int64_t to,
                                        std::int64_t history_from, const DetectionConfig& cfg,
                                        std::int64_t since, Direction dir, double tail_df) {
  auto index_at = [&](std::int64_t t) {
    std::size_t i = 0;
    while (i < h.size() && h[i].at < t) ++i;
    return i;
  };
  const std::size_t first = index_at(from);
  if (first == h.size()) return std::nullopt;
  const std::size_t base = std::min(first, index_at(reference));
  Baseline b = ComputeBaseline(h, base, cfg, since, dir, tail_df);
  if (!b.ready || b.runs == 0 || b.log_sigma <= 0) return std::nullopt;
  WindowJudged w;
  w.sigma = b.log_sigma;
  std::vector<double> devs, before, after;
  for (std::size_t i = base; i-- > 0;) {
    if (h[i].at < since) break;
    if (!h[i].Good() || h[i].interfered) continue;
    const double dev = WorseLogDeviation(h[i].value, b, dir);
    if (before.size() < kStepRuns) before.push_back(dev);
    if (std::cmp_less(w.usual.size(), cfg.baseline_max_runs)) w.usual[h[i].run_id] = dev;
  }
  for (std::size_t i = 0; i < h.size() && h[i].at <= to; ++i) {
    if (!h[i].Good() || h[i].interfered || h[i].at < since) continue;
    const double dev = WorseLogDeviation(h[i].value, b, dir);
    if (i >= first) devs.push_back(dev);
    if (i >= base && after.size() < kStepRuns) after.push_back(dev);
    if (h[i].at >= history_from) w.history.push_back({h[i].at, dev});
  }
  if (devs.empty()) return std::nullopt;
  w.runs = static_cast<int>(devs.size());
  w.deviation = Median(std::move(devs));
  w.step = Median(std::move(after)) - (before.empty() ? 0 : Median(std::move(before)));
  w.se = (w.runs >= 3 ? 1.25 : 1.0) * b.log_sigma / std::sqrt(w.runs * 1.0);
  w.score = w.deviation / w.se;
  return w;
}

// Change-point on the siblings' common component: the largest rise of the
// median of their pooled runs (each against its own baseline) from the
// kStepBlock before a candidate time to the kStepBlock after it, for
// candidates weekly from the window's start back to kStepSearch before the
// drive's open segment began (at 10% noise
// a drive's CUSUM segment opens weeks after the step that started it). A
// step stands at its full depth at one candidate; a yearly swing of 2%
// moves the vdev at most 1% between two blocks a month apart. nullopt when
// no candidate has runs on both sides (a baseline too young to tell).
constexpr std::int64_t kStepBlock = 28 * 86400;
constexpr std::int64_t kStepSearch = 8 * 7 * 86400;
std::optional<double> CommonStep(const std::vector<std::vector<TimedDeviation>>& siblings,
                                 std::int64_t window, std::int64_t segment) {
  std::optional<double> best;
  for (std::int64_t t = std::max(window, segment); t >= segment - kStepSearch; t -= 7 * 86400) {
    std::vector<double> before, after;
    for (const auto& runs : siblings)
      for (const TimedDeviation& r : runs) {
        if (r.at >= t - kStepBlock && r.at < t) before.push_back(r.deviation);
        if (r.at >= t && r.at < t + kStepBlock) after.push_back(r.deviation);
      }
    if (before.size() < 3 || after.size() < 3) continue;
    const double step = Median(std::move(after)) - Median(std::move(before));
    if (!best || step > *best) best = step;
  }
  return best;
}

Verdict StartEnvironment(const SeriesKey& self, const std::string& group,
                         const std::string& owner_drive_id) {
  Verdict v;
  v.drive_id = owner_drive_id;
  v.condition = JoinCondition({"environment", group, self.test, self.series, self.metric});
  v.test = self.test;
  v.series = self.series;
  v.metric = self.metric;
  v.unit = UnitOf(self.metric);
  v.kind = VerdictKind::kInconclusive;
  return v;
}

// The good, uninterfered sample nearest `at` within `window` seconds of it;
// samples.size() when there is none.
std::size_t NearestInWindow(const std::vector<Sample>& samples, std::int64_t at,
                            std::int64_t window) {
  std::size_t best = samples.size();
  std::int64_t best_gap = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    if (!s.Good() || s.interfered) continue;
    const std::int64_t gap = std::llabs(s.at - at);
    if (gap > window) continue;
    if (best == samples.size() || gap < best_gap) {
      best = i;
      best_gap = gap;
    }
  }
  return best;
}

// A sibling's run against the sibling's baseline as it is now: once the
// vdev's siblings have absorbed a shift they no longer look worse, and a
// drive that then drops alone is its own slowdown (judged against their old
// level, every later drop of any member was "shared" and absorbed again). A
// baseline re-formed and not ready yet: its old one.
std::optional<Judged> JudgeSiblingNow(const PeerHistory& sib, std::size_t i,
                                      const DetectionConfig& cfg, Direction dir, double tail_df) {
  auto j = JudgeAt(sib.samples, i, cfg, sib.baseline_since, dir, tail_df);
  if (!j && sib.baseline_since > 0) j = JudgeAt(sib.samples, i, cfg, 0, dir, tail_df);
  return j;
}

}  // namespace

Verdict EvaluateEnvironment(const SeriesKey& self, std::vector<Sample> self_history,
                            std::vector<PeerHistory> siblings, const std::string& group,
                            const std::string& owner_drive_id, const DetectionConfig& cfg,
                            std::int64_t baseline_since, const Verdict* own_slowdown) {
  Verdict v = StartEnvironment(self, group, owner_drive_id);
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
    const std::size_t best = NearestInWindow(sib.samples, latest.at, cfg.peer_window_seconds);
    if (best == sib.samples.size()) continue;
    auto j = JudgeSiblingNow(sib, best, cfg, dir, TailDfOf(self.metric));
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
  // with five siblings the vdev's shift is taken for five drives failing
  // (an 8% step at 3% noise does that). The median of healthy siblings'
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
  // A sustained slowdown (the CUSUM's, each run perhaps inside its band)
  // against the siblings' runs over the same weeks.
  if (own_slowdown && IsSustainedSlowdown(*own_slowdown) &&
      EnvironmentOverWindow(self, *own_slowdown, siblings, group, cfg, v) != SharedOverWindow::kNo)
    return v;
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

bool IsSustainedSlowdown(const Verdict& v) {
  return v.kind == VerdictKind::kSlowdown && v.runs.size() >= 3 &&
         v.rule == Verdict::Rule::kCusum;
}

SharedOverWindow EnvironmentOverWindow(const SeriesKey& self, const Verdict& own,
                                       const std::vector<PeerHistory>& siblings,
                                       const std::string& group, const DetectionConfig& cfg,
                                       Verdict& v) {
  if (!own.baseline_center || own.runs.empty()) return SharedOverWindow::kNo;
  const Direction dir = DirectionOf(self.metric);
  const std::int64_t from = own.runs.front().at, to = own.at;
  // The drive is judged against its runs before its open segment began; the
  // siblings against theirs before the same time.
  const std::int64_t reference =
      std::min(from, own.segment_from.value_or(from)) - cfg.peer_window_seconds;
  double own_sum = 0;
  for (const EvidenceRun& r : own.runs) own_sum += WorseLog(r.value, *own.baseline_center, dir);
  const double own_deviation = own_sum / static_cast<double>(own.runs.size());
  if (!(own_deviation > 0)) return SharedOverWindow::kNo;
  // Percent worse as WorsePercent says it: a drop of a rate, a rise of a time.
  auto percent_of = [dir](double worse_log) {
    return 100 * (dir == Direction::kHigherIsBetter ? -std::expm1(-worse_log)
                                                    : std::expm1(worse_log));
  };
  std::vector<double> scores, deviations, steps;
  std::vector<std::vector<TimedDeviation>> histories;
  nlohmann::json members = nlohmann::json::array();
  for (PeerHistory sib : siblings) {
    if (sib.drive_id == self.drive_id) continue;
    // Re-formed since (the vdev absorbed the shift without this drive,
    // already alerted then): against the level it had before.
    const std::int64_t since = sib.baseline_since > reference ? 0 : sib.baseline_since;
    SortByTime(sib.samples);
    auto w = JudgeWindow(sib.samples, reference, from - cfg.peer_window_seconds,
                         to + cfg.peer_window_seconds, reference - kStepSearch - kStepBlock, cfg,
                         since, dir, TailDfOf(self.metric));
    if (!w) continue;
    scores.push_back(w->score);
    deviations.push_back(w->deviation);
    histories.push_back(std::move(w->history));
    steps.push_back(w->step);
    members.push_back({{"drive_id", sib.drive_id},
                       {"drive_name", sib.drive_name.empty() ? sib.drive_id : sib.drive_name},
                       {"runs", w->runs},
                       {"change_percent", percent_of(w->deviation)},
                       {"step_percent", percent_of(w->step)},
                       {"score", w->score}});
  }
  if (static_cast<int>(scores.size()) < cfg.peer_min_siblings) return SharedOverWindow::kNo;
  const double median_score = Median(scores), median_deviation = Median(deviations);
  // Material too: at least half the narrowest single-run band. A yearly
  // swing of the room's temperature moves a vdev 2-3% for weeks at a time,
  // which at 3% noise is 2 standard errors of a month of runs; the sliding
  // baselines follow it, and it is no box event to re-form them for.
  const double material = std::log1p(cfg.min_band_percent / 200);
  if (median_score < kSharedScore || median_deviation < 0.5 * own_deviation ||
      median_deviation < material)
    return SharedOverWindow::kNo;
  // Shared. A step, or a drift? A new driver, controller or enclosure moves
  // the siblings between one run and the next: the median sibling's runs
  // from the drive's segment on stand a material amount above its runs
  // just before. A yearly swing moves them slowly, and a baseline formed over
  // half a year (a young one, or re-formed after a box step) has them
  // worse by 3-4% at the other half's peak for weeks, which taken for a
  // step would tell the owner of a box event that is only the season. At
  // 10% noise the drive's
  // segment can open weeks after the step, so the step is also searched
  // for back from there (CommonStep); the largest of nine candidates is
  // larger by chance, so that one must be a whole band's floor. Too young
  // a history to tell: taken for a step.
  const double anchored = Median(steps);
  const std::optional<double> found =
      CommonStep(histories, from - cfg.peer_window_seconds, reference);
  const double searched = found.value_or(median_deviation);
  const bool step = anchored >= material || searched >= 2 * material;
  const double median_step = std::max(anchored, searched);
  char text[320];
  const double percent = percent_of(median_deviation);
  std::snprintf(text, sizeof text,
                " across the vdev over the same %lld days (%s %.0f%% over %zu runs; the median "
                "of %zu siblings %.0f%%, %.1f standard errors; their largest step in a month "
                "%.0f%%)",
                static_cast<long long>((to - from) / 86400), self.Who().c_str(),
                percent_of(own_deviation), own.runs.size(), scores.size(), percent,
                median_score, percent_of(median_step));
  const bool rise = dir == Direction::kLowerIsBetter;
  v.change_percent = percent;
  v.over_window = true;
  v.details["window"] = {{"from", from},
                         {"to", to},
                         {"own_change_percent", percent_of(own_deviation)},
                         {"siblings", members},
                         {"siblings_median_score", median_score},
                         {"siblings_step_percent", percent_of(median_step)}};
  const std::string what = group + ": " + self.test +
                           (self.series.empty() ? "" : " " + self.series) + " " +
                           MetricNoun(self.metric);
  if (!step) {
    v.kind = VerdictKind::kInconclusive;
    v.severity = Severity::kInfo;
    v.drift = true;
    v.details["drift"] = true;
    v.summary = what + (rise ? " crept up" : " crept down") + text +
                ": a slow change they share (the room's season, ageing), followed by the "
                "baselines; neither one drive failing nor a box event";
    return SharedOverWindow::kDrift;
  }
  v.kind = VerdictKind::kEnvironment;
  v.severity = Severity::kWarning;
  v.summary = what + (rise ? " rose" : " dropped") + text +
              ": a change they share (controller, driver, enclosure temperature, pool load), "
              "not one drive failing";
  return SharedOverWindow::kStep;
}

namespace {

// Each member's change over a shift (`own`'s window), against its baseline
// as it stood before the shift (ApartAtShift, JointlyApartAtShift).
struct ShiftMember {
  std::string id;
  WindowJudged w;
};
std::vector<ShiftMember> MembersAtShift(const SeriesKey& self,
                                        const std::vector<Sample>& self_history,
                                        std::int64_t self_since, const Verdict& own,
                                        const std::vector<PeerHistory>& siblings,
                                        const DetectionConfig& cfg) {
  std::vector<ShiftMember> members;
  if (own.runs.empty()) return members;
  const Direction dir = DirectionOf(self.metric);
  const std::int64_t from = own.runs.front().at, to = own.at;
  const std::int64_t reference =
      std::min(from, own.segment_from.value_or(from)) - cfg.peer_window_seconds;
  auto read = [&](const std::string& id, std::vector<Sample> samples, std::int64_t since) {
    // Re-formed since the shift began: against the level it had before.
    if (since > reference) since = 0;
    SortByTime(samples);
    auto w = JudgeWindow(samples, reference, from - cfg.peer_window_seconds,
                         to + cfg.peer_window_seconds, to + cfg.peer_window_seconds + 1, cfg,
                         since, dir, TailDfOf(self.metric));
    if (w && w->se > 0) members.push_back({id, std::move(*w)});
  };
  read(self.drive_id, self_history, self_since);
  for (const PeerHistory& sib : siblings)
    if (sib.drive_id != self.drive_id) read(sib.drive_id, sib.samples, sib.baseline_since);
  return members;
}

// The median of the members' deviations but the i-th.
double OthersMedian(const std::vector<ShiftMember>& members, std::size_t i) {
  std::vector<double> others;
  for (std::size_t j = 0; j < members.size(); ++j)
    if (j != i) others.push_back(members[j].w.deviation);
  return Median(std::move(others));
}

// How far a member's change must stand out of the others' to be its own:
// a box step moves every member alike, so one of a vdev of 6 is set apart
// in about 2% of true steps.
constexpr double kApartSigmas = 2.5;

// Half of cfg.peer_min_percent, in log units: what a member's change must
// exceed the others' by to stand apart.
double ApartFloor(const DetectionConfig& cfg) { return std::log1p(cfg.peer_min_percent / 200); }

}  // namespace

std::vector<std::string> ApartAtShift(const SeriesKey& self,
                                      const std::vector<Sample>& self_history,
                                      std::int64_t self_since, const Verdict& own,
                                      const std::vector<PeerHistory>& siblings,
                                      const DetectionConfig& cfg) {
  std::vector<std::string> out;
  const std::vector<ShiftMember> members =
      MembersAtShift(self, self_history, self_since, own, siblings, cfg);
  if (members.size() < 2) return out;
  const double floor = ApartFloor(cfg);
  for (std::size_t i = 0; i < members.size(); ++i) {
    const double apart = members[i].w.deviation - OthersMedian(members, i);
    if (apart >= floor && apart >= kApartSigmas * members[i].w.se) out.push_back(members[i].id);
  }
  return out;
}

std::vector<JointApart> JointlyApartAtShift(const Verdict& own,
                                            const std::vector<ShiftSeries>& series,
                                            const DetectionConfig& cfg) {
  std::vector<std::vector<ShiftMember>> read;
  for (const ShiftSeries& s : series) {
    read.push_back(MembersAtShift(s.key, s.self_history, s.self_since, own, s.siblings, cfg));
    if (read.back().size() < 2) read.pop_back();
  }
  // Each member's series: its standardised excess over the others' median
  // (capped, as the joint peer rule caps it), that excess in log units,
  // and the series' window (its usual runs).
  struct Standing {
    double z = 0, excess = 0;
    const WindowJudged* w = nullptr;
  };
  std::map<std::string, std::vector<Standing>> by_member;
  for (const std::vector<ShiftMember>& members : read)
    for (std::size_t i = 0; i < members.size(); ++i) {
      // The excess's sd: the member's standard error and that of the
      // others' median (pi/2 times a mean's variance).
      double others_var = 0;
      for (std::size_t j = 0; j < members.size(); ++j)
        if (j != i) others_var += members[j].w.se * members[j].w.se;
      const double k = static_cast<double>(members.size() - 1);
      const double sd = std::sqrt(members[i].w.se * members[i].w.se +
                                  std::numbers::pi / 2 * others_var / (k * k));
      const double excess = members[i].w.deviation - OthersMedian(members, i);
      by_member[members[i].id].push_back(
          {std::clamp(excess / sd, -kJointZCap, kJointZCap), excess, &members[i].w});
    }
  std::vector<JointApart> out;
  const double floor = ApartFloor(cfg);
  for (const auto& [id, standings] : by_member) {
    const int m = static_cast<int>(standings.size());
    if (m < 2) continue;
    JointApart a{id, m};
    double z = 0;
    for (const Standing& s : standings) {
      z += s.z / m;
      a.excess += s.excess / m;
    }
    // The member's usual runs, each the mean of its series' standardised
    // deviations: their spread carries what its series share within a run
    // (1/sqrt(m) when they share nothing). Too few to tell: not apart.
    std::vector<double> usual;
    for (const auto& [run, first] : standings.front().w->usual) {
      double sum = 0;
      bool every = true;
      for (const Standing& s : standings) {
        auto it = s.w->usual.find(run);
        every = it != s.w->usual.end() && s.w->sigma > 0;
        if (!every) break;
        sum += std::clamp(it->second / s.w->sigma, -kJointZCap, kJointZCap);
      }
      if (every) usual.push_back(sum / m);
    }
    const int n = static_cast<int>(usual.size());
    if (n < std::max(2, cfg.baseline_runs)) continue;
    const double independent = 1 / std::sqrt(static_cast<double>(m));
    a.sd = std::max(independent, kMadToSigma * MadSmallSampleFactor(n) * Mad(usual));
    a.t = z / a.sd;
    a.apart = a.t >= kApartSigmas && a.excess >= floor;
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace dp::detect
