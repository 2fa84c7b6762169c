// The registered resources against a real (temporary) store, through the
// router only: the JSON shapes of health, version, drives and /metrics.
#include "http/api.h"

#include <gtest/gtest.h>

#include "base/fake_clock.h"
#include "config/schedule_config.h"
#include "store/store.h"
#include "support/temp_dir.h"
#include "http/openapi_record_util.h"

namespace dp::http {
namespace {

using dp::testing::TempDir;

class ApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open(tmp_.Path("dp.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(store).value();
    tmp_.Write("webui/index.html", "page");
  }
  std::shared_ptr<const Router> MakeRouter(std::string token = "") {
    ApiContext ctx;
    ctx.store = store_.get();
    ctx.clock = &clock_;
    ctx.started_at = clock_.Now() - std::chrono::seconds(90);
    ctx.webui_root = tmp_.Path("webui");
    ctx.api_token = std::move(token);
    return BuildApiRouter(ctx);
  }
  Response Get(const std::string& target) {
    return testing::RouteAndRecord(*MakeRouter(), Request::Make(Method::kGet, target));
  }

  TempDir tmp_;
  FakeClock clock_;
  std::unique_ptr<Store> store_;
};

TEST_F(ApiTest, HealthSaysOkWithVersionAndDb) {
  Response r = Get("/api/v1/health");
  EXPECT_EQ(r.status, 200);
  auto j = nlohmann::json::parse(r.body);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["version"], DP_VERSION);
  EXPECT_EQ(j["db"], "ok");
  EXPECT_EQ(j["uptime_seconds"], 90);
}

TEST_F(ApiTest, VersionNamesTheApi) {
  auto j = nlohmann::json::parse(Get("/api/v1/version").body);
  EXPECT_EQ(j["name"], "diskpulse");
  EXPECT_EQ(j["version"], DP_VERSION);
  EXPECT_EQ(j["api"], "v1");
  EXPECT_EQ(j["schema_version"], Store::LatestSchemaVersion());
}

// The page builds its test lists and charts from this answer: the catalog the
// scheduler, detection and /metrics use, with each figure's unit and direction.
TEST_F(ApiTest, TestsAreTheCatalogWithTheirFigures) {
  Response r = Get("/api/v1/tests");
  ASSERT_EQ(r.status, 200);
  auto j = nlohmann::json::parse(r.body);
  ASSERT_TRUE(j["tests"].is_array());
  std::vector<std::string> names, judged;
  for (const auto& t : j["tests"]) {
    names.push_back(t["name"]);
    if (t["judged"] == true) judged.push_back(t["name"]);
  }
  EXPECT_EQ(names, KnownTests());
  EXPECT_EQ(judged, (std::vector<std::string>{"seq", "zones", "seek", "random", "sweep"}));
  auto find = [&](const std::string& name) {
    for (const auto& t : j["tests"])
      if (t["name"] == name) return t;
    return nlohmann::json();
  };
  const auto random = find("random");
  EXPECT_EQ(random["kind"], "read");
  EXPECT_EQ(random["scope"], "drive");
  ASSERT_EQ(random["metrics"].size(), 2u);
  EXPECT_EQ(random["metrics"][0]["metric"], "iops");
  EXPECT_EQ(random["metrics"][0]["higher_is_better"], true);
  EXPECT_EQ(random["metrics"][1]["metric"], "p99_us");
  EXPECT_EQ(random["metrics"][1]["unit"], "us");
  EXPECT_EQ(random["metrics"][1]["higher_is_better"], false);
  EXPECT_EQ(find("seek")["metrics"][0]["metric"], "access_ms");
  EXPECT_EQ(find("pool-write")["kind"], "pool-write");
  EXPECT_EQ(find("pool-write")["scope"], "pool");
  EXPECT_EQ(find("parallel")["scope"], "vdev");
  EXPECT_EQ(find("smart-long")["kind"], "self-test");
  EXPECT_TRUE(find("smart")["metrics"].empty());
}

TEST_F(ApiTest, DrivesIsAnEmptyArrayAtFirst) {
  Response r = Get("/api/v1/drives");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(nlohmann::json::parse(r.body), nlohmann::json::array());
}

TEST_F(ApiTest, DrivesListsWhatTheStoreKnows) {
  Drive d;
  d.id = "wwn-5000c500a1b2c3d4";
  d.name = "sda";
  d.dev_path = "/dev/sda";
  d.model = "ST4000VN008-2DR166";
  d.serial = "ZDH1ABCD";
  d.wwn = "5000c500a1b2c3d4";
  d.size_bytes = 4000787030016;
  d.rotational = true;
  d.rotation_rpm = 5980;
  d.transport = "sata";
  ASSERT_TRUE(store_->UpsertDrive(d, 1700000000).ok());

  auto list = nlohmann::json::parse(Get("/api/v1/drives").body);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["id"], d.id);
  EXPECT_EQ(list[0]["model"], d.model);
  EXPECT_EQ(list[0]["size_bytes"], d.size_bytes);
  EXPECT_EQ(list[0]["rotational"], true);
  EXPECT_EQ(list[0]["rotation_rpm"], 5980);
  EXPECT_EQ(list[0]["present"], true);

  auto one = Get("/api/v1/drives/wwn-5000c500a1b2c3d4");
  EXPECT_EQ(one.status, 200);
  EXPECT_EQ(nlohmann::json::parse(one.body)["serial"], "ZDH1ABCD");
  EXPECT_EQ(Get("/api/v1/drives/nope").status, 404);
}

TEST_F(ApiTest, MetricsHasUpAndBuildInfo) {
  Response r = Get("/metrics");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type.rfind("text/plain; version=0.0.4", 0), 0u);
  EXPECT_NE(r.body.find("\ndiskpulse_up 1\n"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("diskpulse_build_info{version=\"" DP_VERSION "\"} 1"), std::string::npos);
  EXPECT_NE(r.body.find("diskpulse_drives{state=\"present\"} 0"), std::string::npos);
}

TEST_F(ApiTest, WebPageIsServedOutsideApi) {
  Response r = Get("/");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "page");
}

TEST_F(ApiTest, NoWebRootMeans404) {
  ApiContext ctx;
  ctx.store = store_.get();
  ctx.clock = &clock_;
  EXPECT_EQ(BuildApiRouter(ctx)->Route(Request::Make(Method::kGet, "/")).status, 404);
}

}  // namespace
}  // namespace dp::http
