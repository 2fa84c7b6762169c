#include "config/alerts_config.h"

#include <gtest/gtest.h>

#include "config/config.h"

namespace dp {
namespace {

TEST(AlertsConfig, DefaultsWhenEmpty) {
  auto c = ParseAlertsConfig(nlohmann::json::object());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_TRUE(c->enabled);
  EXPECT_EQ(c->resolve_after_clear_runs, 3);
  EXPECT_TRUE(c->webhooks.empty());
  EXPECT_FALSE(c->syslog.enabled);
  EXPECT_EQ(c->detection.baseline_runs, 5);
}

TEST(AlertsConfig, FullExample) {
  auto j = nlohmann::json::parse(R"({
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
  auto c = ParseAlertsConfig(j);
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
  auto j = nlohmann::json::parse(R"({
    "webhooks": [{"url": "ftp://x"}, {"url": "http://ok/", "method": "GET", "colour": 1}],
    "mail": [{"command": []}],
    "syslog": {"facility": "kern"},
    "detection": {"band_sigmas": -1},
    "reminders": true
  })");
  auto c = ParseAlertsConfig(j);
  ASSERT_FALSE(c.ok());
  const std::string& m = c.status().message();
  for (const char* want : {"alerts.webhooks[0].url: must start with http:// or https://",
                           "alerts.webhooks[1].method: expected POST or PUT",
                           "alerts.webhooks[1].colour: unknown key",
                           "alerts.mail[0].command: must name",
                           "alerts.mail[0].to: required",
                           "alerts.syslog.facility: expected daemon, user or local0..local7",
                           "alerts.detection.band_sigmas: must be between",
                           "alerts.reminders: unknown key"}) {
    EXPECT_NE(m.find(want), std::string::npos) << "missing '" << want << "' in:\n" << m;
  }
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

}  // namespace
}  // namespace dp
