#include "config/alerts_config.h"

#include <gtest/gtest.h>

#include <fstream>

#include "config/config.h"

namespace dp {
namespace {

// The "alerts" section of a configuration that holds only it.
Result<AlertsConfig> ParseAlerts(const std::string& alerts) {
  auto c = ParseConfig("{\"alerts\": " + alerts + "}", "x.json");
  if (!c.ok()) return c.status();
  return c->alerts_config;
}

TEST(AlertsConfig, DefaultsWhenEmpty) {
  auto c = ParseAlerts("{}");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_TRUE(c->enabled);
  EXPECT_EQ(c->resolve_after_clear_runs, 3);
  EXPECT_TRUE(c->webhooks.empty());
  EXPECT_FALSE(c->syslog.enabled);
  EXPECT_EQ(c->detection.baseline_runs, 5);
}

TEST(AlertsConfig, FullExample) {
  auto c = ParseAlerts(R"({
    "resolve_after_clear_runs": 2,
    "first_reminder_hours": 12,
    "webhooks": [
      {"url": "https://ntfy.sh/my-nas", "content_type": "text/plain",
       "body_template": "{{summary}}", "headers": {"Title": "{{title}}", "Priority": "{{priority}}"}},
      {"name": "slack", "url": "http://127.0.0.1:9000/hook", "body_template": "{\"text\": \"{{title}}\"}",
       "min_severity": "warning", "timeout_seconds": 5, "max_attempts": 2}
    ],
    "mail": [{"to": ["root@localhost"], "command": ["/usr/sbin/sendmail", "-t", "-oi"]}],
    "syslog": {"facility": "local0"},
    "detection": {"baseline_runs": 6, "band_sigmas": 3.5, "temperature_max_c": 55}
  })");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_EQ(c->webhooks.size(), 2u);
  EXPECT_EQ(c->webhooks[0].name, "webhook-0");
  EXPECT_EQ(c->webhooks[0].headers.at("Priority"), "{{priority}}");
  EXPECT_EQ(c->webhooks[1].name, "slack");
  EXPECT_EQ(c->webhooks[1].max_attempts, 2);
  EXPECT_EQ(c->mail[0].name, "mail-0");
  EXPECT_TRUE(c->syslog.enabled);
  EXPECT_EQ(c->syslog.facility, "local0");
  EXPECT_EQ(c->detection.baseline_runs, 6);
  EXPECT_EQ(c->detection.band_sigmas, 3.5);
  EXPECT_EQ(c->detection.temperature_max_c, 55);
  EXPECT_EQ(c->first_reminder_hours, 12);
}

TEST(AlertsConfig, ErrorsNameTheKey) {
  auto c = ParseAlerts(R"({
    "webhooks": [{"url": "ftp://x"}, {"url": "http://ok/", "method": "GET", "colour": 1}],
    "mail": [{"command": []}],
    "syslog": {"facility": "kern"},
    "detection": {"band_sigmas": -1},
    "reminders": true
  })");
  ASSERT_FALSE(c.ok());
  const std::string& m = c.status().message();
  for (const char* want :
       {"alerts.webhooks[0].url: must start with http:// or https://",
        "alerts.webhooks[1].method: expected POST or PUT", "alerts.webhooks[1].colour: unknown key",
        "alerts.mail[0].command: must name", "alerts.mail[0].to: required",
        "alerts.syslog.facility: expected daemon, user or local0..local7",
        "alerts.detection.band_sigmas: must be between", "alerts.reminders: unknown key"}) {
    EXPECT_NE(m.find(want), std::string::npos) << "missing '" << want << "' in:\n" << m;
  }
}

TEST(AlertsConfig, MailThroughSmtp) {
  auto c = ParseAlerts(R"({"mail": [
    {"to": ["me@fastmail.com"],
     "smtp": {"host": "smtp.fastmail.com", "username": "me@fastmail.com", "password": "app-pw"}},
    {"to": "ops@example.org", "from": "NAS <nas@example.org>",
     "smtp": {"host": "smtp.gmail.com", "security": "tls", "username": "nas@gmail.com",
              "password": "x", "ca_file": "/etc/ssl/corp.pem"}},
    {"to": "ops@example.org", "from": "nas@example.org",
     "smtp": {"host": "relay.lan", "security": "none"}}
  ]})");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_EQ(c->mail.size(), 3u);
  EXPECT_EQ(c->mail[0].smtp.port, 587);
  EXPECT_EQ(c->mail[0].smtp.security, "starttls");
  EXPECT_TRUE(c->mail[0].smtp.verify_tls);
  EXPECT_EQ(c->mail[0].from, "me@fastmail.com");  // the login is the sender unless given
  EXPECT_EQ(c->mail[1].smtp.port, 465);
  EXPECT_EQ(c->mail[1].from, "NAS <nas@example.org>");
  EXPECT_EQ(c->mail[1].smtp.ca_file, "/etc/ssl/corp.pem");
  EXPECT_EQ(c->mail[2].smtp.port, 25);
  EXPECT_TRUE(c->mail[2].smtp.username.empty());
}

