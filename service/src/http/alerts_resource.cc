// Alerts.
//   GET  /api/v1/alerts?state=active|open|acknowledged|resolved|all&drive=&limit=
//        newest first; default state "active" (open or acknowledged).
//   GET  /api/v1/alerts/{id}
//   POST /api/v1/alerts/{id}/ack -> 200 with the alert; 404 unknown; 409
//        resolved; 503 without the alert service.
//   POST /api/v1/alerts/test -> 200 {"sinks": [{"sink", "ok", "error"}]}:
//        one test notification sent to every sink now, each sink's answer
//        reported (bounded by each sink's own timeout); 503 without alerts.
#include <set>

#include "alert/alert_dispatcher.h"
#include "alert/alert_service.h"
#include "alert/notification.h"
#include "base/log.h"
#include "http/api.h"
#include "http/resource_json.h"
#include "store/store.h"

namespace dp::http {
namespace {

Response ListAlerts(const ApiContext& ctx, const Request& request) {
  auto q = request.Query();
  AlertFilter filter;
  std::string state = "active";
  if (auto it = q.find("state"); it != q.end() && !it->second.empty()) state = it->second;
  static const std::set<std::string> kStates = {"active", "open", "acknowledged", "resolved",
                                                "all"};
  if (!kStates.count(state))
    return ErrorResponse(400, "bad_request",
                         "state must be one of active, open, acknowledged, resolved, all");
  filter.state = state == "all" ? "" : state;
  auto limit = ParseLimit(request, 100, 1000);
  if (!limit.ok()) return StatusResponse(limit.status());
  filter.limit = *limit;
  if (Status s = TakeDriveQuery(*ctx.store, q, filter.drive_id); !s.ok())
    return StatusResponse(s);
  auto alerts = ctx.store->ListAlerts(filter);
  if (!alerts.ok()) return StatusResponse(alerts.status());
  nlohmann::json list = nlohmann::json::array();
  for (const Alert& a : *alerts) list.push_back(AlertToJson(a, AlertMutedUntil(ctx, a)));
  return JsonResponse(list);
}

Response GetAlert(const ApiContext& ctx, const PathParams& params) {
  auto id = ParseId(params.at("id"));
  if (!id) return ErrorResponse(404, "not_found", "no alert '" + params.at("id") + "'");
  auto alert = ctx.store->GetAlert(*id);
  if (!alert.ok()) return StatusResponse(alert.status());
  if (!*alert) return ErrorResponse(404, "not_found", "no alert " + std::to_string(*id));
  return JsonResponse(AlertToJson(**alert, AlertMutedUntil(ctx, **alert)));
}

Response AckAlert(const ApiContext& ctx, const Request& request, const PathParams& params) {
  auto id = ParseId(params.at("id"));
  if (!id) return ErrorResponse(404, "not_found", "no alert '" + params.at("id") + "'");
  if (!ctx.alerts)
    return ErrorResponse(503, "unavailable", "alerts are not running in this daemon");
  auto alert = ctx.alerts->Acknowledge(*id);
  if (!alert.ok()) return StatusResponse(alert.status());
  LogInfo("http: alert " + std::to_string(*id) + " acknowledged from " + request.remote);
  return JsonResponse(AlertToJson(*alert, AlertMutedUntil(ctx, *alert)));
}

Response TestAlert(const ApiContext& ctx, const Request& request) {
  if (!ctx.dispatcher)
    return ErrorResponse(503, "unavailable", "alerts are not running in this daemon");
  LogInfo("http: test notification requested from " + request.remote);
  auto results = ctx.dispatcher->SendTest(MakeTestNotification(ctx.clock->Now(), ctx.host));
  nlohmann::json sinks = nlohmann::json::array();
  for (const SinkTestResult& r : results)
    sinks.push_back({{"sink", r.sink},
                     {"ok", r.status.ok()},
                     {"error", r.status.ok() ? nlohmann::json(nullptr)
                                             : nlohmann::json(r.status.message())}});
  return JsonResponse({{"sinks", sinks}});
}

}  // namespace

void AddAlertsResource(Router& router, const ApiContext& ctx) {
  router.Get("/api/v1/alerts",
             [ctx](const Request& r, const PathParams&) { return ListAlerts(ctx, r); });
  router.Get("/api/v1/alerts/{id}",
             [ctx](const Request&, const PathParams& p) { return GetAlert(ctx, p); });
  router.Post("/api/v1/alerts/{id}/ack",
              [ctx](const Request& r, const PathParams& p) { return AckAlert(ctx, r, p); });
  router.Post("/api/v1/alerts/test",
              [ctx](const Request& r, const PathParams&) { return TestAlert(ctx, r); });
}

}  // namespace dp::http
