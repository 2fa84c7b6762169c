#include "http/resource_json.h"

#include <charconv>

#include "store/store.h"

namespace dp::http {
namespace {

nlohmann::json Opt(const std::optional<std::int64_t>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

bool Active(RunOutcome o) {
  return o == RunOutcome::kQueued || o == RunOutcome::kRunning || o == RunOutcome::kDeferred;
}

}  // namespace

nlohmann::json RunToJson(const Run& r) {
  return {
      {"id", r.id},
      {"drive_id", r.drive_id.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.drive_id)},
      {"test", r.test},
      {"trigger", r.trigger},
      {"outcome", RunOutcomeName(r.outcome)},
      {"reason", r.reason},
      {"started_at", r.started_at},
      {"ended_at", Opt(r.ended_at)},
      {"progress", r.outcome == RunOutcome::kOk ? 1.0 : r.progress},
      {"contended", r.contended},
      {"partial", r.partial},
      {"engine", r.engine},
      {"active", Active(r.outcome)},
  };
}

namespace {

nlohmann::json ParsedOr(const std::string& text, nlohmann::json fallback) {
  if (text.empty()) return fallback;
  auto parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? fallback : parsed;
}

}  // namespace

nlohmann::json AlertToJson(const Alert& a, std::optional<std::int64_t> muted_until) {
  nlohmann::json evidence = ParsedOr(a.evidence_json, nlohmann::json::object());
  // An event's members (every rule's series that saw it), from its typed state.
  if (evidence.is_object() && !a.event.members.empty())
    evidence["members"] = ParsedOr(EventStateToJson(a.event), nlohmann::json::object())["members"];
  return {
      {"id", a.id},
      {"drive_id", a.drive_id.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.drive_id)},
      {"condition", a.condition},
      {"severity", a.severity},
      {"state", a.state},
      {"summary", a.summary},
      {"headline", a.words.headline.empty() ? a.summary : a.words.headline},
      {"confidence", a.words.confidence},
      {"advice", a.words.advice},
      {"evidence", evidence},
      {"opened_at", a.opened_at},
      {"updated_at", a.updated_at},
      {"acknowledged_at", Opt(a.acknowledged_at)},
      {"resolved_at", Opt(a.resolved_at)},
      {"notify_count", a.notify_count},
      {"resolution", a.resolution},
      {"opened_summary", a.opened_summary.empty() ? a.summary : a.opened_summary},
      {"opened_evidence", ParsedOr(a.opened_evidence_json, evidence)},
      {"history", ParsedOr(a.history_json, nlohmann::json::array())},
      {"standing", StandingName(StandingOf(a, muted_until.has_value()))},
      {"muted_until", Opt(muted_until)},
  };
}

nlohmann::json RebaselineToJson(const RebaselineMark& m) {
  return {
      {"id", m.id},
      {"drive_id", m.drive_id},
      {"test", m.test.empty() ? nlohmann::json(nullptr) : nlohmann::json(m.test)},
      {"at", m.at},
      {"reason", m.reason},
      {"who", m.who},
  };
}

