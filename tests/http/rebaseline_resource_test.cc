// POST/GET /api/v1/drives/{id}/rebaseline and the drive detail's
// baseline_since, through the router only, against a real store: token,
// 404 unknown drive, 400 bad test/body, 201 with the mark, the drive's
// slowdown alert resolved as re-baselined, and the history band from the mark.
#include <gtest/gtest.h>

#include "alert/alert_service.h"
#include "base/fake_clock.h"
#include "http/api.h"
#include "http/openapi_record_util.h"
#include "runs/store_alert_repository.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp::http {
namespace {

using nlohmann::json;

constexpr const char* kToken = "s3cret-token";

class RebaselineResourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open(tmp_.Path("dp.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(store).value();
    Drive d;
    d.id = "wwn-5000c500a1b2c3d4";
    d.name = "sda";
    d.dev_path = "/dev/sda";
    d.firmware = "SC60";
    ASSERT_TRUE(store_->UpsertDrive(d, 1700000000).ok());
    repo_ = std::make_unique<StoreAlertRepository>(*store_);
    alerts_ = std::make_unique<AlertService>(*repo_, nullptr, clock_, AlertServiceOptions{});
    ApiContext ctx;
    ctx.store = store_.get();
    ctx.alerts = alerts_.get();
    ctx.clock = &clock_;
    ctx.started_at = clock_.Now();
    ctx.api_token = kToken;
    ctx.detection.baseline_runs = 3;
    router_ = BuildApiRouter(ctx);
  }

  Response Call(Method m, const std::string& target, std::string body = "",
                const char* token = kToken) {
    Request r = Request::Make(m, target, std::move(body));
    r.remote = "127.0.0.1:40000";
    if (token) r.headers.push_back({"Authorization", std::string("Bearer ") + token});
    return testing::RouteAndRecord(*router_, r);
  }
  Response Post(const std::string& body, const char* token = kToken,
                const std::string& drive = "sda") {
    return Call(Method::kPost, "/api/v1/drives/" + drive + "/rebaseline", body, token);
  }
  json Get(const std::string& target) {
    Response r = Call(Method::kGet, target, "", nullptr);
    EXPECT_EQ(r.status, 200) << target << ": " << r.body;
    return json::parse(r.body, nullptr, false);
  }
  static std::string ErrorMessage(const Response& r) {
    return json::parse(r.body)["error"]["message"].get<std::string>();
  }

  void AddSeqRun(std::int64_t at, double mb) {
    dp::Run run;
    run.drive_id = "wwn-5000c500a1b2c3d4";
    run.test = "seq";
    run.started_at = at;
    run.ended_at = at + 60;
    run.outcome = RunOutcome::kOk;
    auto id = store_->InsertRun(run);
    ASSERT_TRUE(id.ok());
    BenchPoint p;
    p.test = "seq";
    p.block_size = 1048576;
    p.queue_depth = 8;
    p.bytes = 1000000000;
    p.seconds = 5;
    p.mb_per_s = mb;
    ASSERT_TRUE(store_->AddMeasurements(*id, {p}).ok());
  }

  dp::testing::TempDir tmp_;
  std::unique_ptr<Store> store_;
  FakeClock clock_;
  std::unique_ptr<StoreAlertRepository> repo_;
  std::unique_ptr<AlertService> alerts_;
  std::shared_ptr<const Router> router_;
};

TEST_F(RebaselineResourceTest, NeedsTheToken) {
  EXPECT_EQ(Post("{}", nullptr).status, 401);
  EXPECT_EQ(Post("{}", "wrong").status, 401);
  EXPECT_TRUE(store_->ListRebaselines("wwn-5000c500a1b2c3d4", 0)->empty());
}

TEST_F(RebaselineResourceTest, RefusesUnknownDriveAndBadInput) {
  Response r = Post("{}", kToken, "sdz");
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(ErrorMessage(r).find("no drive 'sdz'"), std::string::npos);

  r = Post(R"({"test": "bogus"})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(ErrorMessage(r), "unknown test 'bogus'");
  r = Post(R"({"test": "smart"})");  // a known test without a baseline
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(ErrorMessage(r).find("has no baseline"), std::string::npos);
  r = Post(R"({"test": 5})");
  EXPECT_EQ(r.status, 400);
  r = Post(R"({"tset": "seq"})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(ErrorMessage(r).find("unknown field 'tset'"), std::string::npos);
  EXPECT_EQ(Post("[1]").status, 400);
  EXPECT_EQ(Post("{not json").status, 400);
  EXPECT_EQ(Post(R"({"reason": ")" + std::string(600, 'x') + "\"}").status, 400);
  EXPECT_TRUE(store_->ListRebaselines("wwn-5000c500a1b2c3d4", 0)->empty());
}

TEST_F(RebaselineResourceTest, MarkIsStoredShownAndResolvesTheSlowdown) {
  json before = Get("/api/v1/drives/sda");
  EXPECT_TRUE(before["baseline_since"].is_null());
  EXPECT_TRUE(before["rebaseline"].is_null());

  Alert slow;
  slow.drive_id = "wwn-5000c500a1b2c3d4";
  slow.condition = "slowdown:seq:qd8-1m:mb_per_s";
  slow.severity = "warning";
  slow.summary = "sda: seq qd8-1m throughput dropped 20%";
  slow.opened_at = slow.updated_at = 1700000100;
  auto slow_id = store_->InsertAlert(slow);
  ASSERT_TRUE(slow_id.ok());
  Alert smart = slow;
  smart.condition = "smart:reallocated";
  auto smart_id = store_->InsertAlert(smart);
  ASSERT_TRUE(smart_id.ok());

  const std::int64_t now = ToUnixSeconds(clock_.Now());
  Response r = Post(R"({"test": "seq", "reason": "firmware SC61 installed"})");
  ASSERT_EQ(r.status, 201) << r.body;
  json body = json::parse(r.body);
  EXPECT_GT(body["mark"]["id"].get<std::int64_t>(), 0);
  EXPECT_EQ(body["mark"]["drive_id"], "wwn-5000c500a1b2c3d4");
  EXPECT_EQ(body["mark"]["test"], "seq");
  EXPECT_EQ(body["mark"]["at"], now);
  EXPECT_EQ(body["mark"]["reason"], "firmware SC61 installed");
  EXPECT_EQ(body["mark"]["who"], "api 127.0.0.1:40000");
  ASSERT_EQ(body["resolved_alerts"].size(), 1u);
  EXPECT_EQ(body["resolved_alerts"][0]["id"], *slow_id);
  EXPECT_EQ(body["resolved_alerts"][0]["state"], "resolved");
  EXPECT_EQ(body["resolved_alerts"][0]["resolution"], "re-baselined: firmware SC61 installed");

  // The drive detail shows it; the alert is resolved with the reason, the
  // SMART alert is not touched.
  json drive = Get("/api/v1/drives/wwn-5000c500a1b2c3d4");
  EXPECT_EQ(drive["baseline_since"], now);
  EXPECT_EQ(drive["rebaseline"]["reason"], "firmware SC61 installed");
  EXPECT_EQ(drive["rebaseline"]["test"], "seq");
  json alert = Get("/api/v1/alerts/" + std::to_string(*slow_id));
  EXPECT_EQ(alert["state"], "resolved");
  EXPECT_EQ(alert["resolution"], "re-baselined: firmware SC61 installed");
  EXPECT_EQ(Get("/api/v1/alerts/" + std::to_string(*smart_id))["state"], "open");

  // An empty body re-baselines every test, with a default reason; the
  // history keeps both, newest first.
  clock_.Advance(std::chrono::minutes(5));
  r = Post("");
  ASSERT_EQ(r.status, 201) << r.body;
  body = json::parse(r.body);
  EXPECT_TRUE(body["mark"]["test"].is_null());
  EXPECT_EQ(body["mark"]["reason"], "re-baseline requested");
  EXPECT_TRUE(body["resolved_alerts"].empty());
  json marks = Get("/api/v1/drives/sda/rebaseline");
  ASSERT_EQ(marks.size(), 2u);
  EXPECT_EQ(marks[0]["reason"], "re-baseline requested");
  EXPECT_EQ(marks[1]["reason"], "firmware SC61 installed");
  EXPECT_EQ(Get("/api/v1/drives/sda")["baseline_since"], now + 300);
  EXPECT_EQ(Call(Method::kGet, "/api/v1/drives/sdz/rebaseline", "", nullptr).status, 404);
}

TEST_F(RebaselineResourceTest, HistoryBandComesFromTheRunsAfterTheMark) {
  const std::int64_t now = ToUnixSeconds(clock_.Now());
  for (int i = 0; i < 4; ++i) AddSeqRun(now - 10 * 3600 + i * 3600, 100 + i % 2);
  ASSERT_EQ(Post("{}").status, 201);
  for (int i = 0; i < 3; ++i) AddSeqRun(now + 3600 + i * 3600, 80 + i % 2 * 0.5);
  json h = Get("/api/v1/drives/sda/history?test=seq&metric=mb_per_s");
  EXPECT_EQ(h["baseline_since"], now);
  ASSERT_EQ(h["series"].size(), 1u);
  EXPECT_EQ(h["series"][0]["samples"].size(), 7u);  // the chart keeps every run
  const json& b = h["series"][0]["baseline"];
  ASSERT_TRUE(b.is_object()) << h.dump();
  EXPECT_EQ(b["runs"], 3);
  EXPECT_NEAR(b["median"].get<double>(), 80.5, 0.6);
}

}  // namespace
}  // namespace dp::http
