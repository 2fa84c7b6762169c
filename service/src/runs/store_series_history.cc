#include "runs/store_series_history.h"

#include <algorithm>
#include <utility>

#include "alert/alert_events.h"
#include "model/condition.h"
#include "runs/rebaseline.h"

namespace dp {

HistoryQuery SeriesQuery(const std::string& drive_id, const detect::SeriesSpec& spec) {
  HistoryQuery q;
  q.drive_id = drive_id;
  q.test = spec.key.test;
  q.metric = spec.key.metric;
  q.zone = spec.zone;
  q.stroke = spec.stroke;
  q.variant = spec.variant;
  q.block_size = spec.block_size;
  q.queue_depth = spec.queue_depth;
  q.limit = detect::kJudgedRuns;
  return q;
}

detect::DriveRef DriveRefOf(const Drive& drive) { return {drive.id, drive.name, drive.model}; }

Result<std::int64_t> StoreSeriesHistory::BaselineSince(const std::string& drive_id,
                                                       const std::string& test) {
  return dp::BaselineSince(store_, drive_id, test);
}

Result<std::vector<detect::Sample>> StoreSeriesHistory::Samples(const std::string& drive_id,
                                                                const detect::SeriesSpec& spec,
                                                                std::int64_t since,
                                                                int baseline_max_runs) {
  HistoryQuery q = SeriesQuery(drive_id, spec);
  DP_ASSIGN_OR_RETURN(std::vector<MeasurementSample> recent, store_.History(q));
  if (static_cast<int>(recent.size()) < q.limit) return detect::ToSamples(recent);
  // The newest runs do not reach back to where the baseline is: its oldest
  // runs since the mark too (detect::JudgedWindow says why).
  HistoryQuery head = q;
  head.oldest = true;
  head.since = std::max<std::int64_t>(since, 0);
  head.limit = 2 * std::max(baseline_max_runs, 1);
  DP_ASSIGN_OR_RETURN(std::vector<MeasurementSample> oldest, store_.History(head));
  std::vector<MeasurementSample> out;
  for (auto& s : oldest)
    if (s.at < recent.front().at) out.push_back(std::move(s));
  for (auto& s : recent) out.push_back(std::move(s));
  return detect::ToSamples(out);
}

Result<std::vector<detect::StoredRun>> StoreSeriesHistory::GoodRuns(const std::string& drive_id,
                                                                   const std::string& test,
                                                                   std::int64_t since,
                                                                   int limit) {
  RunFilter filter;
  filter.drive_id = drive_id;
  filter.test = test;
  filter.outcome = RunOutcome::kOk;
  filter.since = since;
  filter.limit = limit;
  DP_ASSIGN_OR_RETURN(std::vector<Run> runs, store_.ListRuns(filter));
  // Which of them were compared with their peers: one query, from the
  // oldest run returned on.
  std::set<std::int64_t> judged;
  if (!runs.empty()) {
    DP_ASSIGN_OR_RETURN(judged, store_.PeerJudgedSince(drive_id, std::max(since, runs.back().started_at)));
  }
  std::vector<detect::StoredRun> out;
  for (const Run& r : runs) {
    detect::StoredRun s{r.id, r.test, r.started_at, r.contended, r.partial, {}};
    s.confirmation = RunTriggerOf(r.trigger) == RunTrigger::kConfirm;
    s.peer_judged = judged.count(r.id) > 0;
    // The series of a run that is not whole are never read (no evidence).
    if (s.Whole()) {
      DP_ASSIGN_OR_RETURN(std::vector<BenchPoint> points, store_.RunPoints(r.id));
      for (const BenchPoint& p : points) {
        if (p.test != r.test || p.contended || p.partial) continue;
        for (detect::SeriesSpec& spec : detect::SeriesOf(drive_id, "", p))
          s.series.push_back(std::move(spec));
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

Result<detect::BoxLayout> StoreSeriesHistory::Box() {
  detect::BoxLayout out;
  DP_ASSIGN_OR_RETURN(std::vector<Drive> drives, store_.ListDrives());
  for (const Drive& d : drives)
    if (d.present) out.drives.push_back(DriveRefOf(d));
  DP_ASSIGN_OR_RETURN(std::vector<Pool> pools, store_.LatestPools());
  for (const Pool& pool : pools)
    for (const auto& vdev : pool.vdevs) {
      detect::BoxLayout::VdevMembers v{pool.name + "/" + vdev.name, {}};
      for (const auto& m : vdev.members)
        if (!m.drive_id.empty()) v.members.push_back(m.drive_id);
      out.vdevs.push_back(std::move(v));
    }
  return out;
}

Result<bool> StoreSeriesHistory::SlowingBefore(const std::string& drive_id, std::int64_t at) {
  AlertFilter f;
  f.state = "active";
  f.drive_id = drive_id;
  f.limit = 0;
  DP_ASSIGN_OR_RETURN(std::vector<Alert> open, store_.ListAlerts(f));
  return std::any_of(open.begin(), open.end(),
                     [&](const Alert& a) { return dp::SlowingBefore(a, at); });
}

Result<std::vector<detect::Sample>> StoreSeriesHistory::PeerSamples(
    const std::string& drive_id, const detect::SeriesSpec& spec) {
  DP_ASSIGN_OR_RETURN(std::vector<MeasurementSample> h, store_.History(SeriesQuery(drive_id, spec)));
  return detect::ToSamples(h);
}

}  // namespace dp
