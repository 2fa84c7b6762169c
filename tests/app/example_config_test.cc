// config/diskpulse.json is the documented example of every key: it must
// parse, carry the run command's paths, and state the same values as the
// defaults compiled into Config (so the comments cannot drift).
#include <gtest/gtest.h>

#include "config/config.h"
#include "support/daemon_process.h"

namespace dp {
namespace {

const std::string kExample = std::string(DP_SOURCE_DIR) + "/config/diskpulse.json";

TEST(ExampleConfig, ParsesWithTheRunCommandsPaths) {
  auto c = LoadConfigFile(kExample);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->listen, "127.0.0.1:8470");
  EXPECT_EQ(c->listen_host, "127.0.0.1");
  EXPECT_EQ(c->listen_port, 8470);
  EXPECT_EQ(c->database, "./var/diskpulse.db");
  EXPECT_EQ(c->webui_root, "./webui");
  EXPECT_EQ(c->pidfile, "./var/diskpulsed.pid");
  EXPECT_EQ(c->api_token, "");
  EXPECT_FALSE(c->tls.enabled());
}

TEST(ExampleConfig, StatesTheCompiledDefaults) {
  auto c = LoadConfigFile(kExample);
  ASSERT_TRUE(c.ok()) << c.status().message();
  Config d;
  EXPECT_EQ(c->log_level, d.log_level);
  EXPECT_EQ(c->log_target, d.log_target);
  EXPECT_EQ(c->user, d.user);
  EXPECT_EQ(c->replay_dir, d.replay_dir);
  EXPECT_EQ(c->http.max_connections, d.http.max_connections);
  EXPECT_EQ(c->http.read_timeout_seconds, d.http.read_timeout_seconds);
  EXPECT_EQ(c->http.max_body_bytes, d.http.max_body_bytes);
  EXPECT_EQ(c->http.max_header_bytes, d.http.max_header_bytes);
  EXPECT_EQ(c->tools.smartctl, d.tools.smartctl);
  EXPECT_EQ(c->tools.zpool, d.tools.zpool);
  EXPECT_EQ(c->tools.geom, d.tools.geom);
  EXPECT_EQ(c->tools.diskinfo, d.tools.diskinfo);
  EXPECT_EQ(c->tools.camcontrol, d.tools.camcontrol);
  EXPECT_EQ(c->tools.timeout_seconds, d.tools.timeout_seconds);
  EXPECT_EQ(c->inventory.include, d.inventory.include);
  EXPECT_EQ(c->inventory.exclude, d.inventory.exclude);
  EXPECT_EQ(c->inventory.sysfs_root, d.inventory.sysfs_root);
  EXPECT_EQ(c->inventory.dev_root, d.inventory.dev_root);
  EXPECT_EQ(c->bench.engine, d.bench.engine);
  EXPECT_EQ(c->bench.scratch_dir, d.bench.scratch_dir);
  EXPECT_EQ(c->bench.min_free_percent, d.bench.min_free_percent);
  EXPECT_EQ(c->bench.max_seconds, d.bench.max_seconds);
  EXPECT_EQ(c->bench.max_bytes, d.bench.max_bytes);
  EXPECT_EQ(c->bench.busy_threshold, d.bench.busy_threshold);
  EXPECT_EQ(c->retention, d.retention);
  EXPECT_TRUE(c->targets.empty());
}

TEST(ExampleConfig, DaemonSaysConfigurationOk) {
  auto r = testing::RunProgram({DP_DAEMON_BIN, "--check-config", "-c", kExample});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "configuration OK\n");
}

}  // namespace
}  // namespace dp
