#include "detect/drive_shift.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>

#include "detect/baseline.h"
#include "detect/baseline_internal.h"
#include "detect/robust_stats.h"
#include "detect/sample.h"
#include "model/condition.h"

namespace dp::detect {

std::string ReadPathOf(const std::string& test) {
  return test == "zones" || test == "seq" || test == "sweep" ? "sequential" : test;
}

double TestScore(const std::vector<double>& series_scores) {
  return series_scores.empty() ? 0 : *std::max_element(series_scores.begin(), series_scores.end());
}

std::optional<double> WorseLogOf(const Verdict& v) {
  if (!v.current || !v.baseline_center) return std::nullopt;
  const double d = WorseLog(*v.current, *v.baseline_center,
                            DirectionOf(v.metric));
  if (!std::isfinite(d)) return std::nullopt;
  return d;
}

std::optional<double> TestWorseLog(std::vector<double> series_logs) {
  std::erase_if(series_logs, [](double p) { return !std::isfinite(p); });
  if (series_logs.empty()) return std::nullopt;
  return Median(std::move(series_logs));
}

bool SameReadPath(const std::string& a, const std::string& b) {
  return ReadPathOf(a) == ReadPathOf(b);
}

bool IsDriveWide(const std::string& test, std::int64_t from, std::int64_t to,
                 const std::vector<TestRunScore>& others, const DetectionConfig& cfg) {
  std::map<std::string, double> highest;  // test -> its highest score in the window
  for (const TestRunScore& r : others) {
    if (SameReadPath(test, r.test) || r.at < from - 86400 || r.at > to) continue;
    // A test better than its baseline is not worse: it counts as 0, not as
    // evidence against the others (so the hold was measured and tuned).
    const double score = std::max(0.0, r.score);
    auto [it, fresh] = highest.try_emplace(r.test, score);
    if (!fresh) it->second = std::max(it->second, score);
  }
  // A path is worse when its tests' highest scores average drive_wide_score:
  // either of zones and seq alone being worse (four series between them)
  // happened by chance often enough to hold 2.5% of real p99 rises.
  std::map<std::string, std::pair<double, int>> paths;  // path -> sum, tests
  for (const auto& [t, score] : highest) {
    auto& p = paths[ReadPathOf(t)];
    p.first += score;
    ++p.second;
  }
  if (static_cast<int>(paths.size()) < std::max(1, cfg.drive_wide_min_tests)) return false;
  double sum = 0;
  for (const auto& [path, p] : paths) {
    const double score = p.first / p.second;
    if (score < cfg.drive_wide_least_score) return false;
    sum += score;
  }
  return sum / static_cast<double>(paths.size()) >= cfg.drive_wide_score;
}

namespace {

// The worse shift (log scale) the other read paths share in the window: per
// test its largest in the window, averaged over the path's tests, then over
// the paths. Their mean, not the least of them: one path's median read low
// by chance (random's four series at 5% noise, heavy-tailed p99 among them)
// can release an interfered zones pair the others explain. nullopt when
// a test has no run with a shift there.
std::optional<double> SharedShift(const std::string& test, std::int64_t from, std::int64_t to,
                                  const std::vector<TestRunScore>& others) {
  // test -> its largest known shift in the window (a run still forming its
  // baseline has none)
  std::map<std::string, std::optional<double>> largest;
  for (const TestRunScore& r : others) {
    if (SameReadPath(test, r.test) || r.at < from - 86400 || r.at > to) continue;
    std::optional<double>& l = largest[r.test];
    if (r.worse_log && std::isfinite(*r.worse_log))
      l = std::max(l.value_or(*r.worse_log), *r.worse_log);
  }
  if (largest.empty()) return std::nullopt;
  std::map<std::string, std::pair<double, int>> paths;  // path -> sum, tests
  for (const auto& [t, shift] : largest) {
    if (!shift) return std::nullopt;
    auto& p = paths[ReadPathOf(t)];
    p.first += *shift;
    ++p.second;
  }
  double sum = 0;
  for (const auto& [path, p] : paths) sum += p.first / p.second;
  return sum / static_cast<double>(paths.size());
}

}  // namespace

namespace {

// v's single-run band on the worse side, as a worse log deviation from its
// baseline's centre; nullopt when v has no band or no baseline.
std::optional<double> WorseWidthOf(const Verdict& v) {
  if (!v.baseline_center) return std::nullopt;
  const Direction dir = DirectionOf(v.metric);
  const std::optional<double> edge = dir == Direction::kHigherIsBetter ? v.band_low : v.band_high;
  if (!edge) return std::nullopt;
  const double width = WorseLog(*edge, *v.baseline_center, dir);
  if (!std::isfinite(width) || width <= 0) return std::nullopt;
  return width;
}

double WorseThanCenter(const Verdict& v, double value) {
  return WorseLog(value, *v.baseline_center, DirectionOf(v.metric));
}

}  // namespace

bool DriveWideExplains(const Verdict& v, const std::string& test, std::int64_t from,
                       std::int64_t to, const std::vector<TestRunScore>& others,
                       const DetectionConfig& cfg) {
  if (!IsDriveWide(test, from, to, others, cfg)) return false;
  if (v.runs.size() < 2) return true;
  const std::optional<double> width = WorseWidthOf(v);
  const std::optional<double> shift = SharedShift(test, from, to, others);
  if (!width || !shift) return true;
  // The last two outside runs in the window: a pair's two runs, or what a
  // CUSUM's last excursion measured.
  double drop = std::numeric_limits<double>::infinity();
  int compared = 0;
  for (auto it = v.runs.rbegin(); it != v.runs.rend() && compared < 2; ++it) {
    if (it->at < from) break;
    if (!it->outside || it->at > to) continue;
    const double d = WorseThanCenter(v, it->value);
    if (!std::isfinite(d)) return true;  // nothing to compare: held, as before
    drop = std::min(drop, d);
    ++compared;
  }
  if (compared == 0) return true;
  return drop - std::max(0.0, *shift) < *width;
}

bool LatestStandsOut(const Verdict& v, const std::string& test,
                     const std::vector<TestRunScore>& others) {
  if (v.runs.empty() || !v.runs.back().outside) return false;
  const EvidenceRun& last = v.runs.back();
  const std::optional<double> width = WorseWidthOf(v);
  if (!width) return false;
  const double drop = WorseThanCenter(v, last.value);
  if (!std::isfinite(drop)) return false;
  std::vector<TestRunScore> near;
  for (const TestRunScore& r : others)
    if (r.at >= last.at - kNearSeconds && r.at <= last.at + kNearSeconds) near.push_back(r);
  // SharedShift reaches a day back from `from`: only the near runs are given.
  const std::optional<double> shift = SharedShift(test, last.at, last.at + kNearSeconds, near);
  if (!shift) return false;
  return drop - std::max(0.0, *shift) >= *width;
}

bool BeyondBand(const Verdict& v, double value, double share) {
  const std::optional<double> width = WorseWidthOf(v);
  if (!width) return false;
  const double drop = WorseThanCenter(v, value);
  return std::isfinite(drop) && drop > share * *width;
}

bool WasInterference(const Verdict& v, const std::string& test, const Sample& run,
                     std::int64_t to, const std::vector<TestRunScore>& others,
                     const DetectionConfig& cfg) {
  if (!BeyondBand(v, run.value) || !v.current || BeyondBand(v, *v.current, 0.5))
    return false;
  // The run's own moment: the other paths' runs within kNearSeconds of it.
  // IsDriveWide and SharedShift reach a day back; a re-test's day holds its
  // scheduled run's interfered tests, and would call a clean re-test
  // interference too.
  to = std::min(to, run.at + kNearSeconds);
  std::vector<TestRunScore> near;
  for (const TestRunScore& r : others)
    if (r.at >= run.at - kNearSeconds && r.at <= to) near.push_back(r);
  if (!IsDriveWide(test, run.at, to, near, cfg)) return false;
  const std::optional<double> shift = SharedShift(test, run.at, to, near);
  // A shift interference makes (10-60%), not the few percent of a warm week
  // or a box-wide change, which move every path together too.
  if (!shift || *shift < LowFloor(cfg.confirm_min_percent)) return false;
  return WorseThanCenter(v, run.value) - *shift < *WorseWidthOf(v);
}

std::optional<double> NeighbourShift(const std::vector<SeriesRuns>& test, std::int64_t run_id,
                                     std::int64_t around) {
  constexpr std::size_t kNeighbours = 8;
  constexpr std::size_t kLeast = 4;
  std::vector<double> shifts;
  for (const SeriesRuns& series : test) {
    const Sample* run = nullptr;
    std::vector<std::pair<std::int64_t, double>> near;  // distance, log value
    for (const Sample& s : series.samples) {
      if (s.run_id == run_id) run = &s;
      if (s.Good() && !s.interfered && std::llabs(s.at - around) > 86400)
        near.emplace_back(std::llabs(s.at - around), std::log(s.value));
    }
    if (!run || !run->Good() || near.size() < kLeast) continue;
    const std::size_t k = std::min(kNeighbours, near.size());
    std::partial_sort(near.begin(), near.begin() + static_cast<std::ptrdiff_t>(k), near.end());
    std::vector<double> logs;
    for (std::size_t i = 0; i < k; ++i) logs.push_back(near[i].second);
    const double shift = WorseLog(run->value, std::exp(Median(std::move(logs))), series.direction);
    if (std::isfinite(shift)) shifts.push_back(shift);
  }
  if (shifts.empty()) return std::nullopt;
  return Median(std::move(shifts));
}

bool WasYoungInterference(const std::string& test, double own, double back,
                          const std::vector<TestRunScore>& others, const DetectionConfig& cfg) {
  const double floor = LowFloor(cfg.confirm_min_percent);
  if (own < floor || back > floor / 2) return false;
  std::map<std::string, std::pair<double, int>> paths;  // path -> sum, tests
  for (const TestRunScore& r : others) {
    if (SameReadPath(test, r.test) || !r.worse_log || !std::isfinite(*r.worse_log)) continue;
    auto& p = paths[ReadPathOf(r.test)];
    p.first += *r.worse_log;
    ++p.second;
  }
  if (static_cast<int>(paths.size()) < std::max(1, cfg.drive_wide_min_tests)) return false;
  double sum = 0;
  for (const auto& [path, p] : paths) {
    const double shift = p.first / p.second;
    if (shift < floor / 2) return false;
    sum += shift;
  }
  return sum / static_cast<double>(paths.size()) >= 0.75 * floor;
}

std::int64_t ExcursionStart(const Verdict& v) {
  std::int64_t start = v.at;
  auto it = v.runs.rbegin();
  // A CUSUM verdict's last runs may be back inside: its excursion is the
  // last one its evidence holds.
  while (it != v.runs.rend() && !it->outside) ++it;
  for (; it != v.runs.rend() && it->outside; ++it) start = std::min(start, it->at);
  return start;
}

std::vector<std::int64_t> PassedInterference(const Verdict& v, const std::string& test,
                                             const std::vector<TestRunScore>& others,
                                             const DetectionConfig& cfg) {
  std::vector<std::int64_t> out;
  // Interference still in force: the hold decides (pair_drive_wide).
  const std::int64_t pair = PairStart(v);
  if (DriveWideExplains(v, test, pair, v.at, others, cfg)) return out;
  for (std::size_t i = 0; i + 1 < v.runs.size(); ++i) {
    const EvidenceRun& r = v.runs[i];
    if (r.at >= pair) break;
    // One run's window: the drive's other tests from a day before it until
    // the series' next run, at most a day after it (a scheduled run's other
    // tests run after it, a re-test's before it), and only its own value
    // to explain.
    const std::int64_t to = std::min(r.at + 86400, v.runs[i + 1].at - 1);
    if (r.outside && DriveWideExplains(v, test, r.at, std::max(r.at, to), others, cfg))
      out.push_back(r.run_id);
  }
  return out;
}

std::vector<Sample> WithoutRuns(std::vector<Sample> history,
                                const std::vector<std::int64_t>& run_ids) {
  std::erase_if(history, [&](const Sample& s) {
    return std::find(run_ids.begin(), run_ids.end(), s.run_id) != run_ids.end();
  });
  return history;
}

std::int64_t EvidenceStart(const Verdict& v) {
  std::int64_t start = v.at;
  for (const EvidenceRun& r : v.runs) start = std::min(start, r.at);
  return start;
}

std::int64_t PairStart(const Verdict& v) {
  return v.runs.size() >= 2 ? v.runs[v.runs.size() - 2].at : v.at;
}

bool IsHeldKind(const Verdict& v) {
  const ConditionKind kind = ConditionKindOf(v.condition);
  return (v.kind == VerdictKind::kSlowdown && kind == ConditionKind::kSlowdown) ||
         (v.kind == VerdictKind::kPeerOutlier && kind == ConditionKind::kPeer);
}

Verdict HoldSlowdown(Verdict v, bool confirmation_run, bool drive_wide,
                     const DetectionConfig& cfg, bool pair_drive_wide, bool alone) {
  if (!IsHeldKind(v)) return v;
  const std::int64_t hold = static_cast<std::int64_t>(cfg.drive_wide_hold_days * 86400);
  const std::int64_t span = v.at - ExcursionStart(v);
  drive_wide = drive_wide || pair_drive_wide;
  if (drive_wide) v.details["drive_wide"] = true;
  // Released from a drive-wide hold only by the two runs after it: the next
  // scheduled run and its re-test must both be outside the band themselves,
  // so a segment kept open by the interfered runs cannot alert on one
  // ordinary run after them.
  const bool fresh_pair = v.runs.size() >= 2 && v.runs.back().outside &&
                          v.runs[v.runs.size() - 2].outside;
  const bool persisted = span >= hold && fresh_pair;
  // Against its siblings, a drive worse on every read path in two cycles a
  // week apart, re-test included, is the drive: the siblings ran in the same
  // windows and stayed where they were, and unseen interference does not
  // last a week (a fail-slow drive is slow on every path; held for it, a
  // drive that slowed on every test was never told).
  const bool peer = ConditionKindOf(v.condition) == ConditionKind::kPeer;
  if (confirmation_run && (!drive_wide || persisted) &&
      (!pair_drive_wide || ((peer || alone) && persisted))) {
    if (drive_wide)
      v.summary += "; every test of the drive was worse too, and it outlasted a scheduled run";
    return v;
  }
  v.kind = VerdictKind::kNeedsConfirmation;
  v.severity = Severity::kInfo;
  if (drive_wide) {
    v.details["waiting_for"] = "the next scheduled run and its re-test";
    v.summary +=
        "; every test of the drive is worse in the same window (unseen interference looks like "
        "this): held until the next scheduled run and its re-test see it too";
  } else {
    v.details["waiting_for"] = "its re-test";
    v.summary += "; alerted if its re-test confirms it";
  }
  return v;
}

}  // namespace dp::detect
