// Overrides: per-drive tunings (model/drive_override.h), from the config
// file (read-only here) and set through the API (runs/override_book.h).
//   GET    /api/v1/overrides[?drive=REF] -> 200 {"overrides": [override +
//          "in_force", "drives": ids of the known drives it matches,
//          "warnings": those whose latest SMART reading lacks its attribute],
//          "attributes": the judged SMART attributes an override may name,
//          "kinds": the alert kinds a mute may be narrowed to}
//   POST   /api/v1/overrides  {"drive"|"serial"|"model"|"pool", "attribute",
//          "ignore", "threshold", "mute_until" (unix seconds) | "mute_days",
//          "kind" (the mute holds only alerts of this kind), "reason"}
//          -> 201 the override as kept; 400 an unknown drive, pool, kind or
//          attribute, a device_type (config file only) or a bad field.
//   DELETE /api/v1/overrides/{id}  {"reason"} (optional) -> 200
//          {"deleted": id}; 404 unknown, 409 a config file's override.
//   GET    /api/v1/overrides/audit[?limit=N] -> 200 [set/deleted/expired
//          rows, newest first].
// POST and DELETE need the API token (the router's rule for mutating calls).
#include <algorithm>
#include <set>

#include "http/api.h"
#include "http/resource_json.h"
#include "model/condition.h"
#include "runs/override_book.h"
#include "store/store.h"

namespace dp::http {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxText = 500;

// The daemon's book (config file and API); a context without one (a
// tool, a test) still serves the API's overrides from the store.
template <typename Fn>
Response WithBook(const ApiContext& ctx, Fn&& fn) {
  if (ctx.overrides) return fn(*ctx.overrides);
  OverrideBook api_only(*ctx.store, *ctx.clock, {});
  return fn(api_only);
}

Result<std::string> Text(const json& body, const char* key) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return std::string();
  if (!it->is_string()) return InvalidArgument(std::string(key) + " must be a string");
  if (it->get<std::string>().size() > kMaxText)
    return InvalidArgument(std::string(key) + " is longer than " + std::to_string(kMaxText) + " bytes");
  return it->get<std::string>();
}

Result<DriveOverride> ParseOverride(const ApiContext& ctx, const json& body) {
  static const std::set<std::string> kFields = {
      "drive",      "serial",    "model",  "pool",   "attribute",  "ignore",
      "threshold",  "mute_until", "mute_days", "kind", "reason",    "device_type"};
  for (const auto& item : body.items())
    if (!kFields.count(item.key())) return InvalidArgument("unknown field '" + item.key() + "'");
  DriveOverride o;
  DP_ASSIGN_OR_RETURN(o.drive_id, Text(body, "drive"));
  DP_ASSIGN_OR_RETURN(o.serial, Text(body, "serial"));
  DP_ASSIGN_OR_RETURN(o.model, Text(body, "model"));
  DP_ASSIGN_OR_RETURN(o.pool, Text(body, "pool"));
  DP_ASSIGN_OR_RETURN(o.kind, Text(body, "kind"));
  DP_ASSIGN_OR_RETURN(o.attribute, Text(body, "attribute"));
  DP_ASSIGN_OR_RETURN(o.reason, Text(body, "reason"));
  DP_ASSIGN_OR_RETURN(o.device_type, Text(body, "device_type"));
  if (!o.drive_id.empty()) {
    // The page and the CLI name drives as people do: "sda" is fine too.
    auto drive = DriveByRef(*ctx.store, o.drive_id);
    if (drive.ok()) o.drive_id = drive->id;
  }
  if (auto it = body.find("ignore"); it != body.end()) {
    if (!it->is_boolean()) return InvalidArgument("ignore must be true or false");
    o.ignore = it->get<bool>();
  }
  if (auto it = body.find("threshold"); it != body.end() && !it->is_null()) {
    if (!it->is_number()) return InvalidArgument("threshold must be a number");
    o.threshold = it->get<double>();
  }
  const auto until = body.find("mute_until");
  const auto days = body.find("mute_days");
  if (until != body.end() && days != body.end())
    return InvalidArgument("give mute_until or mute_days, not both");
  if (until != body.end()) {
    if (!until->is_number_integer()) return InvalidArgument("mute_until must be unix seconds");
    o.mute_until = until->get<std::int64_t>();
  }
  if (days != body.end()) {
    if (!days->is_number() || days->get<double>() <= 0 || days->get<double>() > 3650)
      return InvalidArgument("mute_days must be a number of days from 0 to 3650");
    o.mute_until = ToUnixSeconds(ctx.clock->Now()) +
                   static_cast<std::int64_t>(days->get<double>() * 86400);
  }
  return o;
}

