// /api/v1/overrides through the router against a real store: set with the
// token (401 without), list beside the config file's, delete (409 for the
// config file's), audit rows, and 400 for an unknown drive or attribute.
#include <gtest/gtest.h>

#include "base/fake_clock.h"
#include "http/api.h"
#include "http/openapi_record_util.h"
#include "runs/override_book.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp::http {
namespace {

using nlohmann::json;

constexpr const char* kToken = "s3cret-token";

class OverridesResourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open(tmp_.Path("dp.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(store).value();
    Drive d;
    d.id = "wwn-5000c500a1b2c3d4";
    d.name = "sda";
    d.dev_path = "/dev/sda";
    d.model = "ST8000VN004-2M2101";
    d.serial = "ZA1ABCDE";
    ASSERT_TRUE(store_->UpsertDrive(d, 1700000000).ok());
    DriveOverride file;
    file.source = "config";
    file.who = "config";
    file.where = "/etc/diskpulse/diskpulse.json:40";
    file.model = "ST8000VN*";
    file.device_type = "sat";
    book_ = std::make_unique<OverrideBook>(*store_, clock_, std::vector<DriveOverride>{file});
    ApiContext ctx;
    ctx.store = store_.get();
    ctx.clock = &clock_;
    ctx.started_at = clock_.Now();
    ctx.api_token = kToken;
    ctx.overrides = book_.get();
    router_ = BuildApiRouter(ctx);
  }

  Response Call(Method m, const std::string& target, std::string body = "",
                const char* token = kToken) {
    Request r = Request::Make(m, target, std::move(body));
    r.remote = "127.0.0.1:40000";
    if (token) r.headers.push_back({"Authorization", std::string("Bearer ") + token});
    return testing::RouteAndRecord(*router_, r);
  }
  static std::string Message(const Response& r) {
    return json::parse(r.body)["error"]["message"].get<std::string>();
  }

  testing::TempDir tmp_;
  FakeClock clock_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<OverrideBook> book_;
  std::shared_ptr<const Router> router_;
};

TEST_F(OverridesResourceTest, SetNeedsTheToken) {
  const std::string body = R"({"drive": "sda", "attribute": "199", "ignore": true})";
  EXPECT_EQ(Call(Method::kPost, "/api/v1/overrides", body, nullptr).status, 401);
  EXPECT_EQ(Call(Method::kPost, "/api/v1/overrides", body, "wrong").status, 401);
  EXPECT_TRUE(store_->ListOverrides()->empty());
  EXPECT_EQ(Call(Method::kDelete, "/api/v1/overrides/1", "", nullptr).status, 401);
}

TEST_F(OverridesResourceTest, SetListDeleteAndAudit) {
  Response set = Call(Method::kPost, "/api/v1/overrides",
                      R"({"drive": "sda", "attribute": "199", "ignore": true,
                          "reason": "old cable"})");
  ASSERT_EQ(set.status, 201) << set.body;
  json kept = json::parse(set.body);
  EXPECT_EQ(kept["drive"], "wwn-5000c500a1b2c3d4");  // the name became the id
  EXPECT_EQ(kept["attribute"], "udma_crc_errors");
  EXPECT_EQ(kept["who"], "api 127.0.0.1:40000");
  EXPECT_EQ(kept["in_force"], true);
  EXPECT_EQ(kept["drives"], json::array({"wwn-5000c500a1b2c3d4"}));

  Response mute = Call(Method::kPost, "/api/v1/overrides",
                       R"({"serial": "ZA1ABCDE", "mute_days": 7, "reason": "being replaced"})");
  ASSERT_EQ(mute.status, 201) << mute.body;
  EXPECT_EQ(json::parse(mute.body)["mute_until"], ToUnixSeconds(clock_.Now()) + 7 * 86400);

