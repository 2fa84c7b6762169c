#include "detect/peer_detector.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <numbers>
#include <optional>
#include <set>

#include "detect/baseline.h"
#include "detect/robust_stats.h"
#include "detect/student_t.h"
#include "detect/verdict_text.h"

namespace dp::detect {
namespace {

struct Window {
  bool judged = false;  // enough siblings
  bool outside = false;
  double median = 0, mad = 0;
  double deviation = 0;  // log units, + = worse than the siblings' median
  double sd = 0;         // of the deviation: the drive's run against the median (log units)
  BandWidths widths;       // the single-window band around the median (log units)
  // The pair band: for the mean of two windows' deviations, or for each of
  // them when the metric is heavy-tailed (on_both; PairRuleOnBoth).
  BandWidths pair_widths;
  bool on_both = false;
  nlohmann::json siblings = nlohmann::json::array();
};

// The series' run-to-run noise, pooled over the drive and its siblings
// (their baselines, each formed from its own runs: PoolSpread): df 0 while no
// drive of the set has a formed baseline. Histories in chronological order.
SpreadPrior PeerNoise(const SeriesKey& self, const std::vector<Sample>& self_history,
                      const std::vector<PeerHistory>& siblings, const DetectionConfig& cfg,
                      Direction dir) {
  std::vector<Baseline> own;
  auto add = [&](const std::vector<Sample>& h) {
    own.push_back(ComputeBaseline(h, h.size(), cfg, 0, dir, TailDfOf(self.metric)));
  };
  add(self_history);
  for (const auto& peer : siblings)
    if (peer.drive_id != self.drive_id) add(peer.samples);
  return PoolSpread(own);
}

// The reference a window is judged against: the siblings' median as if it
// were a baseline, with the series' pooled noise (PeerNoise), so a noisy
// series (a short-stroke seek, a p99) is not judged by a fixed percentage
// that its ordinary runs cross. The median of k siblings' runs stands for a
// mean of n_eff runs: 2 for two (their mean), 2k/pi for more (the median's
// efficiency; Kenney & Keeping 1962), rounded down; the bands are then the
// prediction bands for one run (and the mean of two) of baseline.h, with the
// pooled degrees of freedom.
Baseline PeerReference(const SpreadPrior& noise, int siblings, double tail_df) {
  Baseline ref;
  ref.ready = true;
  ref.runs = siblings <= 2 ? std::max(1, siblings)
                           : std::max(1, static_cast<int>(2 * siblings / std::numbers::pi));
  ref.tail_df = tail_df;
  if (noise.df > 0) {
    ref.log_sigma = ref.own_log_sigma = noise.log_sd;
    ref.prior_df = std::max(0.0, noise.df - (ref.runs - 1));
  }
  return ref;
}

// The peer rule is a second test of every series of the drive, and the
// drive's false-alert budget is one (baseline.h): its pair band is set at a
// tenth of the own rule's pair probability (Bonferroni), 4.97 sigmas for the
// default 4.5. At the own rule's 4.5 a drive spends its whole budget on each
// of its several peer series: a healthy vdev raises peer alerts several
// times the budget. The floors are cfg.peer_min_percent.
constexpr double kPeerBudgetShare = 10;

DetectionConfig PeerConfig(const DetectionConfig& cfg) {
  DetectionConfig c = cfg;
  c.min_band_percent = c.confirm_min_percent = cfg.peer_min_percent;
  c.confirm_sigmas = NormalQuantile(1 - NormalCdf(-cfg.confirm_sigmas) / kPeerBudgetShare);
  return c;
}

// The good run of `sorted` (chronological) closest to `at` within +-window.
const Sample* ClosestGood(const std::vector<Sample>& sorted, std::int64_t at, std::int64_t window) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), at,
                             [](const Sample& x, std::int64_t t) { return x.at < t; });
  const Sample* best = nullptr;
  auto consider = [&](const Sample& p) {
    if (p.Good() && (!best || std::llabs(p.at - at) < std::llabs(best->at - at))) best = &p;
  };
  for (auto f = it; f != sorted.end() && f->at - at <= window; ++f) consider(*f);
  for (auto b = it; b != sorted.begin() && at - std::prev(b)->at <= window; --b) consider(*std::prev(b));
  return best;
}

