// GET /api/v1/drives/{id}/history?test=seq&metric=mb_per_s&since=&limit=&points=
// The samples behind a drive's trend charts, one series per
// zone/stroke/variant/block size/queue depth, oldest first:
//   {"drive_id", "test", "metric", "unit", "direction": "higher_is_better"|
//    "lower_is_better", "series": [{"key", "zone", "stroke", "variant",
//    "block_size", "queue_depth", "samples": [{"run_id", "at", "value",
//    "contended", "partial", "unwritten", "interfered"}], "samples_total": the
//    series' samples before points= thinned them, "baseline": null | {"ready", "runs", "wanted",
//    "median", "center", "low", "high", "noise_percent", "detectable":
//    {"change_percent", "runs"}}}], "baseline_since": unix seconds of the
//    latest re-baseline of this drive x test (0 = never)}
// "key" is detect::SeriesName, the series name alerts and verdicts carry
// ("qd8-1m", "outer", "full"); zones MB/s has one more, "combined": the
// geometric mean of its zones, which detection judges beside them
// (detect/series.h). The baseline and band are the judge's own
// (detect::SeriesBands over the store: the samples it reads, its family's
// pooled spread, the same replay), so the page draws the band the next run
// is judged against, and says what change the series can tell apart.
#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "detect/baseline.h"
#include "detect/downsample.h"
#include "detect/judge.h"
#include "detect/sample.h"
#include "detect/series.h"
#include "http/api.h"
#include "http/resource_json.h"
#include "runs/store_series_history.h"
#include "store/store.h"

namespace dp::http {
namespace {

// The series' name: detect's, the one alerts and verdicts carry.
std::string SeriesKeyOf(const std::string& test, const MeasurementSample& s) {
  std::string key =
      detect::SeriesName(test, s.zone, s.stroke, s.variant, s.block_size, s.queue_depth);
  return key.empty() ? "all" : key;
}

// A series' points for the chart, with what kept each out of the evidence.
nlohmann::json SamplesJson(const std::vector<detect::Sample>& list) {
  nlohmann::json points = nlohmann::json::array();
  for (const detect::Sample& s : list)
    points.push_back({{"run_id", s.run_id},
                      {"at", s.at},
                      {"value", s.value},
                      {"contended", s.contended},
                      {"partial", s.partial},
                      {"unwritten", s.unwritten},
                      {"interfered", s.interfered}});
  return points;
}

// points=N: each series thinned for a chart that many pixels wide, its dips
// kept (detect::DownsampleExtremes); 0 when absent (every sample), nullopt
// when not 2..10000.
std::optional<std::size_t> PointsOf(const Request& request) {
  auto q = request.Query();
  auto it = q.find("points");
  if (it == q.end()) return 0;
  auto v = ParseId(it->second);
  if (!v || *v < 2 || *v > 10000) return std::nullopt;
  return static_cast<std::size_t>(*v);
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
  const auto points = PointsOf(request);
  if (!points) return ErrorResponse(400, "bad_request", "points must be 2..10000");
  auto thin = [n = *points](std::vector<detect::Sample> all) {
    return n ? detect::DownsampleExtremes(all, n) : all;
  };
  auto samples = ctx.store->History(hq);
  if (!samples.ok()) return StatusResponse(samples.status());
  // Group into series, keeping first-seen order and chronological samples.
  std::vector<std::string> order;
  std::map<std::string, std::vector<MeasurementSample>> by_key;
  for (const MeasurementSample& s : *samples) {
    std::string key = SeriesKeyOf(hq.test, s);
    if (!by_key.count(key)) order.push_back(key);
    by_key[key].push_back(s);
  }
  const auto direction = detect::DirectionOf(hq.metric);
  // Each series' band as the judge forms it (its family's spread pooled, the
  // joint series floored by its members').
  std::vector<detect::SeriesSpec> specs;
  for (const std::string& key : order) {
    const MeasurementSample& first = by_key[key].front();
    detect::SeriesSpec spec;
    spec.key = {drive->id, drive->name, hq.test,
                detect::SeriesName(hq.test, first.zone, first.stroke, first.variant,
                                   first.block_size, first.queue_depth),
                hq.metric};
    spec.zone = first.zone;
    spec.stroke = first.stroke;
    spec.variant = first.variant;
    spec.block_size = first.block_size;
    spec.queue_depth = first.queue_depth;
    specs.push_back(std::move(spec));
  }
  StoreSeriesHistory judged(*ctx.store);
  auto since = judged.BaselineSince(drive->id, hq.test);
  if (!since.ok()) return StatusResponse(since.status());
  auto bands = detect::SeriesBands(judged, drive->id, hq.test, specs, ctx.detection);
  if (!bands.ok()) return StatusResponse(bands.status());
  nlohmann::json series = nlohmann::json::array();
  auto baseline_json = [&](const detect::SeriesBaseline& s) -> nlohmann::json {
    const detect::Baseline& b = s.baseline;
    if (b.runs == 0) return nullptr;
    const double probe = direction == detect::Direction::kHigherIsBetter ? 15 : 50;
    return {{"ready", b.ready},
            {"runs", b.runs},
            {"wanted", b.wanted},
            {"median", b.median},
            {"center", b.center},
            {"low", s.band.low},
            {"high", s.band.high},
            {"noise_percent", 100 * b.log_sigma},
            {"noise_own_percent", 100 * b.own_log_sigma},
            {"noise_pooled", b.prior_df > 0},
            {"noise_waiting_runs", b.waiting_runs()},
            {"detectable",
             {{"change_percent", probe},
              {"runs", detect::RunsToDetect(b, ctx.detection, probe, direction)}}}};
  };
  // Every sample of the query for the chart; the judged ones for the band.
  std::vector<std::vector<detect::Sample>> joint_all;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto& list = by_key[order[i]];
    const std::vector<detect::Sample> all = detect::ToSamples(list);
    const MeasurementSample& first = list.front();
    if (bands->joint) joint_all.push_back(all);
    series.push_back({{"key", order[i]},
                      {"zone", first.zone},
                      {"stroke", first.stroke},
                      {"variant", first.variant},
                      {"block_size", first.block_size},
                      {"queue_depth", first.queue_depth},
                      {"samples", SamplesJson(thin(all))},
                      {"samples_total", all.size()},
                      {"baseline", baseline_json(bands->series[i])}});
  }
  // The joint series the judge reads beside them, with the name its alerts
  // carry.
  if (bands->joint) {
    const std::vector<detect::Sample> joint = detect::JointSamples(joint_all);
    series.push_back({{"key", detect::kJointSeries},
                      {"zone", ""},
                      {"stroke", ""},
                      {"variant", ""},
                      {"block_size", 0},
                      {"queue_depth", 0},
                      {"samples", SamplesJson(thin(joint))},
                      {"samples_total", joint.size()},
                      {"baseline", baseline_json(*bands->joint)}});
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
