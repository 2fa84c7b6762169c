#include "detect/peer_detector.h"

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

struct Window {
  bool judged = false;  // enough siblings
  bool outside = false;
  double median = 0, mad = 0, margin = 0;
  nlohmann::json siblings = nlohmann::json::array();
};

Window Judge(const SeriesKey& self, const Sample& s, const std::vector<PeerHistory>& siblings,
             const DetectionConfig& cfg, Direction dir) {
  Window w;
  std::vector<double> values;
  for (const auto& peer : siblings) {
    if (peer.drive_id == self.drive_id) continue;
    const Sample* best = nullptr;
    for (const auto& p : peer.samples) {
      if (!p.Good() || std::llabs(p.at - s.at) > cfg.peer_window_seconds) continue;
      if (!best || std::llabs(p.at - s.at) < std::llabs(best->at - s.at)) best = &p;
    }
    if (!best) continue;
    values.push_back(best->value);
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
  w.margin = std::max(
      cfg.peer_sigmas * kMadToSigma * MadSmallSampleFactor(static_cast<int>(values.size())) * w.mad,
      cfg.peer_min_percent / 100.0 * std::fabs(w.median));
  w.outside = OutsideWorse(s.value, Band{w.median - w.margin, w.median + w.margin}, dir);
  return w;
}

}  // namespace

Verdict EvaluatePeers(const SeriesKey& self, std::vector<Sample> self_history,
                      const std::vector<PeerHistory>& siblings, const DetectionConfig& cfg) {
  std::stable_sort(self_history.begin(), self_history.end(), [](const Sample& a, const Sample& b) {
    return a.at != b.at ? a.at < b.at : a.run_id < b.run_id;
  });
  Verdict v;
  v.drive_id = self.drive_id;
  v.drive_name = self.drive_name;
  v.condition = JoinCondition({"peer", self.test, self.series, self.metric});
  v.test = self.test;
  v.series = self.series;
  v.metric = self.metric;
  v.unit = UnitOf(self.metric);
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
  Window now = Judge(self, latest, siblings, cfg, dir);
  v.details["siblings"] = now.siblings;
  if (!now.judged) {
    v.kind = VerdictKind::kInconclusive;
    v.summary = who + ": too few siblings measured in the same window (" +
                std::to_string(now.siblings.size()) + ", need " +
                std::to_string(cfg.peer_min_siblings) + ")";
    return v;
  }
  v.peer_median = now.median;
  v.band_low = now.median - now.margin;
  v.band_high = now.median + now.margin;
  v.change_percent = WorsePercent(latest.value, now.median, dir);
  v.details["sibling_mad"] = now.mad;

  const Sample* prev = nullptr;
  for (auto it = self_history.rbegin() + 1; it != self_history.rend(); ++it) {
    if (it->Good()) {
      prev = &*it;
      break;
    }
  }
  std::optional<Window> before;
  if (prev) before = Judge(self, *prev, siblings, cfg, dir);
  if (prev && before->judged)
    v.runs.push_back({prev->run_id, prev->at, prev->value, before->outside});
  v.runs.push_back({latest.run_id, latest.at, latest.value, now.outside});

  char pct[32];
  std::snprintf(pct, sizeof pct, "%.0f%%", std::fabs(*v.change_percent));
  const char* worse_word = dir == Direction::kHigherIsBetter ? "below" : "above";
  const std::string peers_text = "the median of its " + std::to_string(now.siblings.size()) +
                                 " siblings, " + FormatValue(now.median, v.unit);
  if (!now.outside) {
    v.kind = VerdictKind::kClear;
    v.summary = who + ": " + FormatValue(latest.value, v.unit) + " in line with " + peers_text;
  } else if (!(before && before->judged && before->outside)) {
    v.kind = VerdictKind::kNeedsConfirmation;
    v.summary = who + ": " + FormatValue(latest.value, v.unit) + " is " + pct + " " + worse_word +
                " " + peers_text + "; re-test to confirm";
  } else {
    v.kind = VerdictKind::kPeerOutlier;
    v.severity = Severity::kWarning;
    v.details["previous_siblings"] = before->siblings;
    v.details["previous_peer_median"] = before->median;
    v.summary = self.Who() + " " + self.test + (self.series.empty() ? "" : " " + self.series) +
                " " + MetricNoun(self.metric) + " is " + pct + " " + worse_word + " " + peers_text +
                " (" + FormatValue(prev->value, "") + " and " + FormatValue(latest.value, v.unit) +
                " in two windows)";
  }
  return v;
}

}  // namespace dp::detect
