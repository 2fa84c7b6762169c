// GET /api/v1/drives/{id}/history?test=seq&metric=mb_per_s&since=&limit=
// The samples behind a drive's trend charts, one series per
// zone/stroke/variant/block size/queue depth, oldest first:
//   {"drive_id", "test", "metric", "unit", "direction": "higher_is_better"|
//    "lower_is_better", "series": [{"key", "zone", "stroke", "variant",
//    "block_size", "queue_depth", "samples": [{"run_id", "at", "value",
//    "contended", "partial", "unwritten"}], "baseline": null | {"ready", "runs", "wanted",
//    "median", "center", "low", "high", "noise_percent", "detectable":
//    {"change_percent", "runs"}}}], "baseline_since": unix seconds of the
//    latest re-baseline of this drive x test (0 = never)}
// "key" is detect::SeriesName, the series name alerts and verdicts carry
// ("qd8-1m", "outer", "full"); zones MB/s has one more, "combined": the
// geometric mean of its zones, which detection judges beside them
// (detect/series.h). The baseline and band are the detector's own:
// the series' samples as the evaluator reads them (DetectionHistory) through
// the same replay (detect::ComputeBaseline), so the page draws the band the
// next run is judged against, and says what change the series can tell apart.
#include <algorithm>
#include <map>
#include <tuple>

#include "detect/baseline.h"
#include "detect/sample.h"
#include "detect/series.h"
#include "http/api.h"
#include "http/resource_json.h"
#include "runs/noise_family.h"
#include "runs/rebaseline.h"
#include "store/detection_history.h"
#include "store/store.h"