TEST(AlertsConfig, SmtpPasswordFromAFile) {
  std::string file = ::testing::TempDir() + "/smtp-password";
  {
    std::ofstream out(file);
    out << "from-the-file\n";
  }
  auto c = ParseAlerts(R"({"mail": [{"to": "a@b.c", "smtp": {"host": "h", "username": "a@b.c",
    "password_file": ")" + file + R"("}}]})");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->mail[0].smtp.password, "from-the-file");
}

TEST(AlertsConfig, SmtpErrorsNameTheKey) {
  auto c = ParseAlerts(R"({"mail": [
    {"to": "a@b.c", "command": ["/usr/sbin/sendmail"], "smtp": {"host": "h", "security": "ssl"}},
    {"to": "a@b.c", "smtp": {"host": "relay", "security": "none", "username": "u", "password": "p"}},
    {"to": "a@b.c", "smtp": {"host": "h", "username": "u"}},
    {"to": "a@b.c", "smtp": {"port": 25, "password": "p", "password_file": "/nonexistent"}},
    {"to": "a@b.c", "from": "diskpulse", "smtp": {"host": "smtp.example.org:587"}}
  ]})");
  ASSERT_FALSE(c.ok());
  const std::string& m = c.status().message();
  for (const char* want :
       {"alerts.mail[0].command: give either command (a sendmail program) or smtp",
        "alerts.mail[0].smtp.security: expected starttls, tls or none",
        "alerts.mail[1].smtp.security: \"none\" sends the password in clear",
        "alerts.mail[2].smtp.password: required with a username",
        "alerts.mail[2].from: required with smtp: the sender's e-mail address",
        "alerts.mail[3].smtp.host: required", "alerts.mail[3].smtp.password_file: give password or",
        "alerts.mail[3].smtp.username: required with a password",
        "alerts.mail[4].from: with smtp, must be an e-mail address",
        "alerts.mail[4].smtp.host: must be a host name or address without a port"}) {
    EXPECT_NE(m.find(want), std::string::npos) << "missing '" << want << "' in:\n" << m;
  }
}

// The drive-wide test's least path score cannot exceed the paths' mean it
// bounds: the configuration says so instead of holding nothing.
TEST(AlertsConfig, DriveWideLeastScoreIsAtMostTheMean) {
  auto bad = ParseAlerts(R"({"detection": {"drive_wide_score": 2, "drive_wide_least_score": 3}})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().ToString().find(
                "alerts.detection.drive_wide_least_score: must be at most drive_wide_score"),
            std::string::npos)
      << bad.status().ToString();
  // Equal to the default mean: each path must be that much worse.
  auto each = ParseAlerts(R"({"detection": {"drive_wide_least_score": 1.75}})");
  ASSERT_TRUE(each.ok()) << each.status().ToString();
  EXPECT_DOUBLE_EQ(each->detection.drive_wide_least_score, 1.75);
  EXPECT_FALSE(ParseAlerts(R"({"detection": {"drive_wide_least_score": 2}})").ok());
  EXPECT_DOUBLE_EQ(ParseAlerts("{}")->detection.drive_wide_least_score, 1);
}

TEST(AlertsConfig, HealthLimits) {
  auto ok = ParseAlerts(R"({"detection": {"missing_grace_minutes": 5, "scrub_overdue_days": 40,
      "self_test_overdue_days": 0, "wear_warning_percent": 70, "wear_critical_percent": 90,
      "pool_capacity_warning_percent": 85, "pool_capacity_critical_percent": 95}})");
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->detection.missing_grace_minutes, 5);
  EXPECT_EQ(ok->detection.scrub_overdue_days, 40);
  EXPECT_EQ(ok->detection.self_test_overdue_days, 0);
  EXPECT_EQ(ok->detection.wear_warning_percent, 70);
  EXPECT_EQ(ok->detection.pool_capacity_critical_percent, 95);
  const DetectionConfig d;
  EXPECT_EQ(d.scrub_overdue_days, 35);
  EXPECT_EQ(d.pool_capacity_warning_percent, 80);
  EXPECT_EQ(d.pool_capacity_critical_percent, 90);
  auto bad = ParseAlerts(R"({"detection": {"wear_warning_percent": 90, "wear_critical_percent": 80}})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().ToString().find("alerts.detection.wear_critical_percent: must be at least"),
            std::string::npos)
      << bad.status().ToString();
  EXPECT_FALSE(ParseAlerts(R"({"detection": {"pool_capacity_warning_percent": 95,
      "pool_capacity_critical_percent": 90}})").ok());
  EXPECT_FALSE(ParseAlerts(R"({"detection": {"scrub_overdue_days": -1}})").ok());
  EXPECT_FALSE(ParseAlerts(R"({"detection": {"pool_capacity_warning_percent": 101}})").ok());
}

