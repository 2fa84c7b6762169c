#include "model/alert.h"

#include <nlohmann/json.hpp>

namespace dp {
namespace {

using nlohmann::json;

std::optional<double> Num(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::string Text(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

// A member is kept as {condition, state, severity, clear_streak, opened_at,
// verdict}: the verdict whole (the page lists the members from it; the
// member's typed facts are made from the same verdict, alert_events.cc), and
// they are taken back from it here and nowhere else.
std::string EventStateToJson(const AlertEventState& s) {
  json members = json::array();
  for (const AlertMember& m : s.members) {
    json v = json::parse(m.verdict_json.empty() ? "{}" : m.verdict_json, nullptr, false);
    if (!v.is_object()) v = json::object();
    members.push_back({{"condition", m.condition},
                       {"state", m.state},
                       {"severity", m.severity},
                       {"clear_streak", m.clear_streak},
                       {"opened_at", m.opened_at},
                       {"verdict", std::move(v)}});
  }
  json j = {{"members", std::move(members)},
            {"cleared_since_fired", s.cleared_since_fired},
            {"last_fired_at", s.last_fired_at ? json(*s.last_fired_at) : json(nullptr)}};
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

AlertEventState EventStateFromJson(std::string_view text) {
  AlertEventState s;
  if (text.empty()) return s;
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) return s;
  if (auto t = j.find("last_fired_at"); t != j.end() && t->is_number_integer())
    s.last_fired_at = t->get<std::int64_t>();
  if (auto c = j.find("cleared_since_fired"); c != j.end() && c->is_boolean())
    s.cleared_since_fired = c->get<bool>();
  const auto members = j.find("members");
  if (members == j.end() || !members->is_array()) return s;
  for (const json& m : *members) {
    if (!m.is_object()) continue;
    AlertMember a;
    a.condition = Text(m, "condition");
    if (a.condition.empty()) continue;
    a.state = Text(m, "state").empty() ? "open" : Text(m, "state");
    a.severity = Text(m, "severity").empty() ? "warning" : Text(m, "severity");
    a.clear_streak = static_cast<int>(Num(m, "clear_streak").value_or(0));
    a.opened_at = static_cast<std::int64_t>(Num(m, "opened_at").value_or(0));
    const auto vit = m.find("verdict");
    const json v = vit != m.end() && vit->is_object() ? *vit : json::object();
    a.test = Text(v, "test");
    a.series = Text(v, "series");
    a.metric = Text(v, "metric");
    a.unit = Text(v, "unit");
    a.summary = Text(v, "summary");
    a.current = Num(v, "current");
    a.change_percent = Num(v, "change_percent");
    a.slope_percent_per_month = Num(v, "slope_percent_per_month");
    a.reference = Num(v, "peer_median");
    if (auto b = v.find("baseline"); b != v.end() && b->is_object()) {
      if (!a.reference) a.reference = Num(*b, "median");
      a.baseline_runs = static_cast<int>(Num(*b, "runs").value_or(0));
    }
    if (auto b = v.find("band"); b != v.end() && b->is_object()) {
      a.band_low = Num(*b, "low");
      a.band_high = Num(*b, "high");
    }
    a.at = static_cast<std::int64_t>(Num(v, "at").value_or(0));
    a.verdict_json = v.dump(-1, ' ', false, json::error_handler_t::replace);
    s.members.push_back(std::move(a));
  }
  return s;
}

AlertStanding StandingOf(const Alert& a, bool muted) {
  if (a.state == "resolved") return AlertStanding::kResolved;
  if (a.state == "acknowledged") return AlertStanding::kAcknowledged;
  if (muted) return AlertStanding::kMuted;
  return a.notify_count > 0 ? AlertStanding::kNotified : AlertStanding::kWatching;
}

std::string_view StandingName(AlertStanding s) {
  switch (s) {
    case AlertStanding::kWatching: return "watching";
    case AlertStanding::kNotified: return "notified";
    case AlertStanding::kAcknowledged: return "acknowledged";
    case AlertStanding::kMuted: return "muted";
    case AlertStanding::kResolved: return "resolved";
  }
  return "watching";
}

bool Alarming(AlertStanding s) {
  return s == AlertStanding::kNotified || s == AlertStanding::kAcknowledged;
}

}  // namespace dp
