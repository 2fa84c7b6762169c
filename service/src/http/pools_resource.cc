// GET /api/v1/pools: the pools of the latest discovery, pool -> vdevs ->
// members (PoolMapToJson) with what ZFS's newest sampling (of the last
// kZfsSamplingFreshSeconds) said of each member, [] when there are none.
#include "http/api.h"
#include "http/pool_map_json.h"
#include "http/resource_json.h"
#include "store/store.h"

namespace dp::http {
namespace {

std::map<std::string, std::string> DriveNames(Store& store) {
  std::map<std::string, std::string> names;
  auto drives = store.ListDrives();
  if (!drives.ok()) return names;
  for (const Drive& d : *drives) names[d.id] = d.name.empty() ? d.id : d.name;
  return names;
}

}  // namespace

void AddPoolsResource(Router& router, const ApiContext& ctx) {
  router.Get("/api/v1/pools", [ctx](const Request&, const PathParams&) {
    auto pools = ctx.store->LatestPools();
    if (!pools.ok()) return StatusResponse(pools.status());
    auto zfs =
        ctx.store->ZfsLatestSamplings(ToUnixSeconds(ctx.clock->Now()) - kZfsSamplingFreshSeconds);
    if (!zfs.ok()) return StatusResponse(zfs.status());
    return JsonResponse(PoolMapToJson(*pools, DriveNames(*ctx.store), *zfs));
  });
}

}  // namespace dp::http
