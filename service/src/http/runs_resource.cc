// Runs: run-now, progress, cancel, history.
//   POST /api/v1/runs {"drive": ID-or-name, "test": "seq", "force": false}
//        -> 202 {"id": N, "run": {...}}; 400 unknown drive/test/body; 503
//        without a running scheduler. The scheduler stores the run first.
//   GET  /api/v1/runs?drive=&test=&outcome=&limit=  newest first; active
//        runs carry their live progress.
//   GET  /api/v1/runs/{id}  the run (live while active) and, once stored,
//        its measured points.
//   POST /api/v1/runs/{id}/cancel -> 202 with the run; 404 unknown; 409 done.
#include <map>

#include "base/log.h"
#include "http/api.h"
#include "http/resource_json.h"
#include "sched/scheduler.h"
#include "store/store.h"

namespace dp::http {
namespace {

Response NoScheduler() {
  return ErrorResponse(503, "unavailable",
                       "the scheduler is not running in this daemon; try again shortly");
}

Response PostRun(const ApiContext& ctx, const Request& request) {
  auto body = ParseJsonObject(request);
  if (!body.ok()) return StatusResponse(body.status());
  const nlohmann::json& j = *body;
  auto drive_it = j.find("drive");
  if (drive_it == j.end() || !drive_it->is_string() || drive_it->get<std::string>().empty())
    return ErrorResponse(400, "bad_request",
                         "give the drive to test: {\"drive\": \"sda\", \"test\": \"seq\"}");
  RunRequest req;
  req.target = drive_it->get<std::string>();
  if (auto t = j.find("test"); t != j.end()) {
    if (!t->is_string()) return ErrorResponse(400, "bad_request", "\"test\" must be a string");
    req.test = t->get<std::string>();
  }
  if (auto f = j.find("force"); f != j.end()) {
    if (!f->is_boolean()) return ErrorResponse(400, "bad_request", "\"force\" must be true or false");
    req.force = f->get<bool>();
  }
  if (auto t = j.find("trigger"); t != j.end() && t->is_string() && t->get<std::string>() == "cli")
    req.trigger = "cli";
  if (!IsKnownTest(req.test)) {
    std::string known;
    for (const auto& k : KnownTests()) known += (known.empty() ? "" : ", ") + k;
    return ErrorResponse(400, "unknown_test",
                         "unknown test '" + req.test + "' (known: " + known + ")");
  }
  if (!ctx.scheduler) return NoScheduler();
  auto id = ctx.scheduler->RunNow(req);
  if (!id.ok()) {
    if (id.status().code() == StatusCode::kNotFound)
      return ErrorResponse(400, "unknown_drive", id.status().message());
    return StatusResponse(id.status());
  }
  LogInfo("http: run " + std::to_string(*id) + " requested: " + req.test + " on " + req.target +
          " from " + request.remote);
  nlohmann::json out = {{"id", *id}};
  if (auto run = ctx.scheduler->GetRun(*id); run.ok()) out["run"] = RunToJson(*run);
  Response r = JsonResponse(out, 202);
  r.SetHeader("Location", "/api/v1/runs/" + std::to_string(*id));
  return r;
}

Response ListRuns(const ApiContext& ctx, const Request& request) {
  auto q = request.Query();
  RunFilter filter;
  auto limit = ParseLimit(request, 50, 1000);
  if (!limit.ok()) return StatusResponse(limit.status());
  filter.limit = *limit;
  if (Status s = TakeDriveQuery(*ctx.store, q, filter.drive_id); !s.ok())
    return StatusResponse(s);
  if (auto it = q.find("test"); it != q.end()) filter.test = it->second;
  if (auto it = q.find("outcome"); it != q.end() && !it->second.empty()) {
    filter.outcome = ParseRunOutcome(it->second);
    if (!filter.outcome)
      return ErrorResponse(400, "bad_request",
                           "outcome must be one of queued, running, ok, failed, deferred, "
                           "skipped, cancelled");
  }
  auto runs = ctx.store->ListRuns(filter);
  if (!runs.ok()) return StatusResponse(runs.status());
  std::map<std::int64_t, Run> live;
  if (ctx.scheduler)
    for (Run& r : ctx.scheduler->ActiveRuns()) live[r.id] = std::move(r);
  nlohmann::json list = nlohmann::json::array();
  for (const Run& r : *runs) {
    auto it = live.find(r.id);
    list.push_back(RunToJson(it != live.end() ? it->second : r));
  }
  return JsonResponse(list);
}

Response GetRun(const ApiContext& ctx, const PathParams& params) {
  auto id = ParseId(params.at("id"));
  if (!id) return ErrorResponse(404, "not_found", "no run '" + params.at("id") + "'");
  Result<Run> run = NotFound("no run " + std::to_string(*id));
  if (ctx.scheduler) {
    run = ctx.scheduler->GetRun(*id);
  } else {
    auto stored = ctx.store->GetRun(*id);
    if (!stored.ok()) return StatusResponse(stored.status());
    if (*stored) run = **stored;
  }
  if (!run.ok()) return StatusResponse(run.status());
  nlohmann::json out = RunToJson(*run);
  nlohmann::json points = nlohmann::json::array();
  if (!out["active"].get<bool>()) {
    auto stored = ctx.store->RunPoints(*id);
    if (stored.ok())
      for (const BenchPoint& p : *stored) points.push_back(PointToJson(p));
  }
  out["points"] = points;
  return JsonResponse(out);
}

Response CancelRun(const ApiContext& ctx, const Request& request, const PathParams& params) {
  auto id = ParseId(params.at("id"));
  if (!id) return ErrorResponse(404, "not_found", "no run '" + params.at("id") + "'");
  if (!ctx.scheduler) return NoScheduler();
  Status s = ctx.scheduler->Cancel(*id);
  if (!s.ok()) return StatusResponse(s);
  LogInfo("http: run " + std::to_string(*id) + " cancelled from " + request.remote);
  nlohmann::json out = {{"id", *id}, {"cancel_requested", true}};
  if (auto run = ctx.scheduler->GetRun(*id); run.ok()) out["run"] = RunToJson(*run);
  return JsonResponse(out, 202);
}

}  // namespace

void AddRunsResource(Router& router, const ApiContext& ctx) {
  router.Post("/api/v1/runs",
              [ctx](const Request& r, const PathParams&) { return PostRun(ctx, r); });
  router.Get("/api/v1/runs",
             [ctx](const Request& r, const PathParams&) { return ListRuns(ctx, r); });
  router.Get("/api/v1/runs/{id}",
             [ctx](const Request&, const PathParams& p) { return GetRun(ctx, p); });
  router.Post("/api/v1/runs/{id}/cancel",
              [ctx](const Request& r, const PathParams& p) { return CancelRun(ctx, r, p); });
}

}  // namespace dp::http
