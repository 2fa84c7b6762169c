// Re-baselining a drive on request, e.g. after a firmware update
// (AlertService::Rebaseline does the work, through runs/rebaseline.h).
//   POST /api/v1/drives/{id}/rebaseline  body (optional):
//        {"test": "seq", "reason": "new firmware SC61"}
//        -> 201 {"mark": {id, drive_id, test, at, reason, who},
//                "resolved_alerts": [the slowdown/trend alerts it closed]};
//        404 unknown drive; 400 unknown test, a test without a baseline
//        (smart, pool-write, ...), an unknown field or a bad body; 503 when
//        the daemon runs no alert service; the API token is required (the
//        router's rule for POST).
//   GET  /api/v1/drives/{id}/rebaseline -> 200 [marks, newest first]: every
//        request kept; the latest that applies to a test wins.
#include <set>

#include "base/log.h"
#include "config/schedule_config.h"
#include "http/api.h"
#include "http/resource_json.h"
#include "runs/rebaseline.h"
#include "store/store.h"

namespace dp::http {
namespace {

constexpr std::size_t kMaxReason = 500;

// The text field `key` of body, "" when absent; InvalidArgument when not text.
Result<std::string> TextField(const nlohmann::json& body, const char* key) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return std::string();
  if (!it->is_string()) return InvalidArgument(std::string(key) + " must be a string");
  return it->get<std::string>();
}

Result<RebaselineMark> ParseMark(const Request& request) {
  DP_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(request));
  static const std::set<std::string> kFields = {"test", "reason"};
  for (const auto& item : body.items())
    if (!kFields.count(item.key()))
      return InvalidArgument("unknown field '" + item.key() + "' (give test and/or reason)");
  RebaselineMark mark;
  DP_ASSIGN_OR_RETURN(mark.test, TextField(body, "test"));
  DP_ASSIGN_OR_RETURN(mark.reason, TextField(body, "reason"));
  if (!mark.test.empty() && !IsKnownTest(mark.test))
    return InvalidArgument("unknown test '" + mark.test + "'");
  DP_RETURN_IF_ERROR(ValidateRebaselineTest(mark.test));
  if (mark.reason.size() > kMaxReason)
    return InvalidArgument("reason is longer than " + std::to_string(kMaxReason) + " bytes");
  return mark;
}

Response Rebaseline(const ApiContext& ctx, const Request& request, const PathParams& params) {
  auto drive = DriveByRef(*ctx.store, params.at("id"));
  if (!drive.ok()) return StatusResponse(drive.status());
  auto mark = ParseMark(request);
  if (!mark.ok()) return StatusResponse(mark.status());
  mark->drive_id = drive->id;
  mark->at = ToUnixSeconds(ctx.clock->Now());
  mark->who = "api " + request.remote;
  // The alerts are closed under the alert service's lock, or not at all: a
  // mark without them would leave the alerts it was asked to close open.
  if (!ctx.alerts)
    return ErrorResponse(503, "unavailable", "alerts are not running in this daemon");
  auto done = RequestRebaseline(*ctx.alerts, *std::move(mark));
  if (!done.ok()) return StatusResponse(done.status());
  nlohmann::json resolved = nlohmann::json::array();
  for (const Alert& a : done->resolved) resolved.push_back(AlertToJson(a));
  return JsonResponse({{"mark", RebaselineToJson(done->mark)}, {"resolved_alerts", resolved}}, 201);
}

Response ListMarks(const ApiContext& ctx, const PathParams& params) {
  auto drive = DriveByRef(*ctx.store, params.at("id"));
  if (!drive.ok()) return StatusResponse(drive.status());
  auto marks = ctx.store->ListRebaselines(drive->id, 0);
  if (!marks.ok()) return StatusResponse(marks.status());
  nlohmann::json list = nlohmann::json::array();
  for (const RebaselineMark& m : *marks) list.push_back(RebaselineToJson(m));
  return JsonResponse(list);
}

}  // namespace

void AddRebaselineResource(Router& router, const ApiContext& ctx) {
  router.Post("/api/v1/drives/{id}/rebaseline",
              [ctx](const Request& r, const PathParams& p) { return Rebaseline(ctx, r, p); });
  router.Get("/api/v1/drives/{id}/rebaseline",
             [ctx](const Request&, const PathParams& p) { return ListMarks(ctx, p); });
}

}  // namespace dp::http
