// ApplyEnvironment: what a container's owner sets without a shell wins over
// the file; a listen address that does not parse is an error naming it. Mail
// (SMTP), MQTT and a webhook come from DISKPULSE_* variables through the
// file's own checks, and TZ must name a zone the schedules can use.
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "config/config.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

std::function<const char*(const char*)> Env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(ConfigEnvironment, ListenAndTokensComeFromTheEnvironment) {
  auto c = ParseConfig(R"({"listen": "127.0.0.1:8470", "api_token": "from-file"})", "t.json");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_TRUE(ApplyEnvironment(*c, Env({{"DISKPULSE_LISTEN", "0.0.0.0:9000"},
                                        {"DISKPULSE_API_TOKEN", "from-env"},
                                        {"DISKPULSE_READ_TOKEN", "look-only"}}))
                  .ok());
  EXPECT_EQ(c->listen_host, "0.0.0.0");
  EXPECT_EQ(c->listen_port, 9000);
  EXPECT_EQ(c->api_token, "from-env");
  EXPECT_EQ(c->read_token, "look-only");
  EXPECT_TRUE(ReadsNeedToken(*c));
}

TEST(ConfigEnvironment, UnsetOrEmptyLeavesTheFileAndABadListenIsNamed) {
  auto c = ParseConfig(R"({"api_token": "from-file"})", "t.json");
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE(ApplyEnvironment(*c, Env({{"DISKPULSE_API_TOKEN", ""}})).ok());
  EXPECT_EQ(c->api_token, "from-file");
  Status bad = ApplyEnvironment(*c, Env({{"DISKPULSE_LISTEN", "nowhere"}}));
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("DISKPULSE_LISTEN='nowhere'"), std::string::npos) << bad.message();
}

TEST(ConfigEnvironment, SmtpMailFromTheEnvironmentJoinsTheFilesAndIsCheckedLikeIt) {
  auto c = ParseConfig(R"({"alerts": {"mail": [{"to": ["ops@example.org"]}]}})", "t.json");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  dp::testing::TempDir dir;
  const std::string secret = dir.Path("smtp-password");
  std::ofstream(secret) << "s3cret\n";
  ASSERT_TRUE(ApplyEnvironment(*c, Env({{"DISKPULSE_SMTP_HOST", "smtp.example.org"},
                                        {"DISKPULSE_SMTP_SECURITY", "tls"},
                                        {"DISKPULSE_SMTP_USERNAME", "nas@example.org"},
                                        {"DISKPULSE_SMTP_PASSWORD_FILE", secret},
                                        {"DISKPULSE_MAIL_TO", "a@example.org, b@example.org"}}))
                  .ok());
  ASSERT_EQ(c->alerts_config.mail.size(), 2u);
  const MailConfig& m = c->alerts_config.mail[1];
  EXPECT_EQ(m.name, "env");
  EXPECT_EQ(m.smtp.host, "smtp.example.org");
  EXPECT_EQ(m.smtp.port, 465);  // the security's port when none is given
  EXPECT_EQ(m.smtp.password, "s3cret");
  EXPECT_EQ(m.from, "nas@example.org");
  EXPECT_EQ(m.to, (std::vector<std::string>{"a@example.org", "b@example.org"}));

  // Applied twice (a reload re-reads the file, but not here): still one "env".
  ASSERT_TRUE(ApplyEnvironment(*c, Env({{"DISKPULSE_SMTP_HOST", "other.example.org"},
                                        {"DISKPULSE_SMTP_PORT", "2525"},
                                        {"DISKPULSE_SMTP_SECURITY", "none"},
                                        {"DISKPULSE_MAIL_FROM", "nas@example.org"},
                                        {"DISKPULSE_MAIL_TO", "a@example.org"}}))
                  .ok());
  ASSERT_EQ(c->alerts_config.mail.size(), 2u);
  EXPECT_EQ(c->alerts_config.mail[1].smtp.port, 2525);

  // The file's rule: no password in clear.
  Status clear = ApplyEnvironment(*c, Env({{"DISKPULSE_SMTP_HOST", "smtp.example.org"},
                                           {"DISKPULSE_SMTP_SECURITY", "none"},
                                           {"DISKPULSE_SMTP_USERNAME", "nas@example.org"},
                                           {"DISKPULSE_SMTP_PASSWORD", "x"},
                                           {"DISKPULSE_MAIL_TO", "a@example.org"}}));
  EXPECT_NE(clear.message().find("environment"), std::string::npos) << clear.message();
  EXPECT_NE(clear.message().find("alerts.mail[0].smtp.security"), std::string::npos) << clear.message();
  Status no_to = ApplyEnvironment(*c, Env({{"DISKPULSE_SMTP_HOST", "smtp.example.org"}}));
  EXPECT_NE(no_to.message().find("DISKPULSE_MAIL_TO"), std::string::npos) << no_to.message();
  Status no_host = ApplyEnvironment(*c, Env({{"DISKPULSE_MAIL_TO", "a@example.org"}}));
  EXPECT_NE(no_host.message().find("DISKPULSE_SMTP_HOST is not"), std::string::npos);
  Status bad_port = ApplyEnvironment(*c, Env({{"DISKPULSE_SMTP_HOST", "h"}, {"DISKPULSE_SMTP_PORT", "x"},
                                              {"DISKPULSE_MAIL_TO", "a@example.org"}}));
  EXPECT_NE(bad_port.message().find("DISKPULSE_SMTP_PORT='x'"), std::string::npos);
}