  Response list = Call(Method::kGet, "/api/v1/overrides?drive=sda", "", nullptr);
  ASSERT_EQ(list.status, 200) << list.body;
  json all = json::parse(list.body)["overrides"];
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0]["id"], "config-0");
  EXPECT_EQ(all[0]["source"], "config");
  EXPECT_EQ(all[0]["where"], "/etc/diskpulse/diskpulse.json:40");
  EXPECT_EQ(all[0]["device_type"], "sat");
  EXPECT_EQ(all[1]["id"], kept["id"]);

  Response refused = Call(Method::kDelete, "/api/v1/overrides/config-0");
  EXPECT_EQ(refused.status, 409);
  EXPECT_NE(Message(refused).find("diskpulse.json:40"), std::string::npos);

  const std::string id = kept["id"];
  Response del = Call(Method::kDelete, "/api/v1/overrides/" + id, R"({"reason": "new cable"})");
  ASSERT_EQ(del.status, 200) << del.body;
  EXPECT_EQ(Call(Method::kDelete, "/api/v1/overrides/" + id).status, 404);

  Response audit = Call(Method::kGet, "/api/v1/overrides/audit", "", nullptr);
  ASSERT_EQ(audit.status, 200) << audit.body;
  json rows = json::parse(audit.body);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["action"], "deleted");
  EXPECT_EQ(rows[0]["reason"], "new cable");
  EXPECT_EQ(rows[0]["who"], "api 127.0.0.1:40000");
  EXPECT_EQ(rows[0]["override"]["attribute"], "udma_crc_errors");
  EXPECT_EQ(rows[2]["action"], "set");
}

TEST_F(OverridesResourceTest, AMuteByKindAndAPoolMuteRoundTrip) {
  Pool tank;
  tank.name = "tank";
  ASSERT_TRUE(store_->RecordPools({tank}, ToUnixSeconds(clock_.Now())).ok());
  Response kind = Call(Method::kPost, "/api/v1/overrides",
                       R"({"drive": "sda", "kind": "wear", "mute_days": 30})");
  ASSERT_EQ(kind.status, 201) << kind.body;
  EXPECT_EQ(json::parse(kind.body)["kind"], "wear");
  Response pool = Call(Method::kPost, "/api/v1/overrides",
                       R"({"pool": "tank", "kind": "scrub", "mute_days": 2})");
  ASSERT_EQ(pool.status, 201) << pool.body;
  EXPECT_EQ(json::parse(pool.body)["pool"], "tank");

  Response list = Call(Method::kGet, "/api/v1/overrides", "", nullptr);
  ASSERT_EQ(list.status, 200) << list.body;
  json answer = json::parse(list.body);
  ASSERT_EQ(answer["overrides"].size(), 3u);
  EXPECT_EQ(answer["overrides"][1]["kind"], "wear");
  EXPECT_EQ(answer["overrides"][1]["drive"], "wwn-5000c500a1b2c3d4");
  EXPECT_EQ(answer["overrides"][2]["pool"], "tank");
  EXPECT_EQ(answer["overrides"][2]["kind"], "scrub");
  EXPECT_EQ(answer["overrides"][2]["drives"], json::array());
  EXPECT_EQ(answer["kinds"].size(), 11u);
  EXPECT_EQ(answer["kinds"][10], "selftest");

  Response unknown = Call(Method::kPost, "/api/v1/overrides",
                          R"({"drive": "sda", "kind": "selftests", "mute_days": 1})");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_NE(Message(unknown).find("kind: unknown alert kind 'selftests'"), std::string::npos);
  Response no_mute = Call(Method::kPost, "/api/v1/overrides",
                          R"({"drive": "sda", "kind": "selftest"})");
  EXPECT_EQ(no_mute.status, 400);
  EXPECT_EQ(store_->ListOverrides()->size(), 2u);
}

TEST_F(OverridesResourceTest, UnknownDriveAttributeOrFieldIs400) {
  Response drive = Call(Method::kPost, "/api/v1/overrides", R"({"drive": "sdz", "attribute": "5", "ignore": true})");
  EXPECT_EQ(drive.status, 400);
  EXPECT_EQ(Message(drive), "drive: no known drive has id 'sdz'");
  Response model = Call(Method::kPost, "/api/v1/overrides", R"({"model": "WDC*", "attribute": "5", "ignore": true})");
  EXPECT_EQ(model.status, 400);
  Response attr = Call(Method::kPost, "/api/v1/overrides", R"({"drive": "sda", "attribute": "crc", "ignore": true})");
  EXPECT_EQ(attr.status, 400);
  EXPECT_NE(Message(attr).find("unknown SMART attribute 'crc'"), std::string::npos);
  Response type = Call(Method::kPost, "/api/v1/overrides", R"({"drive": "sda", "device_type": "sat"})");
  EXPECT_EQ(type.status, 400);
  Response field = Call(Method::kPost, "/api/v1/overrides", R"({"drive": "sda", "mute": true})");
  EXPECT_EQ(field.status, 400);
  EXPECT_TRUE(store_->ListOverrides()->empty());
}

}  // namespace
}  // namespace dp::http
