// Shared pieces of the API resources: the JSON shapes of a Run and an Alert,
// a Status turned into the matching error response, and request parsing
// helpers (ids, limits, JSON bodies). Pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "base/status.h"
#include "http/request.h"
#include "http/response.h"
#include "model/alert.h"
#include "model/bench_result.h"
#include "model/drive.h"
#include "model/run.h"
#include "model/smart_snapshot.h"

namespace dp {
class Store;
struct RebaselineMark;
}

namespace dp::http {

// The value, or JSON null for nullopt (the API's "unknown").
template <typename T>
nlohmann::json OrNull(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// A SMART snapshot's headline figures by name (temperature_c, power_on_hours,
// health_passed, the error counters, nvme_percentage_used, ...), null where
// the snapshot does not report one: the names of GET .../smart and .../export.
std::vector<std::pair<std::string, nlohmann::json>> SmartFigures(const SmartSnapshot& snapshot);

// {"id", "drive_id", "test", "trigger", "outcome", "reason", "started_at",
//  "ended_at" (null while active), "progress" (0..1), "contended", "partial",
//  "engine", "active"}.
nlohmann::json RunToJson(const Run& run);

// {"id", "drive_id", "condition", "severity", "state", "summary",
//  "headline", "confidence", "advice" (alert/alert_words.h; an alert stored
//  before alerts had words: its summary, "", ""),
//  "evidence" (parsed JSON; {} when empty or unparsable; an event's
//  "members" from its typed state), "opened_at",
//  "updated_at", "acknowledged_at", "resolved_at", "notify_count",
//  "resolution" ("" unless closed otherwise than by clearing, e.g.
//  "re-baselined: firmware changed from A to B"), "standing" (watching |
//  notified | acknowledged | muted | resolved: model/alert.h), "muted_until"
//  (unix seconds while an override holds its notifications, else null)}.
nlohmann::json AlertToJson(const Alert& alert,
                           std::optional<std::int64_t> muted_until = std::nullopt);

// {"id", "drive_id", "test" (null = every test), "at", "reason", "who"}.
nlohmann::json RebaselineToJson(const RebaselineMark& mark);

// One measured point of a run: {"test", "zone", "stroke", "variant",
// "block_size", "queue_depth", "mb_per_s", "iops", "access_ms", "p50_us",
// "p99_us", "contended", "partial"} (null where not measured).
nlohmann::json PointToJson(const BenchPoint& point);

// The drive a user means by `ref`: its id, name, /dev path or device basename.
// NotFound ("no drive 'REF'") when no stored drive matches; the store's error
// when it fails.
Result<Drive> DriveByRef(Store& store, std::string_view ref);

// ?drive=REF, when given and not empty, into `drive_id` as the drive's id;
// DriveByRef's error when it names no drive.
Status TakeDriveQuery(Store& store, const std::map<std::string, std::string>& query,
                      std::string& drive_id);

// The error response for a failed Status: InvalidArgument 400, NotFound 404,
// FailedPrecondition/AlreadyExists 409, Unavailable 503, anything else 500.
Response StatusResponse(const Status& status);

// A positive decimal id from a path segment; nullopt otherwise.
std::optional<std::int64_t> ParseId(std::string_view text);

// The JSON object in the request body; an empty body is {}. InvalidArgument
// (with nlohmann's position) for malformed JSON or a non-object.
Result<nlohmann::json> ParseJsonObject(const Request& request);

// ?limit=N: default when absent, InvalidArgument unless 1..max.
Result<int> ParseLimit(const Request& request, int default_limit, int max_limit);

}  // namespace dp::http
