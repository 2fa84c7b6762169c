#include "alert/notification.h"

#include <map>

namespace dp {
namespace {

std::string EscapeJsonString(const std::string& s) {
  std::string quoted =
      nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return quoted.substr(1, quoted.size() - 2);
}

nlohmann::json Evidence(const Alert& a) {
  if (a.evidence_json.empty()) return nlohmann::json::object();
  nlohmann::json j = nlohmann::json::parse(a.evidence_json, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return nlohmann::json(a.evidence_json);
  // An event's members: every rule's series, as the page lists them.
  if (j.is_object() && !a.event.members.empty())
    j["members"] = nlohmann::json::parse(EventStateToJson(a.event))["members"];
  return j;
}

}  // namespace

std::string Notification::Drive() const {
  if (!drive_name.empty()) return drive_name;
  return alert.drive_id.empty() ? std::string("diskpulse") : alert.drive_id;
}

int Notification::Priority() const {
  if (kind == NotifyKind::kResolved) return 2;
  if (alert.severity == "critical") return 5;
  if (alert.severity == "warning") return 4;
  return 3;
}

std::string Notification::Title() const {
  if (kind == NotifyKind::kTest) return "diskpulse test notification";
  std::string prefix;
  switch (kind) {
    case NotifyKind::kReminder:
      prefix = "Reminder: ";
      break;
    case NotifyKind::kEscalated:
      prefix = "Escalated: ";
      break;
    case NotifyKind::kResolved:
      prefix = "Resolved: ";
      break;
    default:
      break;
  }
  std::string line = Headline();
  if (auto nl = line.find('\n'); nl != std::string::npos) line.resize(nl);
  if (line.size() > 160) line = line.substr(0, 157) + "...";
  return prefix + "[" + alert.severity + "] " + line;
}

std::string Notification::Text() const {
  if (kind == NotifyKind::kTest) {
    return "This is a test notification from diskpulse" +
           (host.empty() ? std::string() : " on " + host) +
           ". If you can read it, this alert sink works.\nSent at " + FormatUtc(at) + ".";
  }
  // What happened, how sure, what to do: readable in a phone's
  // notification; the statistics follow for whoever wants them.
  // (An alert stored before alerts had words has its summary alone.)
  std::string t = alert.summary + "\n\n";
  if (!alert.words.headline.empty()) {
    t = alert.words.headline + "\n";
    if (!alert.words.confidence.empty()) t += "How sure: " + alert.words.confidence + "\n";
    if (!alert.words.advice.empty()) t += "What to do: " + alert.words.advice + "\n";
    if (kind == NotifyKind::kResolved && !alert.resolution.empty())
      t += "Resolved: " + alert.resolution + "\n";
    t += "\nDetails: " + alert.summary + "\n";
  }
  t += "Drive: " + Drive();
  if (!alert.drive_id.empty() && alert.drive_id != Drive()) t += " (" + alert.drive_id + ")";
  t += "\nCondition: " + alert.condition + "\nSeverity: " + alert.severity +
       "\nState: " + alert.state + "\nAlert: #" + std::to_string(alert.id) + ", opened " +
       FormatUtc(FromUnixSeconds(alert.opened_at));
  if (alert.resolved_at) t += ", resolved " + FormatUtc(FromUnixSeconds(*alert.resolved_at));
  if (!host.empty()) t += "\nHost: " + host;
  nlohmann::json ev = Evidence(alert);
  if (!ev.empty())
    t += "\n\nEvidence:\n" + ev.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  return t;
}

std::string Notification::Headline() const {
  return alert.words.headline.empty() ? alert.summary : alert.words.headline;
}

Notification MakeNotification(NotifyKind kind, const Alert& alert, SysTime at, std::string host) {
  Notification n;
  n.kind = kind;
  n.alert = alert;
  n.at = at;
  n.host = std::move(host);
  nlohmann::json ev = Evidence(alert);
  if (ev.is_object() && ev.contains("drive_name") && ev["drive_name"].is_string())
    n.drive_name = ev["drive_name"].get<std::string>();
  return n;
}

Notification MakeTestNotification(SysTime at, std::string host) {
  Notification n;
  n.kind = NotifyKind::kTest;
  n.at = at;
  n.host = std::move(host);
  n.alert.condition = "test";
  n.alert.severity = "info";
  n.alert.state = "open";
  n.alert.summary = "diskpulse test notification";
  n.alert.opened_at = ToUnixSeconds(at);
  n.alert.updated_at = n.alert.opened_at;
  return n;
}

nlohmann::json NotificationToJson(const Notification& n) {
  nlohmann::json j;
  j["event"] = NotifyKindName(n.kind);
  j["title"] = n.Title();
  j["summary"] = n.alert.summary;
  j["headline"] = n.Headline();
  j["confidence"] = n.alert.words.confidence;
  j["advice"] = n.alert.words.advice;
  j["text"] = n.Text();
  j["drive"] = n.Drive();
  j["drive_id"] = n.alert.drive_id;
  j["host"] = n.host;
  j["at"] = FormatUtc(n.at);
  j["priority"] = n.Priority();
  nlohmann::json a;
  a["id"] = n.alert.id;
  a["condition"] = n.alert.condition;
  a["severity"] = n.alert.severity;
  a["state"] = n.alert.state;
  a["opened_at"] = n.alert.opened_at;
  a["updated_at"] = n.alert.updated_at;
  a["acknowledged_at"] =
      n.alert.acknowledged_at ? nlohmann::json(*n.alert.acknowledged_at) : nlohmann::json();
  a["resolved_at"] = n.alert.resolved_at ? nlohmann::json(*n.alert.resolved_at) : nlohmann::json();
  a["notify_count"] = n.alert.notify_count;
  j["alert"] = a;
  j["evidence"] = Evidence(n.alert);
  return j;
}

std::string RenderTemplate(std::string_view tmpl, const Notification& n, bool json_escape) {
  const std::map<std::string, std::string, std::less<>> text = {
      {"event", std::string(NotifyKindName(n.kind))},
      {"title", n.Title()},
      {"summary", n.alert.summary},
      {"headline", n.Headline()},
      {"confidence", n.alert.words.confidence},
      {"advice", n.alert.words.advice},
      {"text", n.Text()},
      {"drive", n.Drive()},
      {"drive_id", n.alert.drive_id},
      {"condition", n.alert.condition},
      {"severity", n.alert.severity},
      {"state", n.alert.state},
      {"alert_id", std::to_string(n.alert.id)},
      {"priority", std::to_string(n.Priority())},
      {"at", FormatUtc(n.at)},
      {"host", n.host},
  };
  std::string out;
  std::size_t i = 0;
  while (i < tmpl.size()) {
    std::size_t open = tmpl.find("{{", i);
    if (open == std::string_view::npos) {
      out.append(tmpl.substr(i));
      break;
    }
    std::size_t close = tmpl.find("}}", open + 2);
    if (close == std::string_view::npos) {
      out.append(tmpl.substr(i));
      break;
    }
    out.append(tmpl.substr(i, open - i));
    std::string_view name = tmpl.substr(open + 2, close - open - 2);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name == "json") {
      out += NotificationToJson(n).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } else if (name == "evidence") {
      out += Evidence(n.alert).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } else if (auto it = text.find(name); it != text.end()) {
      out += json_escape ? EscapeJsonString(it->second) : it->second;
    } else {
      out.append(tmpl.substr(open, close + 2 - open));
    }
    i = close + 2;
  }
  return out;
}

}  // namespace dp
