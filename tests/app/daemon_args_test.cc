#include "app/daemon_args.h"

#include <gtest/gtest.h>

namespace dp {
namespace {

TEST(DaemonArgs, Defaults) {
  auto a = ParseDaemonArgs({});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->config_path, kDefaultConfigPath);
  EXPECT_FALSE(a->foreground);
  EXPECT_FALSE(a->check_config);
}

TEST(DaemonArgs, AllFlags) {
  auto a = ParseDaemonArgs({"-c", "/tmp/x.json", "--foreground", "--check-config"});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->config_path, "/tmp/x.json");
  EXPECT_TRUE(a->foreground);
  EXPECT_TRUE(a->check_config);
  EXPECT_EQ(ParseDaemonArgs({"--config=/y.json"})->config_path, "/y.json");
  EXPECT_TRUE(ParseDaemonArgs({"--version"})->version);
  EXPECT_TRUE(ParseDaemonArgs({"-h"})->help);
}

TEST(DaemonArgs, Errors) {
  auto missing = ParseDaemonArgs({"-c"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("FILE"), std::string::npos);
  auto unknown = ParseDaemonArgs({"--frobnicate"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("--frobnicate"), std::string::npos);
  EXPECT_FALSE(ParseDaemonArgs({"--config="}).ok());
}

}  // namespace
}  // namespace dp

namespace dp {
namespace {

TEST(DaemonArgs, PidfileOverride) {
  auto a = ParseDaemonArgs({"--pidfile", "/var/run/d.pid"});
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(a->pidfile.has_value());
  EXPECT_EQ(*a->pidfile, "/var/run/d.pid");
  EXPECT_FALSE(ParseDaemonArgs({})->pidfile.has_value());
  EXPECT_FALSE(ParseDaemonArgs({"-p"}).ok());
}

}  // namespace
}  // namespace dp
