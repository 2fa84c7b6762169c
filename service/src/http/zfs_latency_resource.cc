// GET /api/v1/drives/{id}/zfs?limit=N
// ZFS's own view of the drive as a pool member, between diskpulse's tests
// (sched/zfs_latency_sampler.h): its samplings, newest last, at most N
// (default 48, 1..1000), each beside the median of its vdev siblings in the
// same sampling (the figure detection judges, detect/zfs_latency_peers.h):
//   {"drive_id", "pool", "vdev", "member" (null without samples),
//    "samples": [{"at", "disk_wait_seconds", "siblings_median_seconds",
//    "siblings", "disk_wait_read_seconds", "disk_wait_write_seconds",
//    "total_wait_read_seconds", "total_wait_write_seconds",
//    "read_ops_per_second", "write_ops_per_second", "slow_ios"}]}
// (null where ZFS had nothing to say: no I/O of that kind, an old zpool).
#include <map>

#include "detect/robust_stats.h"
#include "detect/zfs_latency_peers.h"
#include "http/api.h"
#include "http/resource_json.h"
#include "model/json_fields.h"
#include "store/store.h"

namespace dp::http {
namespace {

using json_fields::OptOrNull;

Response ZfsLatency(const ApiContext& ctx, const Request& request, const PathParams& params) {
  auto drive = FindDriveByRef(*ctx.store, params.at("id"));
  if (!drive) return ErrorResponse(404, "not_found", "no drive '" + params.at("id") + "'");
  auto q = request.Query();
  int limit = 48;
  if (auto it = q.find("limit"); it != q.end()) {
    auto v = ParseId(it->second);
    if (!v || *v < 1 || *v > 1000) return ErrorResponse(400, "bad_request", "limit must be 1..1000");
    limit = static_cast<int>(*v);
  }
  auto mine = ctx.store->ZfsLatencyOfDrive(drive->id, limit);
  if (!mine.ok()) return StatusResponse(mine.status());
  nlohmann::json out = {{"drive_id", drive->id}, {"pool", nullptr}, {"vdev", nullptr},
                        {"member", nullptr}, {"samples", nlohmann::json::array()}};
  if (mine->empty()) return JsonResponse(out);
  const ZfsLatencySample& newest = mine->front();
  out["pool"] = newest.pool;
  out["vdev"] = newest.vdev;
  out["member"] = newest.member;
  // The siblings' figures at each sampling of this vdev.
  auto vdev = ctx.store->ZfsLatencyOfVdev(newest.pool, newest.vdev, limit);
  if (!vdev.ok()) return StatusResponse(vdev.status());
  std::map<std::int64_t, std::vector<double>> siblings;
  for (const auto& s : *vdev) {
    if (s.member == newest.member) continue;
    if (auto x = detect::ZfsDiskWait(s); x && *x > 0) siblings[s.at].push_back(*x);
  }
  for (auto it = mine->rbegin(); it != mine->rend(); ++it) {
    const ZfsLatencySample& s = *it;
    if (s.pool != newest.pool || s.vdev != newest.vdev) continue;  // an earlier pool
    const auto sib = siblings.find(s.at);
    std::optional<double> median;
    int count = 0;
    if (sib != siblings.end()) {
      count = static_cast<int>(sib->second.size());
      median = detect::Median(sib->second);
    }
    out["samples"].push_back({{"at", s.at},
                              {"disk_wait_seconds", OptOrNull(detect::ZfsDiskWait(s))},
                              {"siblings_median_seconds", OptOrNull(median)},
                              {"siblings", count},
                              {"disk_wait_read_seconds", OptOrNull(s.disk_wait_read)},
                              {"disk_wait_write_seconds", OptOrNull(s.disk_wait_write)},
                              {"total_wait_read_seconds", OptOrNull(s.total_wait_read)},
                              {"total_wait_write_seconds", OptOrNull(s.total_wait_write)},
                              {"read_ops_per_second", OptOrNull(s.read_ops)},
                              {"write_ops_per_second", OptOrNull(s.write_ops)},
                              {"slow_ios", OptOrNull(s.slow_ios)}});
  }
  return JsonResponse(out);
}

}  // namespace

void AddZfsLatencyResource(Router& router, const ApiContext& ctx) {
  router.Get("/api/v1/drives/{id}/zfs", [ctx](const Request& r, const PathParams& p) {
    return ZfsLatency(ctx, r, p);
  });
}

}  // namespace dp::http
