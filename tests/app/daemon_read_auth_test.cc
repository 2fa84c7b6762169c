// Reads behind a token, over real HTTP to the real daemon. Tests talk only to
// 127.0.0.1, so the daemon is told "public_read": false, which puts a
// loopback listener in the state a LAN listener is in by default (the
// address rule itself: tests/config/read_access_test.cc).
#include <gtest/gtest.h>

#include "support/daemon_process.h"
#include "support/http_client.h"

namespace dp {
namespace {

using namespace dp::testing;

HeaderList Bearer(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }

class DaemonReadAuthTest : public ::testing::Test {
 protected:
  void Start(const nlohmann::json& patch) {
    auto d = DaemonProcess::Start(tmp_, patch);
    ASSERT_TRUE(d.ok()) << d.status().message();
    daemon_ = std::move(d).value();
    port_ = daemon_->port();
  }
  TempDir tmp_;
  std::unique_ptr<DaemonProcess> daemon_;
  int port_ = 0;
};

TEST_F(DaemonReadAuthTest, ClosedReadsNeedAReadOrApiToken) {
  Start({{"public_read", false}, {"api_token", "admin-tok"}, {"read_token", "read-tok"}});
  auto none = HttpGet(port_, "/api/v1/drives");
  EXPECT_EQ(none.status, 401) << none.raw;
  EXPECT_NE(none.Header("WWW-Authenticate").find("Bearer"), std::string::npos);
  EXPECT_EQ(none.Json()["error"]["code"], "unauthorized");
  EXPECT_NE(none.body.find("answers reads only with a token"), std::string::npos) << none.body;
  EXPECT_EQ(HttpGet(port_, "/api/v1/overview", Bearer("nope")).status, 401);
  EXPECT_EQ(HttpGet(port_, "/api/v1/drives", Bearer("read-tok")).status, 200);
  EXPECT_EQ(HttpGet(port_, "/api/v1/drives", Bearer("admin-tok")).status, 200);
  EXPECT_EQ(HttpGet(port_, "/api/v1/alerts", Bearer("read-tok")).status, 200);
  // A read token opens reads, not changes.
  auto post = HttpRequest(port_, "POST", "/api/v1/alerts/test", "{}", Bearer("read-tok"));
  EXPECT_EQ(post.status, 401) << post.raw;
  // Liveness, the API description and the page itself carry no drive data:
  // they stay open so probes work and the page can ask for the token.
  EXPECT_EQ(HttpGet(port_, "/api/v1/health").status, 200);
  EXPECT_EQ(HttpGet(port_, "/api/v1/version").status, 200);
  EXPECT_EQ(HttpGet(port_, "/api/v1/openapi.json").status, 200);
  EXPECT_EQ(HttpGet(port_, "/").status, 200);
  // Without a metrics_token, /metrics is a read like the others.
  EXPECT_EQ(HttpGet(port_, "/metrics").status, 401);
  EXPECT_EQ(HttpGet(port_, "/metrics", Bearer("read-tok")).status, 200);
}

TEST_F(DaemonReadAuthTest, MetricsHasItsOwnToken) {
  Start({{"public_read", false}, {"api_token", "admin-tok"}, {"metrics_token", "prom-tok"}});
  EXPECT_EQ(HttpGet(port_, "/metrics").status, 401);
  auto ok = HttpGet(port_, "/metrics", Bearer("prom-tok"));
  EXPECT_EQ(ok.status, 200);
  EXPECT_NE(ok.body.find("diskpulse_db_up 1"), std::string::npos);
  // The scrape token opens nothing else.
  EXPECT_EQ(HttpGet(port_, "/api/v1/drives", Bearer("prom-tok")).status, 401);
  EXPECT_EQ(HttpGet(port_, "/api/v1/drives", Bearer("admin-tok")).status, 200);
}

TEST_F(DaemonReadAuthTest, MetricsTokenGuardsMetricsEvenWhenReadsAreOpen) {
  Start({{"metrics_token", "prom-tok"}});
  EXPECT_EQ(HttpGet(port_, "/api/v1/drives").status, 200);
  EXPECT_EQ(HttpGet(port_, "/metrics").status, 401);
  EXPECT_EQ(HttpGet(port_, "/metrics", Bearer("prom-tok")).status, 200);
}

TEST_F(DaemonReadAuthTest, LoopbackStaysOpenByDefault) {
  Start(nlohmann::json::object());
  EXPECT_EQ(HttpGet(port_, "/api/v1/drives").status, 200);
  EXPECT_EQ(HttpGet(port_, "/metrics").status, 200);
}

// Reads closed and no token configured: the daemon does not leave the
// owner before a wall of refusals; it makes a token and says where it is
// (app/first_start_token.h), and a read without it is asked for one.
TEST_F(DaemonReadAuthTest, ClosedReadsWithNoTokenConfiguredGetAMadeToken) {
  Start({{"public_read", false}});
  auto r = HttpGet(port_, "/api/v1/drives");
  EXPECT_EQ(r.status, 401) << r.raw;
  EXPECT_TRUE(daemon_->WaitForOutput("made an API token and kept it in", 5s))
      << daemon_->Output();
  EXPECT_EQ(daemon_->Output().find("the API answers no reads"), std::string::npos)
      << daemon_->Output();
}

}  // namespace
}  // namespace dp
