// Retiring a drive that is gone for good (watch/health_checks.h ForgetDrive).
//   POST /api/v1/drives/{id}/forget  body (optional): {"reason": "replaced by S/N X"}
//        -> 200 {"drive": the drive as stored, with forgotten_at/forgotten_reason,
//                "resolved_alerts": [every alert of the drive that was active]};
//        404 unknown drive; 409 the drive is present (only a drive that is
//        gone can be forgotten); 400 an unknown field or a bad body; the API
//        token is required (the router's rule for POST).
// Its history stays; a forgotten drive that comes back is watched again.
#include "http/api.h"
#include "http/api_drive_json.h"
#include "http/resource_json.h"
#include "watch/health_checks.h"
#include "store/store.h"

namespace dp::http {
namespace {

constexpr std::size_t kMaxReason = 500;

Result<std::string> ParseReason(const Request& request) {
  DP_ASSIGN_OR_RETURN(nlohmann::json body, ParseJsonObject(request));
  std::string reason;
  for (const auto& item : body.items()) {
    if (item.key() != "reason")
      return InvalidArgument("unknown field '" + item.key() + "' (give reason)");
    if (!item.value().is_string()) return InvalidArgument("reason must be a string");
    reason = item.value().get<std::string>();
  }
  if (reason.size() > kMaxReason)
    return InvalidArgument("reason is longer than " + std::to_string(kMaxReason) + " bytes");
  return reason;
}

Response Forget(const ApiContext& ctx, const Request& request, const PathParams& params) {
  auto drive = DriveByRef(*ctx.store, params.at("id"));
  if (!drive.ok()) return StatusResponse(drive.status());
  auto reason = ParseReason(request);
  if (!reason.ok()) return StatusResponse(reason.status());
  const std::int64_t now = ToUnixSeconds(ctx.clock->Now());
  auto before = ctx.store->ListAlerts(AlertFilter{"active", drive->id, 0});
  if (!before.ok()) return StatusResponse(before.status());
  auto done = ForgetDrive(*ctx.store, ctx.alerts, drive->id, *reason, now);
  if (!done.ok()) return StatusResponse(done.status());
  nlohmann::json resolved = nlohmann::json::array();
  for (const Alert& a : *before) {
    auto now_stored = ctx.store->GetAlert(a.id);
    if (now_stored.ok() && *now_stored && (*now_stored)->state == "resolved")
      resolved.push_back(AlertToJson(**now_stored));
  }
  return JsonResponse({{"drive", ApiDriveToJson(*done)}, {"resolved_alerts", resolved}});
}

}  // namespace

void AddForgetResource(Router& router, const ApiContext& ctx) {
  router.Post("/api/v1/drives/{id}/forget",
              [ctx](const Request& r, const PathParams& p) { return Forget(ctx, r, p); });
}

}  // namespace dp::http