namespace dp::http {
namespace {

// The series' name: detect's, the one alerts and verdicts carry.
std::string SeriesKeyOf(const std::string& test, const MeasurementSample& s) {
  std::string key =
      detect::SeriesName(test, s.zone, s.stroke, s.variant, s.block_size, s.queue_depth);
  return key.empty() ? "all" : key;
}

Response History(const ApiContext& ctx, const Request& request, const PathParams& params) {
  auto drive = DriveByRef(*ctx.store, params.at("id"));
  if (!drive.ok()) return StatusResponse(drive.status());
  auto q = request.Query();
  HistoryQuery hq;
  hq.drive_id = drive->id;
  hq.test = q.count("test") ? q["test"] : "";
  hq.metric = q.count("metric") ? q["metric"] : "";
  if (hq.test.empty() || hq.metric.empty())
    return ErrorResponse(400, "bad_request",
                         "give test and metric, e.g. ?test=seq&metric=mb_per_s");
  if (!IsKnownTest(hq.test))
    return ErrorResponse(400, "unknown_test", "unknown test '" + hq.test + "'");
  if (auto it = q.find("since"); it != q.end() && !it->second.empty()) {
    auto since = ParseId(it->second);
    if (!since) return ErrorResponse(400, "bad_request", "since must be unix seconds");
    hq.since = *since;
  }
  auto limit = ParseLimit(request, 500, 10000);
  if (!limit.ok()) return StatusResponse(limit.status());
  hq.limit = *limit;
  auto samples = ctx.store->History(hq);
  if (!samples.ok()) return StatusResponse(samples.status());
  auto since = BaselineSince(*ctx.store, drive->id, hq.test);
  if (!since.ok()) return StatusResponse(since.status());
  // Group into series, keeping first-seen order and chronological samples.
  std::vector<std::string> order;
  std::map<std::string, std::vector<MeasurementSample>> by_key;
  for (const MeasurementSample& s : *samples) {
    std::string key = SeriesKeyOf(hq.test, s);
    if (!by_key.count(key)) order.push_back(key);
    by_key[key].push_back(s);
  }
  const auto direction = detect::DirectionOf(hq.metric);
  // The series that share a noise source with these: the detector pools
  // their spread into each baseline, and so does the band drawn here.
  auto family = NoiseFamilyMembers(*ctx.store, drive->id, hq.test, ctx.detection);
  if (!family.ok()) return StatusResponse(family.status());
  nlohmann::json series = nlohmann::json::array();
  auto baseline_json = [&](const std::vector<detect::Sample>& det,
                           const detect::SpreadPrior& prior) -> nlohmann::json {
    detect::Baseline b = detect::ComputeBaseline(det, det.size(), ctx.detection, *since,
                                                 direction, detect::TailDfOf(hq.metric), prior);
    if (b.runs == 0) return nullptr;
    detect::Band band = detect::BandOf(b, ctx.detection);
    const double probe = direction == detect::Direction::kHigherIsBetter ? 15 : 50;
    return {{"ready", b.ready},
            {"runs", b.runs},
            {"wanted", b.wanted},
            {"median", b.median},
            {"center", b.center},
            {"low", band.low},
            {"high", band.high},
            {"noise_percent", 100 * b.log_sigma},
            {"noise_own_percent", 100 * b.own_log_sigma},
            {"noise_pooled", b.prior_df > 0},
            {"noise_waiting_runs", b.waiting_runs()},
            {"detectable",
             {{"change_percent", probe},
              {"runs", detect::RunsToDetect(b, ctx.detection, probe, direction)}}}};
  };
  auto samples_json = [](const std::vector<detect::Sample>& list) {
    nlohmann::json points = nlohmann::json::array();
    for (const detect::Sample& s : list)
      points.push_back({{"run_id", s.run_id},
                        {"at", s.at},
                        {"value", s.value},
                        {"contended", s.contended},
                        {"partial", s.partial},
                        {"unwritten", s.unwritten}});
    return points;
  };
  // The members of the test's joint series (detect/series.h): every sample
  // for the chart, the judged ones for its band.
  const bool joint = detect::HasJointSeries(hq.test) && hq.metric == "mb_per_s";
  std::vector<std::vector<detect::Sample>> joint_all, joint_judged;
  for (const std::string& key : order) {
    const auto& list = by_key[key];
    const std::vector<detect::Sample> all = detect::ToSamples(list);
    // The band is the detector's: the same samples (DetectionHistory, as the
    // evaluator reads them) through the same replay, so it is the band the
    // next run of this series is judged against.
    const MeasurementSample& first = list.front();
    HistoryQuery exact = hq;
    exact.since = 0;
    exact.zone = first.zone;
    exact.stroke = first.stroke;
    exact.variant = first.variant;
    exact.block_size = first.block_size;
    exact.queue_depth = first.queue_depth;
    auto judged =
        DetectionHistory(*ctx.store, exact, *since, ctx.detection.baseline_max_runs);
    if (!judged.ok()) return StatusResponse(judged.status());
    auto det = detect::ToSamples(*judged);
    const detect::SeriesKey series_key{
        drive->id, drive->name, hq.test,
        detect::SeriesName(hq.test, first.zone, first.stroke, first.variant, first.block_size,
                           first.queue_depth),
        hq.metric};
    if (joint) {
      joint_all.push_back(all);
      joint_judged.push_back(det);
    }
    series.push_back({{"key", key},
                      {"zone", first.zone},
                      {"stroke", first.stroke},
                      {"variant", first.variant},
                      {"block_size", first.block_size},
                      {"queue_depth", first.queue_depth},
                      {"samples", samples_json(all)},
                      {"baseline", baseline_json(det, FamilyPriorOf(series_key, *family))}});
  }
  // The joint series the evaluator judges beside them (not pooled; its
  // spread floored by its members'), with the name its alerts carry.
  if (joint && joint_all.size() >= 2) {
    series.push_back({{"key", detect::kJointSeries},
                      {"zone", ""},
                      {"stroke", ""},
                      {"variant", ""},
                      {"block_size", 0},
                      {"queue_depth", 0},
                      {"samples", samples_json(detect::JointSamples(joint_all))},
                      {"baseline", baseline_json(detect::JointSamples(joint_judged),
                                                 JointFloorOf(hq.test, *family))}});
  }
  return JsonResponse({{"drive_id", drive->id},
                       {"test", hq.test},
                       {"metric", hq.metric},
                       {"unit", detect::UnitOf(hq.metric)},
                       {"direction", direction == detect::Direction::kHigherIsBetter
                                         ? "higher_is_better"
                                         : "lower_is_better"},
                       {"series", series},
                       {"baseline_since", *since}});
}

}  // namespace

void AddHistoryResource(Router& router, const ApiContext& ctx) {
  router.Get("/api/v1/drives/{id}/history", [ctx](const Request& r, const PathParams& p) {
    return History(ctx, r, p);
  });
}

}  // namespace dp::http
