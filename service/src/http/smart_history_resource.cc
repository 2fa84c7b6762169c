// GET /api/v1/drives/{id}/smart?since=UNIX&points=N
// A drive's SMART over time, for the temperature chart and the attribute
// sparklines: at most about N snapshots (default 400, 2..5000) spread evenly
// from `since` (default: all) to the newest (Store::SmartHistorySpread), so
// five years of 4-hourly snapshots answer as fast as a week's:
//   {"drive_id", "since", "points", "samples": [{"at", "temperature_c",
//    "power_on_hours", "health_passed", "reallocated_sectors",
//    "pending_sectors", "offline_uncorrectable", "reported_uncorrectable",
//    "command_timeouts", "udma_crc_errors", "nvme_percentage_used",
//    "nvme_media_errors", "nvme_available_spare"}] (null where not reported),
//    "attributes": [{"id", "name", "samples": [{"at", "value", "worst",
//    "raw"}]}]} (ATA attributes in the order first seen; oldest first).
#include <map>

#include "http/api.h"
#include "http/resource_json.h"
#include "store/store.h"

namespace dp::http {
namespace {

template <typename T>
nlohmann::json OrNull(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json SampleOf(std::int64_t at, const SmartSnapshot& s) {
  const NvmeHealth none;
  const NvmeHealth& n = s.nvme ? *s.nvme : none;
  return {{"at", at},
          {"temperature_c", OrNull(s.temperature_c)},
          {"power_on_hours", OrNull(s.power_on_hours)},
          {"health_passed", OrNull(s.health_passed)},
          {"reallocated_sectors", OrNull(s.reallocated_sectors)},
          {"pending_sectors", OrNull(s.pending_sectors)},
          {"offline_uncorrectable", OrNull(s.offline_uncorrectable)},
          {"reported_uncorrectable", OrNull(s.reported_uncorrectable)},
          {"command_timeouts", OrNull(s.command_timeouts)},
          {"udma_crc_errors", OrNull(s.udma_crc_errors)},
          {"nvme_percentage_used", OrNull(n.percentage_used)},
          {"nvme_media_errors", OrNull(n.media_errors)},
          {"nvme_available_spare", OrNull(n.available_spare)}};
}

Response SmartHistory(const ApiContext& ctx, const Request& request, const PathParams& params) {
  auto drive = FindDriveByRef(*ctx.store, params.at("id"));
  if (!drive) return ErrorResponse(404, "not_found", "no drive '" + params.at("id") + "'");
  auto q = request.Query();
  std::int64_t since = 0;
  if (auto it = q.find("since"); it != q.end() && !it->second.empty() && it->second != "0") {
    auto v = ParseId(it->second);
    if (!v) return ErrorResponse(400, "bad_request", "since must be unix seconds");
    since = *v;
  }
  int points = 400;
  if (auto it = q.find("points"); it != q.end()) {
    auto v = ParseId(it->second);
    if (!v || *v < 2 || *v > 5000)
      return ErrorResponse(400, "bad_request", "points must be 2..5000");
    points = static_cast<int>(*v);
  }
  auto history = ctx.store->SmartHistorySpread(drive->id, since, points);
  if (!history.ok()) return StatusResponse(history.status());

  nlohmann::json samples = nlohmann::json::array();
  std::vector<int> order;
  std::map<int, nlohmann::json> by_id;
  for (const auto& [at, snapshot] : *history) {
    samples.push_back(SampleOf(at, snapshot));
    for (const SmartAttribute& a : snapshot.attributes) {
      auto [it, fresh] = by_id.try_emplace(a.id);
      if (fresh) {
        order.push_back(a.id);
        it->second = {{"id", a.id}, {"name", a.name}, {"samples", nlohmann::json::array()}};
      }
      it->second["samples"].push_back({{"at", at},
                                       {"value", OrNull(a.value)},
                                       {"worst", OrNull(a.worst)},
                                       {"raw", OrNull(a.raw)}});
    }
  }
  nlohmann::json attributes = nlohmann::json::array();
  for (int id : order) attributes.push_back(std::move(by_id[id]));
  return JsonResponse({{"drive_id", drive->id},
                       {"since", since},
                       {"points", points},
                       {"samples", std::move(samples)},
                       {"attributes", std::move(attributes)}});
}

}  // namespace

void AddSmartHistoryResource(Router& router, const ApiContext& ctx) {
  router.Get("/api/v1/drives/{id}/smart", [ctx](const Request& r, const PathParams& p) {
    return SmartHistory(ctx, r, p);
  });
}

}  // namespace dp::http