nlohmann::json PointToJson(const BenchPoint& p) {
  auto opt_s = [](const std::optional<std::string>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  nlohmann::json j = {
      {"test", p.test},
      {"zone", opt_s(p.zone)},
      {"stroke", opt_s(p.stroke)},
      {"variant", opt_s(p.variant)},
      {"block_size", p.block_size},
      {"queue_depth", p.queue_depth},
      {"mb_per_s", p.mb_per_s > 0 ? nlohmann::json(p.mb_per_s) : nlohmann::json(nullptr)},
      {"iops", p.iops > 0 ? nlohmann::json(p.iops) : nlohmann::json(nullptr)},
      {"access_ms", p.access_ms ? nlohmann::json(*p.access_ms) : nlohmann::json(nullptr)},
      {"p50_us", p.latency ? nlohmann::json(p.latency->p50_us) : nlohmann::json(nullptr)},
      {"p99_us", p.latency ? nlohmann::json(p.latency->p99_us) : nlohmann::json(nullptr)},
      {"contended", p.contended},
      {"partial", p.partial},
      {"unwritten", p.unwritten},
      {"unwritten_reason", p.unwritten ? nlohmann::json(p.unwritten_reason) : nlohmann::json(nullptr)},
  };
  return j;
}

Result<Drive> DriveByRef(Store& store, std::string_view ref) {
  // By id first (the page asks by id): one keyed read, not the whole list.
  if (!ref.empty()) {
    auto by_id = store.GetDrive(std::string(ref));
    if (!by_id.ok()) return by_id.status();
    if (*by_id) return **by_id;
  }
  auto drives = store.ListDrives();
  if (!drives.ok()) return drives.status();
  if (!ref.empty()) {
    for (const Drive& d : *drives)
      if (d.id == ref) return d;
    for (const Drive& d : *drives)
      if (IsDriveRef(d, ref)) return d;
  }
  return NotFound("no drive '" + std::string(ref) + "'");
}

Status TakeDriveQuery(Store& store, const std::map<std::string, std::string>& query,
                      std::string& drive_id) {
  auto it = query.find("drive");
  if (it == query.end() || it->second.empty()) return Status::Ok();
  auto drive = DriveByRef(store, it->second);
  if (!drive.ok()) return drive.status();
  drive_id = drive->id;
  return Status::Ok();
}

Response StatusResponse(const Status& s) {
  switch (s.code()) {
    case StatusCode::kInvalidArgument:
      return ErrorResponse(400, "bad_request", s.message());
    case StatusCode::kNotFound:
      return ErrorResponse(404, "not_found", s.message());
    case StatusCode::kFailedPrecondition:
    case StatusCode::kAlreadyExists:
      return ErrorResponse(409, "conflict", s.message());
    case StatusCode::kUnavailable:
      return ErrorResponse(503, "unavailable", s.message());
    default:
      return ErrorResponse(500, "internal", s.message());
  }
}

std::optional<std::int64_t> ParseId(std::string_view text) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v <= 0) return std::nullopt;
  return v;
}

Result<nlohmann::json> ParseJsonObject(const Request& request) {
  if (request.body.empty()) return nlohmann::json::object();
  try {
    auto j = nlohmann::json::parse(request.body);
    if (!j.is_object()) return InvalidArgument("the request body must be a JSON object");
    return j;
  } catch (const nlohmann::json::exception& e) {
    return InvalidArgument(std::string("the request body is not valid JSON: ") + e.what());
  }
}

Result<int> ParseLimit(const Request& request, int default_limit, int max_limit) {
  auto q = request.Query();
  auto it = q.find("limit");
  if (it == q.end() || it->second.empty()) return default_limit;
  auto id = ParseId(it->second);
  if (!id || *id > max_limit)
    return InvalidArgument("limit must be a whole number from 1 to " + std::to_string(max_limit));
  return static_cast<int>(*id);
}

std::vector<std::pair<std::string, nlohmann::json>> SmartFigures(const SmartSnapshot& s) {
  NvmeHealth nvme = s.nvme ? *s.nvme : NvmeHealth{};
  return {{"temperature_c", OrNull(s.temperature_c)},
          {"power_on_hours", OrNull(s.power_on_hours)},
          {"health_passed", OrNull(s.health_passed)},
          {"reallocated_sectors", OrNull(s.reallocated_sectors)},
          {"pending_sectors", OrNull(s.pending_sectors)},
          {"offline_uncorrectable", OrNull(s.offline_uncorrectable)},
          {"reported_uncorrectable", OrNull(s.reported_uncorrectable)},
          {"command_timeouts", OrNull(s.command_timeouts)},
          {"udma_crc_errors", OrNull(s.udma_crc_errors)},
          {"nvme_percentage_used", OrNull(nvme.percentage_used)},
          {"nvme_media_errors", OrNull(nvme.media_errors)},
          {"nvme_available_spare", OrNull(nvme.available_spare)}};
}

}  // namespace dp::http
