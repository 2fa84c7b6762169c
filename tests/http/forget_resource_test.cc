// POST /api/v1/drives/{id}/forget through the router against a real store:
// the token, 404 unknown drive, 409 a present drive, 400 a bad body, 200 with
// the drive as stored and its missing alert resolved as forgotten; the drive
// list then shows forgotten_at and no health pass re-opens the alert.
#include <gtest/gtest.h>

#include "alert/alert_service.h"
#include "base/fake_clock.h"
#include "http/api.h"
#include "http/openapi_record_util.h"
#include "watch/health_checks.h"
#include "runs/store_alert_repository.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp::http {
namespace {

using nlohmann::json;

constexpr const char* kToken = "s3cret-token";

class ForgetResourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open(tmp_.Path("dp.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(store).value();
    for (const char* name : {"sda", "sdb"}) {
      Drive d;
      d.id = std::string("wwn-") + name;
      d.name = name;
      d.dev_path = std::string("/dev/") + name;
      ASSERT_TRUE(store_->UpsertDrive(d, 1700000000).ok());
    }
    repo_ = std::make_unique<StoreAlertRepository>(*store_);
    alerts_ = std::make_unique<AlertService>(*repo_, nullptr, clock_, AlertServiceOptions{});
    ApiContext ctx;
    ctx.store = store_.get();
    ctx.alerts = alerts_.get();
    ctx.clock = &clock_;
    ctx.started_at = clock_.Now();
    ctx.api_token = kToken;
    router_ = BuildApiRouter(ctx);
  }

  Response Post(const std::string& drive, std::string body = "", const char* token = kToken) {
    Request r = Request::Make(Method::kPost, "/api/v1/drives/" + drive + "/forget", std::move(body));
    r.remote = "127.0.0.1:40000";
    if (token) r.headers.push_back({"Authorization", std::string("Bearer ") + token});
    return testing::RouteAndRecord(*router_, r);
  }

  testing::TempDir tmp_;
  FakeClock clock_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<StoreAlertRepository> repo_;
  std::unique_ptr<AlertService> alerts_;
  std::shared_ptr<const Router> router_;
};

TEST_F(ForgetResourceTest, ForgetsAMissingDriveAndClosesItsAlert) {
  const std::int64_t gone = 1700001000;
  ASSERT_TRUE(store_->MarkMissingExcept({"wwn-sda"}, gone).ok());
  clock_.Set(FromUnixSeconds(gone + 3600));
  ASSERT_TRUE(ApplyHealth(*store_, *alerts_, {}, true, gone + 3600, DetectionConfig{}).ok());
  auto active = store_->ListAlerts(AlertFilter{"active", "wwn-sdb", 0});
  ASSERT_TRUE(active.ok());
  ASSERT_EQ(active->size(), 1u);
  ASSERT_EQ((*active)[0].condition, "missing");

  EXPECT_EQ(Post("sdb", "", nullptr).status, 401);
  EXPECT_EQ(Post("sdb", R"({"why": "x"})").status, 400);
  EXPECT_EQ(Post("sdb", R"({"reason": 5})").status, 400);
  EXPECT_EQ(Post("nope").status, 404);
  EXPECT_EQ(Post("sda").status, 409);  // present

  clock_.Set(FromUnixSeconds(gone + 7200));
  Response r = Post("sdb", R"({"reason": "died, replaced"})");
  ASSERT_EQ(r.status, 200) << r.body;
  json body = json::parse(r.body);
  EXPECT_EQ(body["drive"]["forgotten_at"], gone + 7200);
  EXPECT_EQ(body["drive"]["forgotten_reason"], "died, replaced");
  EXPECT_EQ(body["drive"]["missing_since"], gone);
  ASSERT_EQ(body["resolved_alerts"].size(), 1u);
  EXPECT_EQ(body["resolved_alerts"][0]["condition"], "missing");
  EXPECT_EQ(body["resolved_alerts"][0]["state"], "resolved");

  ASSERT_TRUE(ApplyHealth(*store_, *alerts_, {}, true, gone + 86400, DetectionConfig{}).ok());
  active = store_->ListAlerts(AlertFilter{"active", "wwn-sdb", 0});
  ASSERT_TRUE(active.ok());
  EXPECT_TRUE(active->empty());
}

}  // namespace
}  // namespace dp::http
