#include "detect/memory_series_history.h"

#include <algorithm>

namespace dp::detect {

std::vector<Sample> JudgedWindow(const std::vector<Sample>& all, std::int64_t since,
                                 int baseline_max_runs, int newest) {
  if (static_cast<int>(all.size()) < newest) return all;  // the whole history
  const auto recent = all.end() - newest;
  std::vector<Sample> out;
  const std::size_t head = 2 * static_cast<std::size_t>(std::max(baseline_max_runs, 1));
  for (auto it = all.begin(); it != recent && out.size() < head; ++it)
    if (it->at >= std::max<std::int64_t>(since, 0) && it->at < recent->at) out.push_back(*it);
  out.insert(out.end(), recent, all.end());
  return out;
}

void MemorySeriesHistory::AddDrive(const DriveRef& drive) {
  for (DriveRef& d : drives_)
    if (d.id == drive.id) {
      d = drive;
      return;
    }
  drives_.push_back(drive);
}

void MemorySeriesHistory::AddVdev(const std::string& group,
                                  const std::vector<std::string>& member_ids) {
  for (auto& v : vdevs_)
    if (v.group == group) {
      v.members = member_ids;  // the vdev as it is now (a member replaced)
      return;
    }
  vdevs_.push_back({group, member_ids});
}

void MemorySeriesHistory::SetPresent(const std::string& drive_id, bool present) {
  if (present) absent_.erase(drive_id);
  else absent_.insert(drive_id);
}

void MemorySeriesHistory::SetSlowingBefore(
    std::function<bool(const std::string&, std::int64_t)> slowing) {
  slowing_ = std::move(slowing);
}

void MemorySeriesHistory::AddPeerJudged(std::int64_t run_id) {
  for (auto& [drive, runs] : runs_)
    for (StoredRun& r : runs)
      if (r.id == run_id) r.peer_judged = true;
}

void MemorySeriesHistory::AddRebaseline(const std::string& drive_id, const std::string& test,
                                        std::int64_t at) {
  marks_[drive_id].emplace_back(test, at);
}

void MemorySeriesHistory::AddInterference(const std::string& drive_id, std::int64_t run_id) {
  for (auto& [id, samples] : samples_) {
    if (std::get<0>(id) != drive_id) continue;
    for (Sample& s : samples)
      if (s.run_id == run_id) s.interfered = true;
  }
}

void MemorySeriesHistory::AddRun(const std::string& drive_id, StoredRun run,
                                 const std::vector<BenchPoint>& points) {
  run.series.clear();
  for (const BenchPoint& p : points) {
    if (p.test != run.test) continue;
    for (SeriesSpec& spec : SeriesOf(drive_id, "", p)) {
      const std::optional<double> value = FigureOf(p, spec.key.metric);
      if (!value) continue;  // not measured: the store keeps no row either
      Sample s;
      s.run_id = run.id;
      s.at = run.started_at;
      s.value = *value;
      s.contended = p.contended;
      s.partial = p.partial;
      s.unwritten = p.unwritten;
      samples_[IdOf(drive_id, spec)].push_back(s);
      if (run.Whole() && !p.contended && !p.partial) run.series.push_back(std::move(spec));
    }
  }
  runs_[drive_id].push_back(std::move(run));
}

Result<std::int64_t> MemorySeriesHistory::BaselineSince(const std::string& drive_id,
                                                        const std::string& test) {
  std::int64_t since = 0;
  if (auto it = marks_.find(drive_id); it != marks_.end())
    for (const auto& [t, at] : it->second)
      if (t.empty() || t == test) since = std::max(since, at);
  return since;
}

Result<std::vector<Sample>> MemorySeriesHistory::Samples(const std::string& drive_id,
                                                         const SeriesSpec& spec,
                                                         std::int64_t since,
                                                         int baseline_max_runs) {
  return JudgedWindow(All(drive_id, spec), since, baseline_max_runs);
}

Result<std::vector<StoredRun>> MemorySeriesHistory::GoodRuns(const std::string& drive_id,
                                                             const std::string& test,
                                                             std::int64_t since, int limit) {
  std::vector<StoredRun> out;
  auto it = runs_.find(drive_id);
  if (it == runs_.end()) return out;
  for (auto r = it->second.rbegin(); r != it->second.rend(); ++r) {
    if (limit > 0 && static_cast<int>(out.size()) >= limit) break;
    if (r->started_at < since) break;  // oldest first: nothing earlier qualifies
    if (test.empty() || r->test == test) out.push_back(*r);
  }
  return out;
}

Result<BoxLayout> MemorySeriesHistory::Box() {
  BoxLayout out;
  for (const DriveRef& d : drives_)
    if (!absent_.count(d.id)) out.drives.push_back(d);
  out.vdevs = vdevs_;
  return out;
}

Result<bool> MemorySeriesHistory::SlowingBefore(const std::string& drive_id, std::int64_t at) {
  return slowing_ && slowing_(drive_id, at);
}

Result<std::vector<Sample>> MemorySeriesHistory::PeerSamples(const std::string& drive_id,
                                                             const SeriesSpec& spec) {
  const std::vector<Sample>& all = All(drive_id, spec);
  if (static_cast<int>(all.size()) <= kJudgedRuns) return all;
  return std::vector<Sample>(all.end() - kJudgedRuns, all.end());
}

const std::vector<Sample>& MemorySeriesHistory::All(const std::string& drive_id,
                                                    const SeriesSpec& spec) const {
  static const std::vector<Sample> kNone;
  auto it = samples_.find(IdOf(drive_id, spec));
  return it == samples_.end() ? kNone : it->second;
}

MemorySeriesHistory::SpecId MemorySeriesHistory::IdOf(const std::string& drive_id,
                                                      const SeriesSpec& spec) {
  return {drive_id,        spec.key.test,    spec.zone,        spec.stroke,
          spec.variant,    spec.block_size,  spec.queue_depth, spec.key.metric};
}

}  // namespace dp::detect