TEST(ConfigEnvironment, MqttBrokerAndWebhookFromTheEnvironment) {
  auto c = ParseConfig("{}", "t.json");
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE(ApplyEnvironment(*c, Env({{"DISKPULSE_MQTT_URL", "mqtt://homeassistant.lan:1884"},
                                        {"DISKPULSE_MQTT_USERNAME", "diskpulse"},
                                        {"DISKPULSE_MQTT_PASSWORD", "pw"},
                                        {"DISKPULSE_WEBHOOK_URL", "https://ntfy.sh/my-nas"}}))
                  .ok());
  ASSERT_EQ(c->alerts_config.mqtt.size(), 1u);
  EXPECT_EQ(c->alerts_config.mqtt[0].host, "homeassistant.lan");
  EXPECT_EQ(c->alerts_config.mqtt[0].port, 1884);
  EXPECT_EQ(c->alerts_config.mqtt[0].username, "diskpulse");
  EXPECT_EQ(c->alerts_config.mqtt[0].password, "pw");
  ASSERT_EQ(c->alerts_config.webhooks.size(), 1u);
  EXPECT_EQ(c->alerts_config.webhooks[0].url, "https://ntfy.sh/my-nas");

  ASSERT_TRUE(ApplyEnvironment(*c, Env({{"DISKPULSE_MQTT_URL", "mqtt://10.0.0.5"}})).ok());
  EXPECT_EQ(c->alerts_config.mqtt.back().port, 1883);
  EXPECT_NE(ApplyEnvironment(*c, Env({{"DISKPULSE_MQTT_URL", "tcp://h:1883"}})).message().find(
                "DISKPULSE_MQTT_URL='tcp://h:1883'"),
            std::string::npos);
  EXPECT_NE(ApplyEnvironment(*c, Env({{"DISKPULSE_MQTT_PASSWORD", "pw"}})).message().find(
                "DISKPULSE_MQTT_URL is not"),
            std::string::npos);
  Status hook = ApplyEnvironment(*c, Env({{"DISKPULSE_WEBHOOK_URL", "ntfy.sh/x"}}));
  EXPECT_NE(hook.message().find("alerts.webhooks[0].url"), std::string::npos) << hook.message();
}

TEST(ConfigEnvironment, TimeZoneMustBeOneTheSchedulesCanUse) {
  auto c = ParseConfig("{}", "t.json");
  ASSERT_TRUE(c.ok());
  dp::testing::TempDir zones;
  std::filesystem::create_directories(zones.Path("Europe"));
  std::ofstream(zones.Path("Europe/Berlin")) << "TZif";
  const std::string dir = zones.path().string();
  for (const char* ok : {"Europe/Berlin", ":Europe/Berlin", "CET-1CEST,M3.5.0,M10.5.0/3", "UTC0"})
    EXPECT_TRUE(ApplyEnvironment(*c, Env({{"TZ", ok}, {"TZDIR", dir}})).ok()) << ok;
  for (const char* bad : {"Europe/Berln", "Mars/Olympus", "../../etc/passwd"}) {
    Status s = ApplyEnvironment(*c, Env({{"TZ", bad}, {"TZDIR", dir}}));
    EXPECT_NE(s.message().find(std::string("TZ='") + bad + "': no such time zone"), std::string::npos)
        << s.message();
  }
}

}  // namespace
}  // namespace dp