// siblings: each one's samples in chronological order. describe: fill in
// w.siblings (the verdict's evidence), not needed for the usual standing.
Window Judge(const SeriesKey& self, const Sample& s, const std::vector<PeerHistory>& siblings,
             const SpreadPrior& noise, const DetectionConfig& cfg, Direction dir,
             bool describe = true) {
  Window w;
  std::vector<double> values;
  for (const auto& peer : siblings) {
    if (peer.drive_id == self.drive_id) continue;
    const Sample* best = ClosestGood(peer.samples, s.at, cfg.peer_window_seconds);
    if (!best) continue;
    values.push_back(best->value);
    if (!describe) continue;
    w.siblings.push_back({{"drive_id", peer.drive_id},
                          {"drive_name", peer.drive_name},
                          {"run_id", best->run_id},
                          {"at", best->at},
                          {"value", best->value}});
  }
  if (static_cast<int>(values.size()) < cfg.peer_min_siblings) return w;
  w.judged = true;
  w.median = Median(values);
  w.mad = Mad(values);
  if (!(w.median > 0)) {
    w.judged = false;
    return w;
  }
  // The siblings' own spread (a sibling unlike the rest widens the band),
  // the series' noise, and the floor: the widest of the three.
  const double mad_sigma = cfg.peer_sigmas * kMadToSigma *
                           MadSmallSampleFactor(static_cast<int>(values.size())) * w.mad /
                           w.median;
  const DetectionConfig peer_cfg = PeerConfig(cfg);
  const Baseline ref =
      PeerReference(noise, static_cast<int>(values.size()), TailDfOf(self.metric));
  auto widen = [&](BandWidths b) {
    return BandWidths{std::max(b.low, mad_sigma), std::max(b.high, mad_sigma)};
  };
  w.widths = widen(SingleWidths(ref, peer_cfg));
  // The change rule's pair band (PairRuleWidths, baseline.h): the mean of
  // two windows of a heavy-tailed figure is about as heavy-tailed as one, so
  // one wild window carried a pair's mean past the band (a seek stroke 75%
  // and then 12% above its siblings' median is one wild window and one
  // ordinary one, not a slow drive); for those both windows must be beyond it.
  w.pair_widths = widen(PairRuleWidths(ref, peer_cfg));
  w.on_both = PairRuleOnBoth(ref);
  w.deviation = dir == Direction::kHigherIsBetter ? std::log(w.median / s.value)
                                                  : std::log(s.value / w.median);
  w.outside = w.deviation > (dir == Direction::kHigherIsBetter ? w.widths.low : w.widths.high);
  w.sd = noise.log_sd * std::sqrt(1 + 1.0 / ref.runs);
  return w;
}

// The drive's usual standing among its siblings: the median deviation (log
// units, + = worse) over its latest cfg.baseline_max_runs good runs before
// `before_index` that had enough siblings in their window; nullopt with fewer than cfg.baseline_runs of
// them. A unit of a model is a little faster or slower than the next for
// its whole life (units of one model differ by a few percent): a drive
// usually 7% behind its siblings reads 10% behind them on an ordinary pair
// often enough to spend a drive's false-alarm budget several times over.
std::optional<double> UsualStanding(const SeriesKey& self, const std::vector<Sample>& history,
                                    std::size_t before_index,
                                    const std::vector<PeerHistory>& siblings,
                                    const SpreadPrior& noise, const DetectionConfig& cfg,
                                    Direction dir,
                                    std::map<std::int64_t, double>* z_by_run = nullptr) {
  std::vector<double> deviations;
  const std::size_t end = std::min(before_index, history.size());
  const std::size_t most = static_cast<std::size_t>(std::max(1, cfg.baseline_max_runs));
  for (std::size_t i = end; i-- > 0 && deviations.size() < most;) {
    if (!history[i].Good()) continue;
    const Window w = Judge(self, history[i], siblings, noise, cfg, dir, false);
    if (!w.judged) continue;
    deviations.push_back(w.deviation);
    if (z_by_run && w.sd > 0) (*z_by_run)[history[i].run_id] = w.deviation / w.sd;
  }
  if (static_cast<int>(deviations.size()) < std::max(1, cfg.baseline_runs)) return std::nullopt;
  return Median(std::move(deviations));
}

