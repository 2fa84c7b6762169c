#include "config/alerts_config.h"

#include <set>
#include <sstream>

#include "config/json_kind.h"

namespace dp {
namespace {

using nlohmann::json;

// Reads the keys of one JSON object into fields, recording a message
// "PATH.key: what" for every wrong value and unknown key.
class Fields {
 public:
  Fields(const json& obj, std::string path, std::vector<std::string>& errors)
      : obj_(obj), path_(std::move(path)), errors_(errors) {}
  ~Fields() {
    for (auto it = obj_.begin(); it != obj_.end(); ++it)
      if (!seen_.count(it.key())) Error(it.key(), "unknown key (misspelt?)");
  }

  void Error(std::string_view key, std::string_view what) {
    errors_.push_back(path_ + "." + std::string(key) + ": " + std::string(what));
  }
  std::string Path(std::string_view key) const { return path_ + "." + std::string(key); }

  const json* Find(const char* key) {
    seen_.insert(key);
    auto it = obj_.find(key);
    return it == obj_.end() ? nullptr : &*it;
  }

  void String(const char* key, std::string& out) {
    if (const json* v = Find(key)) {
      if (v->is_string())
        out = v->get<std::string>();
      else
        Error(key, std::string("expected a string, found ") + JsonKind(*v));
    }
  }

  void Bool(const char* key, bool& out) {
    if (const json* v = Find(key)) {
      if (v->is_boolean())
        out = v->get<bool>();
      else
        Error(key, std::string("expected true or false, found ") + JsonKind(*v));
    }
  }

  void Strings(const char* key, std::vector<std::string>& out) {
    const json* v = Find(key);
    if (!v) return;
    if (!v->is_array()) {
      Error(key, std::string("expected an array of strings, found ") + JsonKind(*v));
      return;
    }
    std::vector<std::string> tmp;
    for (const auto& e : *v) {
      if (!e.is_string()) {
        Error(key,
              std::string("expected an array of strings, found an element that is ") + JsonKind(e));
        return;
      }
      tmp.push_back(e.get<std::string>());
    }
    out = std::move(tmp);
  }

  void StringMap(const char* key, std::map<std::string, std::string>& out) {
    const json* v = Find(key);
    if (!v) return;
    if (!v->is_object()) {
      Error(key, std::string("expected an object of strings, found ") + JsonKind(*v));
      return;
    }
    for (auto it = v->begin(); it != v->end(); ++it) {
      if (!it.value().is_string()) {
        Error(std::string(key) + "." + it.key(),
              std::string("expected a string, found ") + JsonKind(it.value()));
        continue;
      }
      out[it.key()] = it.value().get<std::string>();
    }
  }

  template <typename T>
  void Number(const char* key, T& out, double min, double max) {
    const json* v = Find(key);
    if (!v) return;
    if (!v->is_number()) {
      Error(key, std::string("expected a number, found ") + JsonKind(*v));
      return;
    }
    if constexpr (std::is_integral_v<T>) {
      if (!v->is_number_integer() && !v->is_number_unsigned()) {
        Error(key, "expected a whole number, found " + v->dump());
        return;
      }
    }
    double d = v->get<double>();
    if (d < min || d > max) {
      std::ostringstream os;
      os << "must be between " << min << " and " << max << ", found " << v->dump();
      Error(key, os.str());
      return;
    }
    out = static_cast<T>(d);
  }

  void Severity(const char* key, std::string& out) {
    String(key, out);
    if (out != "info" && out != "warning" && out != "critical") {
      Error(key, "expected info, warning or critical, found '" + out + "'");
      out = "info";
    }
  }

