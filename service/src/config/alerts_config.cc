#include "config/alerts_config.h"

#include <fstream>
#include <set>

#include "config/json_walker.h"

namespace dp {
namespace {

using nlohmann::json;

void Severity(JsonWalker& f, std::string& out) {
  f.Choice("min_severity", out, {"info", "warning", "critical"});
}

void ReadDetection(JsonWalker& f, DetectionConfig& d) {
  f.Number("baseline_runs", d.baseline_runs, 3, 100);
  f.Number("baseline_max_runs", d.baseline_max_runs, 3, 1000);
  if (d.baseline_max_runs < d.baseline_runs)
    f.Error("baseline_max_runs",
            "must be at least baseline_runs (" + std::to_string(d.baseline_runs) + ")");
  f.Number("band_sigmas", d.band_sigmas, 1, 20);
  f.Number("min_band_percent", d.min_band_percent, 0, 90);
  f.Number("confirm_sigmas", d.confirm_sigmas, 1, 20);
  f.Number("confirm_min_percent", d.confirm_min_percent, 0, 90);
  f.Number("retest_delay_minutes", d.retest_delay_minutes, 0, 7 * 24 * 60);
  f.Number("drive_wide_hold_days", d.drive_wide_hold_days, 0, 60);
  f.Number("environment_absorb_days", d.environment_absorb_days, 0, 365);
  f.Number("drive_wide_score", d.drive_wide_score, 0, 20);
  f.Number("drive_wide_least_score", d.drive_wide_least_score, 0, 20);
  if (d.drive_wide_least_score > d.drive_wide_score)
    f.Error("drive_wide_least_score", "must be at most drive_wide_score (the paths' mean)");
  f.Number("drive_wide_min_tests", d.drive_wide_min_tests, 1, 20);
  f.Number("cusum_k", d.cusum_k, 0, 10);
  f.Number("cusum_h", d.cusum_h, 0.5, 100);
  f.Number("cusum_cap", d.cusum_cap, 0.5, 20);
  if (d.cusum_cap - d.cusum_k >= d.cusum_h)
    f.Error("cusum_cap", "cusum_cap - cusum_k must be below cusum_h, or one run could alert");
  f.Number("trend_min_runs", d.trend_min_runs, 4, 10000);
  f.Number("trend_min_span_days", d.trend_min_span_days, 0, 3650);
  f.Number("trend_window_days", d.trend_window_days, 1, 3650);
  f.Number("trend_alpha", d.trend_alpha, 1e-9, 0.2);
  f.Number("trend_min_percent_per_month", d.trend_min_percent_per_month, 0, 100);
  f.Number("peer_min_percent", d.peer_min_percent, 0, 90);
  f.Number("peer_sigmas", d.peer_sigmas, 0, 20);
  f.Number("peer_min_siblings", d.peer_min_siblings, 1, 100);
  f.Number("peer_window_seconds", d.peer_window_seconds, 1, 30 * 86400);
  f.Number("temperature_max_c", d.temperature_max_c, 20, 120);
  f.Number("nvme_temperature_max_c", d.nvme_temperature_max_c, 20, 120);
  f.Number("nvme_spare_min_percent", d.nvme_spare_min_percent, 0, 100);
  f.Number("missing_grace_minutes", d.missing_grace_minutes, 0, 30 * 24 * 60);
  f.Number("scrub_overdue_days", d.scrub_overdue_days, 0, 3650);
  f.Number("self_test_overdue_days", d.self_test_overdue_days, 0, 3650);
  f.Number("wear_warning_percent", d.wear_warning_percent, 1, 200);
  f.Number("wear_critical_percent", d.wear_critical_percent, 1, 200);
  if (d.wear_critical_percent < d.wear_warning_percent)
    f.Error("wear_critical_percent", "must be at least wear_warning_percent (" +
                                         std::to_string(d.wear_warning_percent) + ")");
  f.Number("pool_capacity_warning_percent", d.pool_capacity_warning_percent, 1, 100);
  f.Number("pool_capacity_critical_percent", d.pool_capacity_critical_percent, 1, 100);
  if (d.pool_capacity_critical_percent < d.pool_capacity_warning_percent)
    f.Error("pool_capacity_critical_percent",
            "must be at least pool_capacity_warning_percent (" +
                std::to_string(d.pool_capacity_warning_percent) + ")");
}

void ReadWebhook(JsonWalker& f, WebhookConfig& w) {
  f.String("name", w.name);
  if (f.Required("url", "the http:// or https:// address to POST to") &&
      f.String("url", w.url)) {
    if (w.url.rfind("http://", 0) != 0 && w.url.rfind("https://", 0) != 0) {
      f.Error("url", "must start with http:// or https://, found '" + w.url + "'");
    } else {
      std::string rest = w.url.substr(w.url.find("//") + 2);
      if (rest.empty() || rest[0] == '/' || rest[0] == ':')
        f.Error("url", "missing host in '" + w.url + "'");
    }
  }
  f.Choice("method", w.method, {"POST", "PUT"});
  f.String("content_type", w.content_type);
  if (w.content_type.empty() || w.content_type.find_first_of("\r\n") != std::string::npos)
    f.Error("content_type", "must be a MIME type such as application/json or text/plain");
  f.String("body_template", w.body_template);
  f.StringMap("headers", w.headers);
  for (const auto& [k, v] : w.headers) {
    if (k.empty() || k.find_first_of(":\r\n ") != std::string::npos ||
        v.find_first_of("\r\n") != std::string::npos)
      f.Error("headers." + k, "header names must be tokens and values a single line");
  }
  f.String("ca_file", w.ca_file);
  f.Bool("verify_tls", w.verify_tls);
  f.Number("timeout_seconds", w.timeout_seconds, 1, 600);
  f.Number("max_attempts", w.max_attempts, 1, 100);
  f.Number("retry_initial_seconds", w.retry_initial_seconds, 0, 86400);
  f.Number("retry_max_seconds", w.retry_max_seconds, 0, 86400);
  Severity(f, w.min_severity);
}

void ReadSmtp(JsonWalker& f, SmtpConfig& s) {
  if (f.Required("host", "the SMTP server's host name, e.g. smtp.gmail.com") &&
      f.String("host", s.host) && (s.host.empty() || s.host.find_first_of(" /:\r\n") != std::string::npos))
    f.Error("host", "must be a host name or address without a port, found '" + s.host + "'");
  f.Choice("security", s.security, {"starttls", "tls", "none"});
  f.Number("port", s.port, 1, 65535);
  if (s.port == 0) s.port = s.security == "tls" ? 465 : s.security == "starttls" ? 587 : 25;
  f.String("username", s.username);
  f.String("password", s.password);
  if (f.String("password_file", s.password_file)) {
    if (!s.password.empty()) {
      f.Error("password_file", "give password or password_file, not both");
    } else {
      std::ifstream in(s.password_file);
      if (!in || !std::getline(in, s.password))
        f.Error("password_file", "cannot read '" + s.password_file + "'");
      if (!s.password.empty() && s.password.back() == '\r') s.password.pop_back();
    }
  }
  if (!s.password.empty() && s.username.empty())
    f.Error("username", "required with a password: the login name");
  if (!s.username.empty() && s.password.empty())
    f.Error("password", "required with a username (or password_file)");
  // A password is never sent in clear, not even to the next room.
  if (s.security == "none" && !s.username.empty())
    f.Error("security",
            "\"none\" sends the password in clear: use \"starttls\" (port 587) or \"tls\" (465)");
  f.Bool("verify_tls", s.verify_tls);
  f.String("ca_file", s.ca_file);
  f.String("helo_name", s.helo_name);
  if (s.helo_name.find_first_of(" \r\n") != std::string::npos)
    f.Error("helo_name", "must be one host name");
}

bool IsAddress(const std::string& a) {
  auto at = a.find('@');
  return at != std::string::npos && at > 0 && at + 1 < a.size() &&
         a.find_first_of("\r\n,;<> \t") == std::string::npos;
}

void ReadMail(JsonWalker& f, MailConfig& m) {
  f.String("name", m.name);
  const bool smtp = f.Object("smtp", [&](JsonWalker& sf) { ReadSmtp(sf, m.smtp); });
  if (smtp && f.Find("command"))
    f.Error("command", "give either command (a sendmail program) or smtp (a server), not both");
  // A single string is a one-item list, but a command line in one string
  // would be run as one program name: no shell splits it.
  if (const json* c = f.Find("command");
      c && c->is_string() && c->get<std::string>().find_first_of(" \t") != std::string::npos)
    f.Error("command",
            "runs without a shell: give the program and each argument as items of a list, e.g. "
            "[\"/usr/sbin/sendmail\", \"-t\"]");
  else if (f.Strings("command", m.command) && m.command.empty())
    f.Error("command",
            "must name a sendmail-compatible program, e.g. [\"/usr/sbin/sendmail\", \"-t\"]");
  if (f.Required("to", "at least one address") && f.Strings("to", m.to)) {
    if (m.to.empty()) f.Error("to", "required: at least one address");
    for (const auto& a : m.to) {
      if (a.find('@') == std::string::npos || a.find_first_of("\r\n,; ") != std::string::npos)
        f.Error("to", "not a single e-mail address: '" + a + "'");
    }
  }
  const bool from_given = f.String("from", m.from);
  if (m.from.find_first_of("\r\n") != std::string::npos) f.Error("from", "must be one line");
  if (smtp) {
    // Providers take mail only from the account's own address; that is the
    // sender unless another is given.
    if (!from_given && IsAddress(m.smtp.username)) m.from = m.smtp.username;
    std::string bare = m.from;
    if (auto lt = bare.rfind('<'), gt = bare.rfind('>');
        lt != std::string::npos && gt != std::string::npos && gt > lt)
      bare = bare.substr(lt + 1, gt - lt - 1);
    if (!IsAddress(bare))
      f.Error("from", from_given ? "with smtp, must be an e-mail address (\"a@b\" or \"Name <a@b>\"), found '" + m.from + "'"
                                 : "required with smtp: the sender's e-mail address");
  }
  f.String("subject_prefix", m.subject_prefix);
  if (m.subject_prefix.find_first_of("\r\n") != std::string::npos)
    f.Error("subject_prefix", "must be one line");
  f.Number("timeout_seconds", m.timeout_seconds, 1, 3600);
  f.Number("max_attempts", m.max_attempts, 1, 100);
  f.Number("retry_initial_seconds", m.retry_initial_seconds, 0, 86400);
  f.Number("retry_max_seconds", m.retry_max_seconds, 0, 86400);
  Severity(f, m.min_severity);
}

void ReadMqtt(JsonWalker& f, MqttConfig& m) {
  f.String("name", m.name);
  if (f.Required("host", "the broker's host name or address") && f.String("host", m.host) &&
      m.host.empty())
    f.Error("host", "required: the broker's host name or address");
  f.Number("port", m.port, 1, 65535);
  f.String("username", m.username);
  f.String("password", m.password);
  if (!m.password.empty() && m.username.empty())
    f.Error("password", "a password goes with a username");
  f.String("client_id", m.client_id);
  f.String("ca_file", m.ca_file);
  // MQTT topics: no wildcards in what is published, no empty levels at the ends.
  for (auto [key, value] : {std::pair{"topic_prefix", &m.topic_prefix},
                            std::pair{"discovery_prefix", &m.discovery_prefix}}) {
    if (!f.String(key, *value)) continue;
    if (value->empty()) {
      if (std::string_view(key) == "topic_prefix") f.Error(key, "must not be empty");
    } else if (value->find_first_of("+#") != std::string::npos || value->front() == '/' ||
               value->back() == '/') {
      f.Error(key, "must be a topic without + or # and without a leading or trailing /, found '" +
                       *value + "'");
    }
  }
  f.Number("timeout_seconds", m.timeout_seconds, 1, 3600);
  f.Number("max_attempts", m.max_attempts, 1, 100);
  f.Number("retry_initial_seconds", m.retry_initial_seconds, 0, 86400);
  f.Number("retry_max_seconds", m.retry_max_seconds, 0, 86400);
  Severity(f, m.min_severity);
}

// Reads the array of objects at key, one T per element, naming unnamed ones
// "<unnamed>-N" (N = index).
template <typename T>
void Sinks(JsonWalker& f, const char* key, const char* unnamed, std::vector<T>& out,
           void (*read)(JsonWalker&, T&)) {
  f.Objects(key, [&](JsonWalker& e, std::size_t i) {
    T item;
    read(e, item);
    if (item.name.empty()) item.name = std::string(unnamed) + "-" + std::to_string(i);
    out.push_back(std::move(item));
  });
}

}  // namespace

void ReadAlerts(JsonWalker& f, AlertsConfig& c) {
  f.Bool("enabled", c.enabled);
  f.Number("resolve_after_clear_runs", c.resolve_after_clear_runs, 1, 1000);
  f.Number("first_reminder_hours", c.first_reminder_hours, 1, 24 * 365);
  f.Number("persist_before_notify_hours", c.persist_before_notify_hours, 0, 24 * 60);
  f.Number("max_reminder_days", c.max_reminder_days, 0, 3650);
  f.Number("queue_capacity", c.queue_capacity, 1, 100000);
  Sinks(f, "webhooks", "webhook", c.webhooks, ReadWebhook);
  Sinks(f, "mail", "mail", c.mail, ReadMail);
  Sinks(f, "mqtt", "mqtt", c.mqtt, ReadMqtt);
  // true/false alone turns syslog on or off with its defaults.
  if (const json* s = f.Find("syslog"); s && s->is_boolean()) {
    c.syslog.enabled = s->get<bool>();
  } else if (s && !s->is_object()) {
    f.Error("syslog", std::string("expected an object or true/false, found ") + JsonKind(*s));
  } else {
    f.Object("syslog", [&](JsonWalker& sf) {
      c.syslog.enabled = true;
      sf.Bool("enabled", c.syslog.enabled);
      sf.Choice("facility", c.syslog.facility,
                {"daemon", "user", "local0", "local1", "local2", "local3", "local4", "local5",
                 "local6", "local7"},
                "daemon, user or local0..local7");
      Severity(sf, c.syslog.min_severity);
    });
  }
  f.Object("detection", [&](JsonWalker& df) { ReadDetection(df, c.detection); });
}

}  // namespace dp
