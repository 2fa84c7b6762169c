#include "alert/notification_outbox.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <utility>

namespace dp {

Result<std::int64_t> InMemoryNotificationOutbox::Add(const std::string& sink,
                                                     const std::string& body) {
  MutexLock lock(mu_);
  entries_.push_back({next_id_, sink, body});
  return next_id_++;
}

Status InMemoryNotificationOutbox::Remove(std::int64_t id) {
  MutexLock lock(mu_);
  std::erase_if(entries_, [&](const OutboxEntry& e) { return e.id == id; });
  return Status::Ok();
}

Result<std::vector<OutboxEntry>> InMemoryNotificationOutbox::Pending() {
  MutexLock lock(mu_);
  return entries_;
}

namespace {

constexpr std::array kKinds = {NotifyKind::kOpened, NotifyKind::kReminder, NotifyKind::kEscalated,
                               NotifyKind::kResolved, NotifyKind::kTest};

nlohmann::json Optional(const std::optional<std::int64_t>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

}  // namespace

std::string EncodeNotification(const Notification& n) {
  const Alert& a = n.alert;
  nlohmann::json alert = {{"id", a.id},
                          {"drive_id", a.drive_id},
                          {"condition", a.condition},
                          {"severity", a.severity},
                          {"state", a.state},
                          {"summary", a.summary},
                          {"evidence", a.evidence_json},
                          {"opened_at", a.opened_at},
                          {"updated_at", a.updated_at},
                          {"acknowledged_at", Optional(a.acknowledged_at)},
                          {"resolved_at", Optional(a.resolved_at)},
                          {"last_notified_at", Optional(a.last_notified_at)},
                          {"notify_count", a.notify_count},
                          {"clear_streak", a.clear_streak},
                          {"resolution", a.resolution},
                          {"headline", a.words.headline},
                          {"confidence", a.words.confidence},
                          {"advice", a.words.advice},
                          {"members", EventStateToJson(a.event)}};
  nlohmann::json j = {{"kind", NotifyKindName(n.kind)},
                      {"drive_name", n.drive_name},
                      {"host", n.host},
                      {"at", ToUnixSeconds(n.at)},
                      {"alert", std::move(alert)}};
  // Invalid UTF-8 in a summary or a drive name must not make the entry
  // unwritable: it is replaced, as every rendering does.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<Notification> DecodeNotification(std::string_view body) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return InvalidArgument("stored notification: not a JSON object");
  std::string bad;
  auto text = [&](const nlohmann::json& obj, const char* key) -> std::string {
    auto it = obj.find(key);
    if (it == obj.end() || !it->is_string()) {
      if (bad.empty()) bad = key;
      return {};
    }
    return it->get<std::string>();
  };
  auto integer = [&](const nlohmann::json& obj, const char* key) -> std::int64_t {
    auto it = obj.find(key);
    if (it == obj.end() || !it->is_number_integer()) {
      if (bad.empty()) bad = key;
      return 0;
    }
    return it->get<std::int64_t>();
  };
  auto optional = [&](const nlohmann::json& obj, const char* key) -> std::optional<std::int64_t> {
    auto it = obj.find(key);
    if (it != obj.end() && it->is_null()) return std::nullopt;
    return integer(obj, key);
  };

  Notification n;
  const std::string kind = text(j, "kind");
  auto k = std::find_if(kKinds.begin(), kKinds.end(),
                        [&](NotifyKind c) { return NotifyKindName(c) == kind; });
  if (k == kKinds.end() && bad.empty()) bad = "kind";
  if (k != kKinds.end()) n.kind = *k;
  n.drive_name = text(j, "drive_name");
  n.host = text(j, "host");
  n.at = FromUnixSeconds(integer(j, "at"));
  auto ait = j.find("alert");
  if (ait == j.end() || !ait->is_object())
    return InvalidArgument("stored notification: no alert object");
  const nlohmann::json& aj = *ait;
  Alert& a = n.alert;
  a.id = integer(aj, "id");
  a.drive_id = text(aj, "drive_id");
  a.condition = text(aj, "condition");
  a.severity = text(aj, "severity");
  a.state = text(aj, "state");
  a.summary = text(aj, "summary");
  a.evidence_json = text(aj, "evidence");
  a.opened_at = integer(aj, "opened_at");
  a.updated_at = integer(aj, "updated_at");
  a.acknowledged_at = optional(aj, "acknowledged_at");
  a.resolved_at = optional(aj, "resolved_at");
  a.last_notified_at = optional(aj, "last_notified_at");
  a.notify_count = static_cast<int>(integer(aj, "notify_count"));
  a.clear_streak = static_cast<int>(integer(aj, "clear_streak"));
  a.resolution = text(aj, "resolution");
  // Entries queued before alerts had words or typed members lack them.
  auto later = [&](const char* key) {
    auto it = aj.find(key);
    return it != aj.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  a.words.headline = later("headline");
  a.words.confidence = later("confidence");
  a.words.advice = later("advice");
  a.event = EventStateFromJson(later("members"));
  if (!bad.empty())
    return InvalidArgument("stored notification: '" + bad + "' is missing or of the wrong type");
  return n;
}

}  // namespace dp
