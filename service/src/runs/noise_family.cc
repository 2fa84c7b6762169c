#include "runs/noise_family.h"

#include "detect/drive_shift.h"
#include "detect/series.h"
#include "model/test_catalog.h"
#include "runs/rebaseline.h"
#include "store/detection_history.h"
#include "store/store.h"

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
  q.limit = kDetectionNewestRuns;  // the newest runs: the runs judged and the trend window
  return q;
}

Result<std::vector<NoiseFamilyMember>> NoiseFamilyMembers(Store& store,
                                                          const std::string& drive_id,
                                                          const std::string& test,
                                                          const DetectionConfig& cfg) {
  std::vector<NoiseFamilyMember> out;
  for (const TestInfo& info : TestCatalog()) {
    const std::string& other = info.name;
    if (!info.judged || !detect::SameReadPath(test, other)) continue;
    // The newest good, whole run of the test names its series.
    RunFilter filter;
    filter.drive_id = drive_id;
    filter.test = other;
    filter.outcome = RunOutcome::kOk;
    filter.limit = 8;
    DP_ASSIGN_OR_RETURN(std::vector<Run> runs, store.ListRuns(filter));
    const Run* newest = nullptr;
    for (const Run& r : runs)
      if (!r.contended && !r.partial && (!newest || r.started_at > newest->started_at))
        newest = &r;
    if (!newest) continue;
    DP_ASSIGN_OR_RETURN(const std::int64_t since, BaselineSince(store, drive_id, other));
    DP_ASSIGN_OR_RETURN(std::vector<BenchPoint> points, store.RunPoints(newest->id));
    for (const BenchPoint& point : points) {
      if (point.test != other) continue;
      for (const detect::SeriesSpec& spec : detect::SeriesOf(drive_id, "", point)) {
        DP_ASSIGN_OR_RETURN(
            std::vector<MeasurementSample> hist,
            DetectionHistory(store, SeriesQuery(drive_id, spec), since, cfg.baseline_max_runs));
        std::vector<detect::Sample> samples = detect::ToSamples(hist);
        out.push_back({spec.key, detect::ComputeBaseline(samples, samples.size(), cfg, since,
                                                         detect::DirectionOf(spec.key.metric),
                                                         detect::TailDfOf(spec.key.metric))});
      }
    }
  }
  return out;
}

detect::SpreadPrior FamilyPriorOf(const detect::SeriesKey& key,
                                  const std::vector<NoiseFamilyMember>& members) {
  std::vector<detect::Baseline> family;
  for (const NoiseFamilyMember& m : members)
    if (detect::SameNoiseFamily(key, m.key)) family.push_back(m.own);
  return detect::PoolSpread(family);
}

detect::SpreadPrior JointFloorOf(const std::string& test,
                                 const std::vector<NoiseFamilyMember>& members) {
  std::vector<detect::Baseline> own;
  for (const NoiseFamilyMember& m : members)
    if (m.key.test == test && m.key.metric == "mb_per_s")
      own.push_back(m.own);
  return detect::JointSpreadFloor(own);
}

}  // namespace dp
