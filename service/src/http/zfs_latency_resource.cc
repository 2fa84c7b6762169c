// GET /api/v1/drives/{id}/zfs?limit=N
// ZFS's own view of the drive as a pool member, between diskpulse's tests
// (watch/zfs_latency_sampler.h): its samplings, newest last, at most N
// (default 48, 1..1000), each beside the median of its vdev siblings in the
// same sampling (the figure detection judges, detect/zfs_latency_peers.h):
//   {"drive_id", "pool", "vdev", "member" (null without samples),
//    "sit_out" (the newest sampling's; null: unknown),
//    "samples": [{"at", "disk_wait_seconds", "siblings_median_seconds",
//    "siblings", "disk_wait_read_seconds", "disk_wait_write_seconds",
//    "total_wait_read_seconds", "total_wait_write_seconds",
//    "read_ops_per_second", "write_ops_per_second", "slow_ios", "sit_out",
//    "histogram_seconds", "disk_wait_read_p50_seconds",
//    "disk_wait_read_p99_seconds", "disk_wait_write_p99_seconds"}],
//    "histogram": the disk waits of those samplings added up, beside the
//    siblings' (null when no sampling had one):
//    {"seconds", "bucket_upper_seconds", "read", "write", "siblings",
//     "siblings_read", "siblings_write"}}
// (null where ZFS had nothing to say: no I/O of that kind, an old zpool).
#include <algorithm>
#include <map>
#include <set>

#include "detect/robust_stats.h"
#include "detect/zfs_latency_peers.h"
#include "http/api.h"
#include "http/resource_json.h"
#include "model/json_fields.h"
#include "store/store.h"

