// AlertsConfig: the typed form of the config file's "alerts" section: how
// alerts behave (auto-resolve, reminders), where they go (webhooks, mail
// command, syslog) and the detection thresholds (DetectionConfig) that decide
// when a drive is slow or sick. Lives in config/ (layer 2) so that
// ParseConfig validates it for `--check-config`; detect/ and alert/ (layer 3)
// read it. Plain value types; every field states its default.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/result.h"

namespace dp {

class JsonWalker;

// Thresholds of the detect module. Methods are documented in detect/*.h.
struct DetectionConfig {
  int baseline_runs = 5;            // good, uncontended runs before a series is judged
  int baseline_max_runs = 100;      // the baseline holds the newest this many screened runs
  double band_sigmas = 2.25;        // single-run band: sigmas of a prediction for one run
  double min_band_percent = 6;      // single-run band half-width at least this % of the baseline
  double confirm_sigmas = 4.5;      // pair band (slowdown): sigmas of a mean of two runs
  double confirm_min_percent = 10;  // pair band half-width at least this % of the baseline
  double cusum_k = 1.0;    // CUSUM reference value (normal scores per run)
  double cusum_h = 8.0;    // CUSUM decision interval
  double cusum_cap = 4.0;  // a run adds at most this score (cusum_cap - cusum_k < cusum_h)
  int retest_delay_minutes = 360;  // a doubtful run is re-tested this long after it
  // A slowdown seen while every other judged test of the drive is worse too
  // (detect/drive_shift.h) is held until it outlasts this many days and a
  // re-test; drive_wide_score: how worse (normal units) the other read paths'
  // runs must be on average, drive_wide_least_score: each of them at least;
  // drive_wide_min_tests: other read paths (zones, seq and sweep are one)
  // that must have run.
  double drive_wide_hold_days = 3;
  // 1.75, not 2: at 10-15% noise, interference 13-32% deep that outlasts
  // its re-test scores the other two paths 1.76-1.99 on average, so a
  // threshold of 2 lets it through as the drive's own slowdown. The price of
  // the lower threshold: a real 15% drop on a noisy drive is held a week a
  // little more often, since chance lifts two other paths past 1.75 sooner
  // than past 2 (benchmarks/README.md, "Detection quality", has the counts).
  double drive_wide_score = 1.75;
  double drive_wide_least_score = 1;
  int drive_wide_min_tests = 2;
  int trend_min_runs = 13;          // good runs needed before a trend is judged
  double trend_min_span_days = 21;  // and the span they must cover
  double trend_window_days = 180;   // the trend looks at runs this recent
  // Mann-Kendall one-sided significance level per evaluation: a trend is
  // re-tested after every run of 13 series on overlapping windows, so the
  // drive-year budget needs far less than 0.001: at 0.001 chance alone would
  // report a trend on some healthy drive every few months.
  double trend_alpha = 1e-7;
  double trend_min_percent_per_month = 2;  // smaller slopes are not reported
  double peer_min_percent = 10;            // a drive must be this % worse than its siblings' median
  double peer_sigmas = 2;                  // and this many robust sigmas of the siblings' spread
  int peer_min_siblings = 2;               // siblings measured in the same window needed to judge
  int peer_window_seconds = 43200;         // siblings' runs within +/- this of the drive's run
  // A shift every measured vdev sibling shares that has lasted this long
  // (it was there a scheduled run ago) is absorbed: the drive's baselines of
  // every test re-form from its first shifted run (an automatic re-baseline
  // mark). 0 = never absorb.
  double environment_absorb_days = 6;
  int temperature_max_c = 60;              // SATA/SAS drive temperature ceiling
  int nvme_temperature_max_c = 75;         // NVMe temperature ceiling
  int nvme_spare_min_percent = 10;         // used when the drive reports no spare threshold
  // Drive and pool health (detect/health_detector.h).
  // A drive gone this long raises a "missing" alert. Short, because the
  // presence pass (inventory.presence_interval_seconds) looks every two
  // minutes: the alert needs the drive gone at two looks this far apart, so
  // a bus reset that drops a disk for seconds never raises it.
  int missing_grace_minutes = 1;
  int scrub_overdue_days = 35;            // a pool not scrubbed this long (a monthly scrub + slack)
  // A drive whose newest SMART self-test ran this many powered-on days ago
  // (or that never ran one in as many) has one overdue; 0 = not judged.
  int self_test_overdue_days = 8;
  int wear_warning_percent = 80;          // SSD endurance used: warning from here
  int wear_critical_percent = 95;         // and critical from here
  int pool_capacity_warning_percent = 80; // pool space used: warning from here
  int pool_capacity_critical_percent = 90;
  bool operator==(const DetectionConfig&) const = default;
};

// One HTTP(S) endpoint. The body is `body_template` with {{placeholders}}
// replaced (see alert/notification.h for the list); "" sends the
// notification's JSON document. In a JSON content type the replacements are
// JSON-string-escaped, so templates such as {"text": "{{summary}}"} stay valid.
struct WebhookConfig {
  std::string name;             // for logs; default "webhook-N"
  std::string url;              // required: http:// or https://
  std::string method = "POST";  // POST | PUT
  std::string content_type = "application/json";
  std::string body_template;                   // "" = the full JSON notification
  std::map<std::string, std::string> headers;  // values are templates too
  std::string ca_file;                         // PEM bundle to trust; "" = system store
  bool verify_tls = true;                      // false only for testing; logged loudly
  int timeout_seconds = 10;                    // per attempt: connect + send + answer
  int max_attempts = 4;                        // 1 = no retry
  int retry_initial_seconds = 5;               // backoff: doubles each retry
  int retry_max_seconds = 300;
  std::string min_severity = "info";  // notifications below are not sent
  bool operator==(const WebhookConfig&) const = default;
};

// An SMTP submission server the mail sink talks to itself (net/smtp_client.h)
// instead of running a sendmail command; host "" = not used.
struct SmtpConfig {
  std::string host;
  int port = 0;                         // 0 = the security's: 587, 465 or 25
  std::string security = "starttls";    // starttls | tls | none (no AUTH then)
  std::string username;                 // "" = no AUTH
  std::string password;                 // or read from password_file at load
  std::string password_file;            // its first line is the password
  bool verify_tls = true;               // false only for testing; logged loudly
  std::string ca_file;                  // PEM bundle to trust; "" = system store
  std::string helo_name;                // "" = the host's name
  bool operator==(const SmtpConfig&) const = default;
};

// Mail: through a sendmail-compatible command (the whole message, headers +
// body, on stdin), or through an SMTP server when smtp.host is set.
struct MailConfig {
  std::string name;                                                        // default "mail-N"
  std::vector<std::string> command = {"/usr/sbin/sendmail", "-t", "-oi"};  // argv, no shell
  SmtpConfig smtp;
  std::vector<std::string> to;     // required, at least one address
  std::string from = "diskpulse";  // From: header; with smtp an address ("" = username)
  std::string subject_prefix = "[diskpulse]";
  int timeout_seconds = 30;
  int max_attempts = 3;
  int retry_initial_seconds = 30;
  int retry_max_seconds = 600;
  std::string min_severity = "warning";
  bool operator==(const MailConfig&) const = default;
};

// An MQTT broker (Home Assistant's Mosquitto add-on, any MQTT 3.1.1 broker),
// over one connection: each notification is published as JSON on
// TOPIC_PREFIX/HOST/alerts, and each drive's and pool's state (retained on
// TOPIC_PREFIX/HOST/drive/ID/state and .../pool/NAME/state, with Home
// Assistant discovery configs under DISCOVERY_PREFIX) whenever it changes;
// TOPIC_PREFIX/HOST/status says "online", or "offline" (the last will)
// (alert/mqtt_sink.h).
struct MqttConfig {
  std::string name;                          // default "mqtt-N"
  std::string host;                          // required
  int port = 1883;                           // 8883 is usual with ca_file
  std::string username, password;            // "" = anonymous
  std::string client_id;                     // "" = "diskpulse-HOST"
  std::string ca_file;                       // "" = plain TCP; else TLS against this PEM
  std::string topic_prefix = "diskpulse";
  std::string discovery_prefix = "homeassistant";  // "" = no Home Assistant discovery
  int timeout_seconds = 10;
  int max_attempts = 8;                      // a broker that is down is retried for hours
  int retry_initial_seconds = 30;
  int retry_max_seconds = 3600;
  std::string min_severity = "info";
  bool operator==(const MqttConfig&) const = default;
};

struct SyslogAlertConfig {
  bool enabled = false;             // off by default
  std::string facility = "daemon";  // daemon | user | local0 .. local7
  std::string min_severity = "info";
  bool operator==(const SyslogAlertConfig&) const = default;
};

struct AlertsConfig {
  bool enabled = true;               // false: verdicts are stored, nothing is sent
  int resolve_after_clear_runs = 3;  // clear evaluations in a row that resolve an alert
  int first_reminder_hours = 24;     // reminders at 1, 2, 4, ... days after the last
  // A slowdown, peer or environment alert below critical is notified only
  // when it still fires this long after it opened (a watch until then): a
  // drive's hours-long housekeeping outlasts the re-test, not a day. 0 = at once.
  int persist_before_notify_hours = 20;
  int max_reminder_days = 32;        // cap on the reminder interval; 0 = no reminders
  int queue_capacity = 256;          // per sink; the oldest notification is dropped beyond
  std::vector<WebhookConfig> webhooks;
  std::vector<MailConfig> mail;
  std::vector<MqttConfig> mqtt;
  SyslogAlertConfig syslog;
  DetectionConfig detection;
  bool operator==(const AlertsConfig&) const = default;
};

// Reads the "alerts" object (config/json_walker.h's rules; messages such as
// "FILE:LINE: alerts.webhooks[0].url: must start with http:// or https://").
void ReadAlerts(JsonWalker& alerts, AlertsConfig& out);

}  // namespace dp