// A peer verdict of the series, before anything is judged.
Verdict PeerVerdictOf(const SeriesKey& self) {
  Verdict v;
  v.drive_id = self.drive_id;
  v.drive_name = self.drive_name;
  v.condition = JoinCondition({"peer", self.test, self.series, self.metric});
  v.test = self.test;
  v.series = self.series;
  v.metric = self.metric;
  v.unit = UnitOf(self.metric);
  return v;
}

// The window before: the newest earlier run compared with other sibling
// runs than the latest. A run and its re-test hours later meet the same
// sibling runs, so they are one comparison twice, not two windows; a
// sibling's slow run (or the drive's housekeeping lasting past its re-test)
// would otherwise make a pair on its own.
struct EarlierWindow {
  const Sample* run = nullptr;
  std::optional<Window> window;
};

EarlierWindow WindowBefore(const SeriesKey& self, const std::vector<Sample>& history,
                           const Window& now, const std::vector<PeerHistory>& siblings,
                           const SpreadPrior& noise, const DetectionConfig& cfg, Direction dir) {
  std::set<std::int64_t> now_runs;
  for (const auto& sib : now.siblings) now_runs.insert(sib.value("run_id", std::int64_t{0}));
  for (auto it = history.rbegin() + 1; it != history.rend(); ++it) {
    if (!it->Good()) continue;
    Window w = Judge(self, *it, siblings, noise, cfg, dir);
    const bool shared = std::any_of(w.siblings.begin(), w.siblings.end(), [&](const auto& sib) {
      return now_runs.count(sib.value("run_id", std::int64_t{0})) > 0;
    });
    if (shared && w.judged) continue;
    return {&*it, std::move(w)};
  }
  return {};
}

// The latest two windows' excess over the usual lag, standardised, for the
// joint rule (JointPeerRule).
void FillStanding(PeerStanding& joint, const Sample& latest, const Sample& prev, const Window& now,
                  const Window& before, double lag) {
  if (!(now.sd > 0) || !(before.sd > 0)) return;
  joint.judged = true;
  joint.run_id = latest.run_id;
  joint.before_run_id = prev.run_id;
  joint.excess = now.deviation - lag;
  joint.before_excess = before.deviation - lag;
  joint.z = joint.excess / now.sd;
  joint.before_z = joint.before_excess / before.sd;
}

// "sdb seq MB/s is 18% below the median of its 3 siblings, 150 MB/s (120
// and 123 MB/s in two windows)".
std::string OutlierSentence(const SeriesKey& self, const std::string& pct, const char* worse_word,
                            const std::string& peers_text, const Sample& prev,
                            const Sample& latest, const std::string& unit) {
  return self.Who() + " " + self.test + (self.series.empty() ? "" : " " + self.series) + " " +
         MetricNoun(self.metric) + " is " + pct + " " + worse_word + " " + peers_text + " (" +
         FormatValue(prev.value, "") + " and " + FormatValue(latest.value, unit) +
         " in two windows)";
}

}  // namespace

