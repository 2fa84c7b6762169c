// GET /api/v1/drives: every drive ever seen (present ones first), [] if none.
// GET /api/v1/drives/{id}: one drive (by id, name, /dev path or basename)
//   with "smart" (the latest normalised SMART snapshot, null if none) and
//   "pools" (the pools/vdevs it is a member of in the latest observation),
//   "baseline_since" (unix seconds of its latest re-baseline, null if never)
//   and "rebaseline" (that mark: test, at, reason, who; null if never).
#include "http/api.h"
#include "http/api_drive_json.h"
#include "http/resource_json.h"
#include "model/smart_snapshot_json.h"
#include "store/store.h"

namespace dp::http {
namespace {

Response StoreError(const Status& status) {
  return ErrorResponse(500, "database", "database error: " + status.message());
}

nlohmann::json OptU(const std::optional<std::uint64_t>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json Membership(Store& store, const std::string& drive_id) {
  nlohmann::json out = nlohmann::json::array();
  auto pools = store.LatestPools();
  if (!pools.ok()) return out;
  for (const Pool& p : *pools)
    for (const Vdev& v : p.vdevs)
      for (const PoolMember& m : v.members)
        if (!m.container && m.drive_id == drive_id)
          out.push_back({{"pool", p.name},
                         {"kind", p.kind},
                         {"pool_state", p.state},
                         {"scan", p.scan.function},
                         {"scan_state", p.scan.state},
                         {"vdev", v.name},
                         {"vdev_type", v.type},
                         {"role", v.role},
                         {"path", m.path},
                         {"state", m.state},
                         {"read_errors", OptU(m.read_errors)},
                         {"write_errors", OptU(m.write_errors)},
                         {"checksum_errors", OptU(m.checksum_errors)}});
  return out;
}

}  // namespace

void AddDrivesResource(Router& router, const ApiContext& ctx) {
  router.Get("/api/v1/drives", [ctx](const Request&, const PathParams&) {
    auto drives = ctx.store->ListDrives();
    if (!drives.ok()) return StoreError(drives.status());
    nlohmann::json list = nlohmann::json::array();
    for (const Drive& d : *drives) list.push_back(ApiDriveToJson(d));
    return JsonResponse(list);
  });
  router.Get("/api/v1/drives/{id}", [ctx](const Request&, const PathParams& params) {
    auto found = DriveByRef(*ctx.store, params.at("id"));
    if (!found.ok()) return StatusResponse(found.status());
    nlohmann::json j = ApiDriveToJson(*found);
    auto smart = ctx.store->LatestSmart(found->id);
    if (!smart.ok()) return StoreError(smart.status());
    j["smart"] = *smart ? SmartSnapshotToJson(**smart) : nlohmann::json(nullptr);
    j["pools"] = Membership(*ctx.store, found->id);
    auto mark = ctx.store->LatestRebaseline(found->id, "");
    if (!mark.ok()) return StoreError(mark.status());
    j["baseline_since"] = *mark ? nlohmann::json((*mark)->at) : nlohmann::json(nullptr);
    j["rebaseline"] = *mark ? RebaselineToJson(**mark) : nlohmann::json(nullptr);
    return JsonResponse(j);
  });
}

}  // namespace dp::http