TEST(AlertsConfig, CheckConfigRejectsBadAlertsWithFileAndLine) {
  std::string text =
      "{\n"
      "  \"alerts\": {\n"
      "    \"webhooks\": [\n"
      "      {\"url\": \"htp://typo\"}\n"
      "    ]\n"
      "  }\n"
      "}\n";
  auto c = ParseConfig(text, "/etc/diskpulse.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find(
                "/etc/diskpulse.json:4: alerts.webhooks[0].url: must start with http://"),
            std::string::npos)
      << c.status().message();
  auto good = ParseConfig(R"({"alerts": {"syslog": true}})", "x.json");
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EXPECT_TRUE(good->alerts_config.syslog.enabled);
}

TEST(AlertsConfig, ExampleFileStatesTheCompiledDefaults) {
  auto c = LoadConfigFile(std::string(DP_SOURCE_DIR) + "/config/diskpulse.json");
  ASSERT_TRUE(c.ok()) << c.status().message();
  const AlertsConfig& a = c->alerts_config;
  const AlertsConfig d;
  EXPECT_EQ(a.enabled, d.enabled);
  EXPECT_EQ(a.resolve_after_clear_runs, d.resolve_after_clear_runs);
  EXPECT_EQ(a.first_reminder_hours, d.first_reminder_hours);
  EXPECT_EQ(a.max_reminder_days, d.max_reminder_days);
  EXPECT_EQ(a.queue_capacity, d.queue_capacity);
  EXPECT_TRUE(a.webhooks.empty());
  EXPECT_TRUE(a.mail.empty());
  EXPECT_EQ(a.syslog.enabled, d.syslog.enabled);
  EXPECT_EQ(a.syslog.facility, d.syslog.facility);
  EXPECT_EQ(a.syslog.min_severity, d.syslog.min_severity);
  const DetectionConfig& x = a.detection;
  const DetectionConfig& y = d.detection;
  EXPECT_EQ(x.baseline_runs, y.baseline_runs);
  EXPECT_EQ(x.baseline_max_runs, y.baseline_max_runs);
  EXPECT_EQ(x.band_sigmas, y.band_sigmas);
  EXPECT_EQ(x.min_band_percent, y.min_band_percent);
  EXPECT_EQ(x.confirm_sigmas, y.confirm_sigmas);
  EXPECT_EQ(x.confirm_min_percent, y.confirm_min_percent);
  EXPECT_EQ(x.trend_min_runs, y.trend_min_runs);
  EXPECT_EQ(x.trend_min_span_days, y.trend_min_span_days);
  EXPECT_EQ(x.trend_window_days, y.trend_window_days);
  EXPECT_EQ(x.trend_alpha, y.trend_alpha);
  EXPECT_EQ(x.trend_min_percent_per_month, y.trend_min_percent_per_month);
  EXPECT_EQ(x.peer_min_percent, y.peer_min_percent);
  EXPECT_EQ(x.peer_sigmas, y.peer_sigmas);
  EXPECT_EQ(x.peer_min_siblings, y.peer_min_siblings);
  EXPECT_EQ(x.peer_window_seconds, y.peer_window_seconds);
  EXPECT_EQ(x.temperature_max_c, y.temperature_max_c);
  EXPECT_EQ(x.nvme_temperature_max_c, y.nvme_temperature_max_c);
  EXPECT_EQ(x.nvme_spare_min_percent, y.nvme_spare_min_percent);
  EXPECT_EQ(x.missing_grace_minutes, y.missing_grace_minutes);
  EXPECT_EQ(x.scrub_overdue_days, y.scrub_overdue_days);
  EXPECT_EQ(x.self_test_overdue_days, y.self_test_overdue_days);
  EXPECT_EQ(x.wear_warning_percent, y.wear_warning_percent);
  EXPECT_EQ(x.wear_critical_percent, y.wear_critical_percent);
  EXPECT_EQ(x.pool_capacity_warning_percent, y.pool_capacity_warning_percent);
  EXPECT_EQ(x.pool_capacity_critical_percent, y.pool_capacity_critical_percent);
}

}  // namespace
}  // namespace dp