json Listed(const DriveOverride& o, std::size_t config_index, const DriveReadings& drives,
            std::int64_t now) {
  json j = DriveOverrideToJson(o, config_index);
  const bool only_mute = o.mute_until && !o.ignore && !o.threshold && o.device_type.empty();
  j["in_force"] = !(only_mute && *o.mute_until <= now);
  json ids = json::array();
  for (const auto& [d, latest] : drives)
    if (OverrideMatches(o, d)) ids.push_back(d.id);
  j["drives"] = ids;
  j["warnings"] = MissingAttributeWarnings(o, drives);
  return j;
}

Response List(const ApiContext& ctx, const Request& request, OverrideBook& book) {
  std::string drive_id;
  if (Status s = TakeDriveQuery(*ctx.store, request.Query(), drive_id); !s.ok()) return StatusResponse(s);
  auto all = book.All();
  if (!all.ok()) return StatusResponse(all.status());
  auto drives = book.LatestReadings();
  if (!drives.ok()) return StatusResponse(drives.status());
  const std::int64_t now = ToUnixSeconds(ctx.clock->Now());
  json list = json::array();
  std::size_t config_index = 0;
  for (const DriveOverride& o : *all) {
    json j = Listed(o, o.source == "config" ? config_index++ : 0, *drives, now);
    if (!drive_id.empty() &&
        std::find(j["drives"].begin(), j["drives"].end(), json(drive_id)) == j["drives"].end())
      continue;
    list.push_back(std::move(j));
  }
  json kinds = json::array();
  for (ConditionKind k : kConditionKinds) kinds.push_back(std::string(ConditionKindName(k)));
  return JsonResponse(
      {{"overrides", list}, {"attributes", JudgedSmartAttributes()}, {"kinds", kinds}});
}

Response Set(const ApiContext& ctx, const Request& request, OverrideBook& book) {
  auto body = ParseJsonObject(request);
  if (!body.ok()) return StatusResponse(body.status());
  auto o = ParseOverride(ctx, *body);
  if (!o.ok()) return StatusResponse(o.status());
  auto kept = book.Set(*std::move(o), "api " + request.remote);
  if (!kept.ok()) return StatusResponse(kept.status());
  auto drives = book.LatestReadings();
  if (!drives.ok()) return StatusResponse(drives.status());
  return JsonResponse(Listed(*kept, 0, *drives, ToUnixSeconds(ctx.clock->Now())), 201);
}

Response Delete(const Request& request, const PathParams& params, OverrideBook& book) {
  auto body = ParseJsonObject(request);
  if (!body.ok()) return StatusResponse(body.status());
  for (const auto& item : body->items())
    if (item.key() != "reason")
      return StatusResponse(InvalidArgument("unknown field '" + item.key() + "' (give a reason)"));
  auto reason = Text(*body, "reason");
  if (!reason.ok()) return StatusResponse(reason.status());
  const std::string& id = params.at("id");
  Status s = book.Delete(id, "api " + request.remote, *reason);
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse({{"deleted", id}});
}

Response Audit(const ApiContext& ctx, const Request& request) {
  auto limit = ParseLimit(request, 200, 10000);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto rows = ctx.store->ListOverrideAudit(*limit);
  if (!rows.ok()) return StatusResponse(rows.status());
  json list = json::array();
  for (const OverrideAudit& a : *rows)
    list.push_back({{"id", a.id},
                    {"at", a.at},
                    {"action", a.action},
                    {"override_id", a.override_id},
                    {"who", a.who},
                    {"reason", a.reason},
                    {"override", json::parse(a.override_json, nullptr, false)}});
  return JsonResponse(list);
}

}  // namespace

void AddOverridesResource(Router& router, const ApiContext& ctx) {
  router.Get("/api/v1/overrides", [ctx](const Request& r, const PathParams&) {
    return WithBook(ctx, [&](OverrideBook& book) { return List(ctx, r, book); });
  });
  router.Post("/api/v1/overrides", [ctx](const Request& r, const PathParams&) {
    return WithBook(ctx, [&](OverrideBook& book) { return Set(ctx, r, book); });
  });
  router.Add(Method::kDelete, "/api/v1/overrides/{id}", [ctx](const Request& r, const PathParams& p) {
    return WithBook(ctx, [&](OverrideBook& book) { return Delete(r, p, book); });
  });
  router.Get("/api/v1/overrides/audit",
             [ctx](const Request& r, const PathParams&) { return Audit(ctx, r); });
}

}  // namespace dp::http