Verdict EvaluatePeers(const SeriesKey& self, std::vector<Sample> self_history,
                      const std::vector<PeerHistory>& siblings, const DetectionConfig& cfg,
                      PeerStanding* joint) {
  // One run stored twice is one window, not the two a peer outlier needs.
  self_history = ChronologicalRuns(std::move(self_history));
  Verdict v = PeerVerdictOf(self);
  const std::string who = self.Who() + " " + self.Label();
  if (self_history.empty() || !self_history.back().Good()) {
    v.kind = VerdictKind::kInconclusive;
    if (!self_history.empty()) v.at = self_history.back().at;
    v.summary = who + ": latest run is not evidence";
    return v;
  }
  const Direction dir = DirectionOf(self.metric);
  const Sample& latest = self_history.back();
  v.at = latest.at;
  v.current = latest.value;
  // Siblings' histories in time order once: every window looks its runs up.
  std::vector<PeerHistory> sorted = siblings;
  for (auto& peer : sorted) peer.samples = ChronologicalRuns(std::move(peer.samples));
  const SpreadPrior noise = PeerNoise(self, self_history, sorted, cfg, dir);
  Window now = Judge(self, latest, sorted, noise, cfg, dir);
  v.details["siblings"] = now.siblings;
  if (!now.judged) {
    v.kind = VerdictKind::kInconclusive;
    v.summary = who + ": too few siblings measured in the same window (" +
                std::to_string(now.siblings.size()) + ", need " +
                std::to_string(cfg.peer_min_siblings) + ")";
    return v;
  }
  // Until some drive's baseline says how noisy the series is, a percentage
  // alone would judge it: two windows 10% apart come by chance from drives
  // of 10% noise in their first week.
  if (noise.df <= 0) {
    v.kind = VerdictKind::kInconclusive;
    v.summary = who + ": its noise is not known yet (the drives' baselines are still forming)";
    return v;
  }
  v.peer_median = now.median;
  v.band_low = now.median * std::exp(-now.widths.low);
  v.band_high = now.median * std::exp(now.widths.high);
  if (noise.df > 0) {
    v.details["noise_percent"] = 100 * noise.log_sd;
    v.details["noise_df"] = noise.df;
  }
  v.change_percent = WorsePercent(latest.value, now.median, dir);
  v.details["sibling_mad"] = now.mad;

  const EarlierWindow earlier = WindowBefore(self, self_history, now, sorted, noise, cfg, dir);
  const Sample* prev = earlier.run;
  const std::optional<Window>& before = earlier.window;
  // A drive that has stood within the floor of its siblings is judged
  // against where it usually stands (the excess over its usual lag), one
  // that has always been beyond the floor (a slower model or firmware
  // mixed in, a link at a lower rate) against the siblings themselves.
  const double floor_log = dir == Direction::kHigherIsBetter
                               ? -std::log1p(-cfg.peer_min_percent / 100)
                               : std::log1p(cfg.peer_min_percent / 100);
  const std::size_t pair_from =
      prev ? static_cast<std::size_t>(prev - self_history.data()) : self_history.size() - 1;
  const std::optional<double> usual = UsualStanding(
      self, self_history, pair_from, sorted, noise, cfg, dir, joint ? &joint->usual_z : nullptr);
  double lag = 0;  // the worse-side part of the usual standing that is discounted
  if (usual && *usual < floor_log) lag = std::max(0.0, *usual);
  if (joint && prev && before->judged) FillStanding(*joint, latest, *prev, now, *before, lag);
  if (usual) v.details["usual_deviation_percent"] = 100 * *usual;
  if (prev && before->judged)
    v.runs.push_back({prev->run_id, prev->at, prev->value, before->outside});
  v.runs.push_back({latest.run_id, latest.at, latest.value, now.outside});

  char pct[32];
  std::snprintf(pct, sizeof pct, "%.0f%%", std::fabs(*v.change_percent));
  const char* worse_word = dir == Direction::kHigherIsBetter ? "below" : "above";
  const std::string peers_text = "the median of its " + std::to_string(now.siblings.size()) +
                                 " siblings, " + FormatValue(now.median, v.unit);
  // A drive that has stood beyond the floor over its usual windows (at
  // least cfg.baseline_runs of them) and in both of the latest two is an
  // outlier whatever one window's noise band says: its standing is a median
  // of many windows, far steadier than one window against the siblings'
  // median of the same week (at 3% noise that band is ~16% wide with three
  // siblings, and a drive steadily 17% behind them sat inside it for good).
  // What production fleets flag as fail-slow is this persistence: a disk
  // slower than its host's median on most days.
  const bool standing = usual && *usual > floor_log && now.deviation > floor_log && prev &&
                        before->judged && before->deviation > floor_log;
  if (standing) {
    v.kind = VerdictKind::kPeerOutlier;
    v.severity = Severity::kWarning;
    v.details["rule"] = "stood beyond the floor in its usual windows and in the latest two";
    v.details["previous_siblings"] = before->siblings;
    v.details["previous_peer_median"] = before->median;
    char usual_text[64];
    std::snprintf(usual_text, sizeof usual_text, "%.0f%%", 100 * std::expm1(*usual));
    v.summary = OutlierSentence(self, pct, worse_word, peers_text, *prev, latest, v.unit) +
                "; it usually stands " + usual_text + " " + worse_word + " them";
  } else if (!now.outside) {
    v.kind = VerdictKind::kClear;
    v.summary = who + ": " + FormatValue(latest.value, v.unit) + " in line with " + peers_text;
  } else if (!(before && before->judged && before->outside) ||
             PairRuleDeviation(now.on_both, before->deviation, now.deviation) - lag <=
                 (dir == Direction::kHigherIsBetter ? now.pair_widths.low : now.pair_widths.high)) {
    v.kind = VerdictKind::kNeedsConfirmation;
    v.summary = who + ": " + FormatValue(latest.value, v.unit) + " is " + pct + " " + worse_word +
                " " + peers_text + "; re-test to confirm";
  } else {
    v.kind = VerdictKind::kPeerOutlier;
    v.severity = Severity::kWarning;
    v.details["previous_siblings"] = before->siblings;
    v.details["previous_peer_median"] = before->median;
    v.summary = OutlierSentence(self, pct, worse_word, peers_text, *prev, latest, v.unit);
    if (lag > 0) {
      char usual_text[96];
      std::snprintf(usual_text, sizeof usual_text, "; it usually stands %.0f%% %s them",
                    100 * std::expm1(lag), worse_word);
      v.summary += usual_text;
    }
  }
  return v;
}

