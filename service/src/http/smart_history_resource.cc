// GET /api/v1/drives/{id}/smart?since=UNIX&points=N
// A drive's SMART over time, for the temperature chart and the attribute
// sparklines: at most about N snapshots (default 400, 2..5000) spread evenly
// from `since` (default: all) to the newest (Store::SmartHistorySpread), so
// five years of 4-hourly snapshots answer as fast as a week's. Aligned
// arrays, one entry per snapshot, oldest first (a chart reads them as they
// are, and the answer names each field once rather than once a snapshot):
//   {"drive_id", "since", "points", "at": [unix seconds...],
//    "figures": {"temperature_c", "power_on_hours", "health_passed",
//    "reallocated_sectors", "pending_sectors", "offline_uncorrectable",
//    "reported_uncorrectable", "command_timeouts", "udma_crc_errors",
//    "nvme_percentage_used", "nvme_media_errors", "nvme_available_spare":
//    [...]}, "attributes": [{"id", "name", "value": [...], "raw": [...], "raw_shown": [...]}]}
// with null where a snapshot does not report the figure or the attribute
// (ATA attributes in the order first seen).
#include <map>

#include "http/api.h"
#include "http/resource_json.h"
#include "store/store.h"

namespace dp::http {
namespace {

// Each figure of every snapshot, as one JSON array a figure.
nlohmann::json Figures(const std::vector<std::pair<std::int64_t, SmartSnapshot>>& h) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, value] : SmartFigures(SmartSnapshot{})) out[name] = nlohmann::json::array();
  for (const auto& entry : h)
    for (auto& [name, value] : SmartFigures(entry.second)) out[name].push_back(std::move(value));
  return out;
}

// Each attribute's value, raw and the number its raw.string shows (what a
// chart of a packed raw value draws), aligned with the snapshots.
nlohmann::json Attributes(const std::vector<std::pair<std::int64_t, SmartSnapshot>>& history) {
  struct Track {
    std::string name;
    nlohmann::json value, raw, shown;
  };
  const std::size_t n = history.size();
  std::vector<int> order;
  std::map<int, Track> by_id;
  for (std::size_t i = 0; i < n; ++i) {
    for (const SmartAttribute& a : history[i].second.attributes) {
      auto [it, fresh] = by_id.try_emplace(a.id);
      Track& t = it->second;
      if (fresh) {
        order.push_back(a.id);
        t.name = a.name;
        t.value = nlohmann::json::array_t(n, nullptr);
        t.raw = nlohmann::json::array_t(n, nullptr);
        t.shown = nlohmann::json::array_t(n, nullptr);
      }
      t.value[i] = OrNull(a.value);
      t.raw[i] = OrNull(a.raw);
      t.shown[i] = OrNull(RawShownNumber(a));
    }
  }
  nlohmann::json out = nlohmann::json::array();
  for (int id : order) {
    Track& t = by_id[id];
    out.push_back({{"id", id},
                   {"name", std::move(t.name)},
                   {"value", std::move(t.value)},
                   {"raw", std::move(t.raw)},
                   {"raw_shown", std::move(t.shown)}});
  }
  return out;
}

Response SmartHistory(const ApiContext& ctx, const Request& request, const PathParams& params) {
  auto drive = DriveByRef(*ctx.store, params.at("id"));
  if (!drive.ok()) return StatusResponse(drive.status());
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

  nlohmann::json at = nlohmann::json::array();
  for (const auto& entry : *history) at.push_back(entry.first);
  return JsonResponse({{"drive_id", drive->id},
                       {"since", since},
                       {"points", points},
                       {"at", std::move(at)},
                       {"figures", Figures(*history)},
                       {"attributes", Attributes(*history)}});
}

}  // namespace

void AddSmartHistoryResource(Router& router, const ApiContext& ctx) {
  router.Get("/api/v1/drives/{id}/smart", [ctx](const Request& r, const PathParams& p) {
    return SmartHistory(ctx, r, p);
  });
}

}  // namespace dp::http
