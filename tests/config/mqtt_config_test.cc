// alerts.mqtt as the configuration reader takes it: defaults, every key, and
// the mistakes named with their line.
#include <gtest/gtest.h>

#include "config/config.h"

namespace dp {
namespace {

Result<Config> Parse(const std::string& text) { return ParseConfig(text, "/etc/diskpulse.json"); }

TEST(MqttConfigTest, DefaultsAndEveryKey) {
  auto c = Parse(R"({"alerts": {"mqtt": [
      {"host": "192.168.1.5"},
      {"name": "ha", "host": "ha.lan", "port": 8883, "username": "dp", "password": "pw",
       "client_id": "nas1", "ca_file": "/etc/ssl/ha.pem", "topic_prefix": "home/disks",
       "discovery_prefix": "", "timeout_seconds": 3, "max_attempts": 2,
       "retry_initial_seconds": 1, "retry_max_seconds": 9, "min_severity": "warning"}]}})");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_EQ(c->alerts_config.mqtt.size(), 2u);
  const MqttConfig& a = c->alerts_config.mqtt[0];
  EXPECT_EQ(a.name, "mqtt-0");
  EXPECT_EQ(a.port, 1883);
  EXPECT_EQ(a.topic_prefix, "diskpulse");
  EXPECT_EQ(a.discovery_prefix, "homeassistant");
  EXPECT_EQ(a.min_severity, "info");
  const MqttConfig& b = c->alerts_config.mqtt[1];
  EXPECT_EQ(b.name, "ha");
  EXPECT_EQ(b.port, 8883);
  EXPECT_EQ(b.username, "dp");
  EXPECT_EQ(b.ca_file, "/etc/ssl/ha.pem");
  EXPECT_EQ(b.topic_prefix, "home/disks");
  EXPECT_EQ(b.discovery_prefix, "");
  EXPECT_EQ(b.max_attempts, 2);
  EXPECT_EQ(b.min_severity, "warning");
}

TEST(MqttConfigTest, MistakesAreNamedWithTheirLine) {
  auto c = Parse("{\"alerts\": {\"mqtt\": [\n"
                 "  {\"port\": 1883},\n"
                 "  {\"host\": \"b\", \"password\": \"x\"},\n"
                 "  {\"host\": \"c\", \"topic_prefix\": \"disks/#\"},\n"
                 "  {\"host\": \"d\", \"port\": 70000, \"hots\": 1}\n"
                 "]}}");
  ASSERT_FALSE(c.ok());
  const std::string m = c.status().message();
  EXPECT_NE(m.find(":2: alerts.mqtt[0].host: required"), std::string::npos) << m;
  EXPECT_NE(m.find(":3: alerts.mqtt[1].password: a password goes with a username"),
            std::string::npos) << m;
  EXPECT_NE(m.find(":4: alerts.mqtt[2].topic_prefix: must be a topic without + or #"),
            std::string::npos) << m;
  EXPECT_NE(m.find(":5: alerts.mqtt[3].port"), std::string::npos) << m;
  EXPECT_NE(m.find("alerts.mqtt[3].hots"), std::string::npos) << m;
}

}  // namespace
}  // namespace dp
