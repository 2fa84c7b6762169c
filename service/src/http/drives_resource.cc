// GET /api/v1/drives: every drive ever seen (present ones first), [] if none.
// GET /api/v1/drives/{id}: one drive by its stable id.
#include "http/api.h"
#include "http/drive_json.h"
#include "store/store.h"

namespace dp::http {
namespace {

Response StoreError(const Status& status) {
  return ErrorResponse(500, "database", "database error: " + status.message());
}

}  // namespace

void AddDrivesResource(Router& router, const ApiContext& ctx) {
  router.Get("/api/v1/drives", [ctx](const Request&, const PathParams&) {
    auto drives = ctx.store->ListDrives();
    if (!drives.ok()) return StoreError(drives.status());
    nlohmann::json list = nlohmann::json::array();
    for (const Drive& d : *drives) list.push_back(DriveToJson(d));
    return JsonResponse(list);
  });
  router.Get("/api/v1/drives/{id}", [ctx](const Request&, const PathParams& params) {
    const std::string& id = params.at("id");
    auto drive = ctx.store->GetDrive(id);
    if (!drive.ok()) return StoreError(drive.status());
    if (!drive->has_value()) return ErrorResponse(404, "not_found", "no drive with id " + id);
    return JsonResponse(DriveToJson(**drive));
  });
}

}  // namespace dp::http