JointPeerResult JointPeerRule(const std::vector<PeerStanding>& series, const DetectionConfig& cfg,
                              double own_sigmas) {
  JointPeerResult r;
  std::vector<const PeerStanding*> judged;
  for (const PeerStanding& s : series)
    if (s.judged) judged.push_back(&s);
  const int m = static_cast<int>(judged.size());
  r.series = m;
  if (m < 2) return r;
  auto capped = [](double z) { return std::clamp(z, -kJointZCap, kJointZCap); };
  double z = 0, before_z = 0, own = 0;
  for (const PeerStanding* s : judged) {
    z += capped(s->z) / m;
    before_z += capped(s->before_z) / m;
    r.excess += s->excess / m;
    r.before_excess += s->before_excess / m;
    own += capped(s->own_z) / m;
  }
  // The mean score of each usual window every series was judged in: its
  // spread is the joint score's own noise, correlation included.
  std::vector<double> usual;
  for (const auto& [run, first] : judged.front()->usual_z) {
    double sum = capped(first);
    bool every = true;
    for (int i = 1; i < m && every; ++i) {
      auto it = judged[i]->usual_z.find(run);
      every = it != judged[i]->usual_z.end();
      if (every) sum += capped(it->second);
    }
    if (every) usual.push_back(sum / m);
  }
  r.usual_windows = static_cast<int>(usual.size());
  if (r.usual_windows < std::max(2, cfg.baseline_runs)) return r;
  const double independent = 1 / std::sqrt(static_cast<double>(m));
  const double seen = kMadToSigma * MadSmallSampleFactor(r.usual_windows) * Mad(usual);
  r.sd = std::max(independent, seen);
  r.t = z / r.sd;
  r.before_t = before_z / r.sd;
  const double floor_log = -std::log1p(-cfg.peer_min_percent / 100);
  const double pair_sigmas = PeerConfig(cfg).confirm_sigmas;
  r.outlier = r.t > cfg.band_sigmas && r.before_t > cfg.band_sigmas &&
              (r.t + r.before_t) / std::sqrt(2.0) > pair_sigmas && r.excess > floor_log &&
              r.before_excess > floor_log && (own_sigmas <= 0 || own / independent > own_sigmas);
  return r;
}

}  // namespace dp::detect