namespace dp::http {
namespace {

using json_fields::OptOrNull;

nlohmann::json Quantile(const ZfsWaitHistogram* h,
                        std::vector<std::uint64_t> ZfsWaitHistogram::*side, double q) {
  if (!h) return nullptr;
  return OptOrNull(ZfsHistogramQuantile(h->*side, q));
}

Response ZfsLatency(const ApiContext& ctx, const Request& request, const PathParams& params) {
  auto drive = DriveByRef(*ctx.store, params.at("id"));
  if (!drive.ok()) return StatusResponse(drive.status());
  auto q = request.Query();
  int limit = 48;
  if (auto it = q.find("limit"); it != q.end()) {
    auto v = ParseId(it->second);
    if (!v || *v < 1 || *v > 1000) return ErrorResponse(400, "bad_request", "limit must be 1..1000");
    limit = static_cast<int>(*v);
  }
  auto mine = ctx.store->ZfsLatencyOfDrive(drive->id, limit);
  if (!mine.ok()) return StatusResponse(mine.status());
  nlohmann::json out = {{"drive_id", drive->id}, {"pool", nullptr},
                        {"vdev", nullptr},       {"member", nullptr},
                        {"sit_out", nullptr},    {"samples", nlohmann::json::array()},
                        {"histogram", nullptr}};
  if (mine->empty()) return JsonResponse(out);
  const ZfsLatencySample& newest = mine->front();
  out["pool"] = newest.pool;
  out["vdev"] = newest.vdev;
  out["member"] = newest.member;
  out["sit_out"] = OptOrNull(newest.sit_out);
  // The siblings' figures at each sampling of this vdev.
  auto vdev = ctx.store->ZfsLatencyOfVdev(newest.pool, newest.vdev, limit);
  if (!vdev.ok()) return StatusResponse(vdev.status());
  std::map<std::int64_t, std::vector<double>> siblings;
  std::map<std::int64_t, std::vector<const ZfsWaitHistogram*>> sibling_histograms;
  for (const auto& s : *vdev) {
    if (s.member == newest.member) continue;
    if (auto x = detect::ZfsDiskWait(s); x && *x > 0) siblings[s.at].push_back(*x);
    if (s.disk_wait_histogram) sibling_histograms[s.at].push_back(&*s.disk_wait_histogram);
  }
  // The member's disk waits over the samplings shown, and its siblings' over
  // the same samplings (only those where the member has one too).
  ZfsWaitHistogram total, sib_total;
  std::set<std::string> sib_members;
  bool any_histogram = false;
  auto add = [](std::vector<std::uint64_t>& to, const std::vector<std::uint64_t>& from) {
    if (to.size() < from.size()) to.resize(from.size(), 0);
    for (std::size_t i = 0; i < from.size(); ++i) to[i] += from[i];
  };
  for (const auto& s : *mine) {
    if (s.pool != newest.pool || s.vdev != newest.vdev || !s.disk_wait_histogram) continue;
    any_histogram = true;
    total.seconds += s.disk_wait_histogram->seconds;
    add(total.read, s.disk_wait_histogram->read);
    add(total.write, s.disk_wait_histogram->write);
    if (auto it = sibling_histograms.find(s.at); it != sibling_histograms.end()) {
      for (const ZfsWaitHistogram* h : it->second) {
        add(sib_total.read, h->read);
        add(sib_total.write, h->write);
      }
    }
  }
  for (const auto& s : *vdev)
    if (s.member != newest.member && s.disk_wait_histogram) sib_members.insert(s.member);
  for (auto it = mine->rbegin(); it != mine->rend(); ++it) {
    const ZfsLatencySample& s = *it;
    if (s.pool != newest.pool || s.vdev != newest.vdev) continue;  // an earlier pool
    const ZfsWaitHistogram* h = s.disk_wait_histogram ? &*s.disk_wait_histogram : nullptr;
    const auto sib = siblings.find(s.at);
    std::optional<double> median;
    int count = 0;
    if (sib != siblings.end()) {
      count = static_cast<int>(sib->second.size());
      median = detect::Median(sib->second);
    }
    out["samples"].push_back(
        {{"at", s.at},
         {"disk_wait_seconds", OptOrNull(detect::ZfsDiskWait(s))},
         {"siblings_median_seconds", OptOrNull(median)},
         {"siblings", count},
         {"disk_wait_read_seconds", OptOrNull(s.disk_wait_read)},
         {"disk_wait_write_seconds", OptOrNull(s.disk_wait_write)},
         {"total_wait_read_seconds", OptOrNull(s.total_wait_read)},
         {"total_wait_write_seconds", OptOrNull(s.total_wait_write)},
         {"read_ops_per_second", OptOrNull(s.read_ops)},
         {"write_ops_per_second", OptOrNull(s.write_ops)},
         {"slow_ios", OptOrNull(s.slow_ios)},
         {"sit_out", OptOrNull(s.sit_out)},
         {"histogram_seconds", h ? nlohmann::json(h->seconds) : nlohmann::json()},
         {"disk_wait_read_p50_seconds", Quantile(h, &ZfsWaitHistogram::read, 0.5)},
         {"disk_wait_read_p99_seconds", Quantile(h, &ZfsWaitHistogram::read, 0.99)},
         {"disk_wait_write_p99_seconds", Quantile(h, &ZfsWaitHistogram::write, 0.99)}});
  }
  if (any_histogram) {
    std::size_t buckets = std::max(
        {total.read.size(), total.write.size(), sib_total.read.size(), sib_total.write.size()});
    for (auto* v : {&total.read, &total.write, &sib_total.read, &sib_total.write})
      v->resize(buckets, 0);
    nlohmann::json upper = nlohmann::json::array();
    for (std::size_t i = 0; i < buckets; ++i) upper.push_back(ZfsBucketUpperSeconds(i));
    out["histogram"] = {{"seconds", total.seconds},
                        {"bucket_upper_seconds", std::move(upper)},
                        {"read", total.read},
                        {"write", total.write},
                        {"siblings", sib_members.size()},
                        {"siblings_read", sib_total.read},
                        {"siblings_write", sib_total.write}};
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