 private:
  const json& obj_;
  std::string path_;
  std::vector<std::string>& errors_;
  std::set<std::string> seen_;
};

void ParseDetection(Fields& f, DetectionConfig& d) {
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
  f.Number("drive_wide_score", d.drive_wide_score, 0, 20);
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
}

void ParseWebhook(Fields& f, WebhookConfig& w) {
  f.String("name", w.name);
  f.String("url", w.url);
  if (!f.Find("url")) {
    f.Error("url", "required: the http:// or https:// address to POST to");
  } else if (w.url.rfind("http://", 0) != 0 && w.url.rfind("https://", 0) != 0) {
    f.Error("url", "must start with http:// or https://, found '" + w.url + "'");
  } else {
    std::string rest = w.url.substr(w.url.find("//") + 2);
    if (rest.empty() || rest[0] == '/' || rest[0] == ':')
      f.Error("url", "missing host in '" + w.url + "'");
  }
  f.String("method", w.method);
  if (w.method != "POST" && w.method != "PUT")
    f.Error("method", "expected POST or PUT, found '" + w.method + "'");
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
  f.Severity("min_severity", w.min_severity);
}

void ParseMail(Fields& f, MailConfig& m) {
  f.String("name", m.name);
  f.Strings("command", m.command);
  if (m.command.empty() || m.command[0].empty())
    f.Error("command",
            "must name a sendmail-compatible program, e.g. [\"/usr/sbin/sendmail\", \"-t\"]");
  f.Strings("to", m.to);
  if (m.to.empty()) f.Error("to", "required: at least one address");
  for (const auto& a : m.to) {
    if (a.find('@') == std::string::npos || a.find_first_of("\r\n,; ") != std::string::npos)
      f.Error("to", "not a single e-mail address: '" + a + "'");
  }
  f.String("from", m.from);
  if (m.from.find_first_of("\r\n") != std::string::npos) f.Error("from", "must be one line");
  f.String("subject_prefix", m.subject_prefix);
  if (m.subject_prefix.find_first_of("\r\n") != std::string::npos)
    f.Error("subject_prefix", "must be one line");
  f.Number("timeout_seconds", m.timeout_seconds, 1, 3600);
  f.Number("max_attempts", m.max_attempts, 1, 100);
  f.Number("retry_initial_seconds", m.retry_initial_seconds, 0, 86400);
  f.Number("retry_max_seconds", m.retry_max_seconds, 0, 86400);
  f.Severity("min_severity", m.min_severity);
}

// Calls fn(Fields&, T&) for every element of an array of objects at key.
template <typename T, typename Fn>
void ObjectList(Fields& f, const char* key, std::vector<T>& out, std::vector<std::string>& errors,
                Fn fn) {
  const json* v = f.Find(key);
  if (!v) return;
  if (!v->is_array()) {
    f.Error(key, std::string("expected an array of objects, found ") + JsonKind(*v));
    return;
  }
  for (std::size_t i = 0; i < v->size(); ++i) {
    std::string path = f.Path(key) + "[" + std::to_string(i) + "]";
    const json& e = (*v)[i];
    if (!e.is_object()) {
      errors.push_back(path + ": expected an object, found " + JsonKind(e));
      continue;
    }
    T item;
    {
      Fields sub(e, path, errors);
      fn(sub, item);
    }
    out.push_back(std::move(item));
  }
}

}  // namespace

Result<AlertsConfig> ParseAlertsConfig(const nlohmann::json& alerts) {
  if (!alerts.is_object())
    return InvalidArgument(std::string("alerts: expected an object, found ") + JsonKind(alerts));
  AlertsConfig c;
  std::vector<std::string> errors;
  {
    Fields f(alerts, "alerts", errors);
    f.Bool("enabled", c.enabled);
    f.Number("resolve_after_clear_runs", c.resolve_after_clear_runs, 1, 1000);
    f.Number("first_reminder_hours", c.first_reminder_hours, 1, 24 * 365);
    f.Number("max_reminder_days", c.max_reminder_days, 0, 3650);
    f.Number("queue_capacity", c.queue_capacity, 1, 100000);
    ObjectList(f, "webhooks", c.webhooks, errors, ParseWebhook);
    ObjectList(f, "mail", c.mail, errors, ParseMail);
    if (const json* s = f.Find("syslog")) {
      if (s->is_boolean()) {
        c.syslog.enabled = s->get<bool>();
      } else if (!s->is_object()) {
        f.Error("syslog", std::string("expected an object or true/false, found ") + JsonKind(*s));
      } else {
        c.syslog.enabled = true;
        Fields sf(*s, "alerts.syslog", errors);
        sf.Bool("enabled", c.syslog.enabled);
        sf.String("facility", c.syslog.facility);
        static const std::set<std::string> kFacilities = {"daemon", "user",   "local0", "local1",
                                                          "local2", "local3", "local4", "local5",
                                                          "local6", "local7"};
        if (!kFacilities.count(c.syslog.facility))
          sf.Error("facility",
                   "expected daemon, user or local0..local7, found '" + c.syslog.facility + "'");
        sf.Severity("min_severity", c.syslog.min_severity);
      }
    }
    if (const json* d = f.Find("detection")) {
      if (!d->is_object()) {
        f.Error("detection", std::string("expected an object, found ") + JsonKind(*d));
      } else {
        Fields df(*d, "alerts.detection", errors);
        ParseDetection(df, c.detection);
      }
    }
  }
  for (std::size_t i = 0; i < c.webhooks.size(); ++i)
    if (c.webhooks[i].name.empty()) c.webhooks[i].name = "webhook-" + std::to_string(i);
  for (std::size_t i = 0; i < c.mail.size(); ++i)
    if (c.mail[i].name.empty()) c.mail[i].name = "mail-" + std::to_string(i);
  if (!errors.empty()) {
    std::string all;
    for (const auto& e : errors) {
      if (!all.empty()) all += '\n';
      all += e;
    }
    return InvalidArgument(all);
  }
  return c;
}

}  // namespace dp
