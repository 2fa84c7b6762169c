// GET /api/v1/drives/{id}/history?test=seq&metric=mb_per_s&since=&limit=
// The samples behind a drive's trend charts, one series per
// zone/stroke/variant/block size/queue depth (detect's series), oldest first:
//   {"drive_id", "test", "metric", "unit", "direction": "higher_is_better"|
//    "lower_is_better", "series": [{"key", "zone", "stroke", "variant",
//    "block_size", "queue_depth", "samples": [{"run_id", "at", "value",
//    "contended", "partial", "unwritten"}], "baseline": null | {"ready", "runs", "wanted",
//    "median", "low", "high"}}], "baseline_since": unix seconds of the latest
//    re-baseline of this drive x test (0 = never)}
// The baseline and band are detect's own (ComputeBaseline/BandOf) over the
// returned samples since that re-baseline, so the page shows the band the
// detector judges against.
#include <algorithm>
#include <map>
#include <tuple>

#include "detect/baseline.h"
#include "detect/sample.h"
#include "http/api.h"
#include "http/resource_json.h"
#include "sched/rebaseline.h"
#include "store/store.h"

namespace dp::http {
namespace {

std::string SeriesKeyOf(const MeasurementSample& s) {
  std::string key;
  auto add = [&](const std::string& part) {
    if (part.empty()) return;
    if (!key.empty()) key += " ";
    key += part;
  };
  add(s.zone);
  add(s.stroke);
  add(s.variant);
  if (s.queue_depth) add("qd" + std::to_string(s.queue_depth));
  if (s.block_size)
    add(s.block_size % 1048576 == 0 ? std::to_string(s.block_size / 1048576) + "m"
                                    : std::to_string(s.block_size / 1024) + "k");
  return key.empty() ? "all" : key;
}

Response History(const ApiContext& ctx, const Request& request, const PathParams& params) {
  auto drive = FindDriveByRef(*ctx.store, params.at("id"));
  if (!drive) return ErrorResponse(404, "not_found", "no drive '" + params.at("id") + "'");
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
  // When the window cut off older samples, the baselines (which sit at the
  // start, from the re-baseline on) come from the oldest samples instead, as
  // the evaluator's do: otherwise a drive that stayed slow for longer than
  // the window would be drawn inside a band formed at its slow level.
  std::map<std::string, std::vector<MeasurementSample>> baseline_samples;
  if (hq.limit > 0 && static_cast<int>(samples->size()) >= hq.limit) {
    HistoryQuery head = hq;
    head.oldest = true;
    head.since = *since;
    head.limit = 16 * std::max(ctx.detection.baseline_max_runs, ctx.detection.baseline_runs);
    auto oldest = ctx.store->History(head);
    if (!oldest.ok()) return StatusResponse(oldest.status());
    for (MeasurementSample& s : *oldest) baseline_samples[SeriesKeyOf(s)].push_back(std::move(s));
  }

  // Group into series, keeping first-seen order and chronological samples.
  std::vector<std::string> order;
  std::map<std::string, std::vector<MeasurementSample>> by_key;
  for (const MeasurementSample& s : *samples) {
    std::string key = SeriesKeyOf(s);
    if (!by_key.count(key)) order.push_back(key);
    by_key[key].push_back(s);
  }
  const auto direction = detect::DirectionOf(hq.metric);
  nlohmann::json series = nlohmann::json::array();
  for (const std::string& key : order) {
    const auto& list = by_key[key];
    nlohmann::json points = nlohmann::json::array();
    for (const MeasurementSample& s : list)
      points.push_back({{"run_id", s.run_id},
                        {"at", s.at},
                        {"value", s.value},
                        {"contended", s.contended},
                        {"partial", s.partial},
                        {"unwritten", s.unwritten}});
    auto base = baseline_samples.find(key);
    auto det = detect::ToSamples(base != baseline_samples.end() ? base->second : list);
    detect::Baseline b = detect::ComputeBaseline(det, det.size(), ctx.detection, *since);
    nlohmann::json baseline = nullptr;
    if (b.runs > 0) {
      detect::Band band = detect::BandOf(b, ctx.detection);
      baseline = {{"ready", b.ready}, {"runs", b.runs},      {"wanted", b.wanted},
                  {"median", b.median}, {"low", band.low}, {"high", band.high}};
    }
    const MeasurementSample& first = list.front();
    series.push_back({{"key", key},
                      {"zone", first.zone},
                      {"stroke", first.stroke},
                      {"variant", first.variant},
                      {"block_size", first.block_size},
                      {"queue_depth", first.queue_depth},
                      {"samples", points},
                      {"baseline", baseline}});
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
