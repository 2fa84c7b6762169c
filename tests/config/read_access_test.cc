// Who may read: a listener beyond loopback answers reads only with a token
// unless the configuration says public_read; the decision is a function of
// the configured address, so it is tested here for addresses a test may not
// bind (0.0.0.0, a LAN address) and over real HTTP on 127.0.0.1 with an
// explicit "public_read": false (tests/app/daemon_read_auth_test.cc).
#include <gtest/gtest.h>

#include "config/config.h"

namespace dp {
namespace {

Config Parsed(const std::string& text) {
  auto c = ParseConfig(text, "/etc/diskpulse.json");
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  return c.ok() ? *c : Config{};
}

TEST(ReadAccessTest, LoopbackHosts) {
  for (const char* h : {"127.0.0.1", "127.0.0.2", "127.255.255.254", "::1", "::ffff:127.0.0.1",
                        "localhost"})
    EXPECT_TRUE(IsLoopbackHost(h)) << h;
  for (const char* h : {"0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "128.0.0.1", "fe80::1",
                        "::ffff:192.168.1.1", "nas.lan", ""})
    EXPECT_FALSE(IsLoopbackHost(h)) << h;
}

TEST(ReadAccessTest, TheListenAddressDecidesByDefault) {
  EXPECT_FALSE(ReadsNeedToken(Parsed("{}")));
  EXPECT_FALSE(ReadsNeedToken(Parsed(R"({"listen": "127.0.0.2:8470"})")));
  EXPECT_FALSE(ReadsNeedToken(Parsed(R"({"listen": "[::1]:8470"})")));
  EXPECT_TRUE(ReadsNeedToken(Parsed(R"({"listen": "0.0.0.0:8470"})")));
  EXPECT_TRUE(ReadsNeedToken(Parsed(R"({"listen": "[::]:8470"})")));
  EXPECT_TRUE(ReadsNeedToken(Parsed(R"({"listen": "192.168.1.10:8470"})")));
}

TEST(ReadAccessTest, PublicReadSaysSoExplicitly) {
  Config open = Parsed(R"({"listen": "0.0.0.0:8470", "public_read": true})");
  EXPECT_FALSE(ReadsNeedToken(open));
  Config closed = Parsed(R"({"listen": "127.0.0.1:8470", "public_read": false,
                            "read_token": "r", "metrics_token": "m"})");
  EXPECT_TRUE(ReadsNeedToken(closed));
  EXPECT_EQ(closed.read_token, "r");
  EXPECT_EQ(closed.metrics_token, "m");
}

TEST(ReadAccessTest, PublicReadMustBeABoolean) {
  auto c = ParseConfig("{\n  \"public_read\": \"yes\"\n}", "/etc/diskpulse.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("/etc/diskpulse.json:2: public_read"), std::string::npos)
      << c.status().message();
}

}  // namespace
}  // namespace dp
