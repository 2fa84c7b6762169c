// GET /api/v1/drives/{id}/zfs through the router (no sockets) on a real
// store: the member's samples beside its siblings' median, unknowns as null,
// a drive without samples, bad input; and the ZFS "watch" verdict (a told warning) as the
// overview shows it; sit_out, the disk wait percentiles and histograms beside
// the siblings', the gauges, and each member's SLOW count and sit_out in the
// pools answer. Every response is validated against openapi.json.
#include <gtest/gtest.h>

#include "alert/alert_service.h"
#include "base/fake_clock.h"
#include "detect/zfs_latency_peers.h"
#include "http/api.h"
#include "http/openapi_record_util.h"
#include "runs/store_alert_repository.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp::http {
namespace {

using nlohmann::json;

class ZfsLatencyResourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open(tmp_.Path("dp.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(store).value();
    for (int i = 1; i <= 4; ++i) {
      Drive d;
      d.id = "wwn-" + std::to_string(i);
      d.name = "sd" + std::string(1, static_cast<char>('a' + i));
      d.dev_path = "/dev/" + d.name;
      ASSERT_TRUE(store_->UpsertDrive(d, 1000).ok());
    }
    ASSERT_TRUE(store_->MarkMissingExcept({"wwn-1", "wwn-2", "wwn-3", "wwn-4"}, 1000).ok());
  }

  // Three samplings of raidz1-0: members 1..3 near 8 ms, member 1 at 40 ms;
  // drive 4 is no ZFS member.
  void AddSamplings() {
    std::vector<ZfsLatencySample> all;
    for (std::int64_t at : {3600, 7200, 10800}) {
      for (int i = 1; i <= 3; ++i) {
        ZfsLatencySample s;
        s.at = at;
        s.pool = "tank";
        s.vdev = "raidz1-0";
        s.member = "/dev/sd" + std::string(1, static_cast<char>('a' + i)) + "1";
        s.drive_id = "wwn-" + std::to_string(i);
        s.read_ops = 30;
        s.write_ops = 0;
        s.disk_wait_read = i == 1 ? 0.040 : 0.008 + 0.0002 * i;
        s.total_wait_read = *s.disk_wait_read + 0.002;
        s.slow_ios = i == 1 ? std::optional<std::uint64_t>(2) : std::nullopt;
        all.push_back(s);
      }
    }
    ASSERT_TRUE(store_->AddZfsLatencySamples(all).ok());
  }

  json Get(const std::string& target, int want = 200) {
    return dp::testing::GetApiJson(*store_, clock_, target, want);
  }

  dp::testing::TempDir tmp_;
  std::unique_ptr<Store> store_;
  FakeClock clock_;
};

TEST_F(ZfsLatencyResourceTest, MemberBesideItsSiblings) {
  AddSamplings();
  json z = Get("/api/v1/drives/wwn-1/zfs");
  EXPECT_EQ(z["drive_id"], "wwn-1");
  EXPECT_EQ(z["pool"], "tank");
  EXPECT_EQ(z["vdev"], "raidz1-0");
  EXPECT_EQ(z["member"], "/dev/sdb1");
  ASSERT_EQ(z["samples"].size(), 3u);
  const json& newest = z["samples"][2];
  EXPECT_EQ(newest["at"], 10800);
  EXPECT_DOUBLE_EQ(newest["disk_wait_seconds"].get<double>(), 0.040);
  EXPECT_NEAR(newest["siblings_median_seconds"].get<double>(), 0.0085, 1e-12);
  EXPECT_EQ(newest["siblings"], 2);
  EXPECT_TRUE(newest["disk_wait_write_seconds"].is_null());
  EXPECT_EQ(newest["slow_ios"], 2);
  EXPECT_EQ(z["samples"][0]["at"], 3600);  // oldest first
  ApiContext ctx;
  ctx.store = store_.get();
  ctx.clock = &clock_;
  ctx.started_at = clock_.Now();
  Response m = BuildApiRouter(ctx)->Route(Request::Make(Method::kGet, "/metrics"));
  ASSERT_EQ(m.status, 200);
  EXPECT_NE(m.body.find("diskpulse_drive_zfs_disk_wait_seconds{drive=\"wwn-1\"} 0.04"),
            std::string::npos)
      << m.body;
  EXPECT_NE(m.body.find("diskpulse_drive_zfs_slow_ios{drive=\"wwn-1\"} 2\n"), std::string::npos);
  EXPECT_NE(m.body.find("diskpulse_drive_zfs_sample_timestamp_seconds{drive=\"wwn-2\"} 10800\n"),
            std::string::npos);
  EXPECT_EQ(m.body.find("diskpulse_drive_zfs_slow_ios{drive=\"wwn-2\"}"), std::string::npos);
  // A sibling: no slow count from this zpool.
  json sib = Get("/api/v1/drives/sdc/zfs?limit=1");
  ASSERT_EQ(sib["samples"].size(), 1u);
  EXPECT_TRUE(sib["samples"][0]["slow_ios"].is_null());
  EXPECT_NEAR(sib["samples"][0]["siblings_median_seconds"].get<double>(), (0.040 + 0.0086) / 2,
              1e-12);
}

TEST_F(ZfsLatencyResourceTest, NoSamplesAndBadInput) {
  json none = Get("/api/v1/drives/wwn-4/zfs");
  EXPECT_TRUE(none["pool"].is_null());
  EXPECT_EQ(none["samples"], json::array());
  Get("/api/v1/drives/wwn-4/zfs?limit=0", 400);
  Get("/api/v1/drives/wwn-4/zfs?limit=many", 400);
  Get("/api/v1/drives/wwn-4/zfs?limit=1001", 400);
  Get("/api/v1/drives/no-such-drive/zfs", 404);
}

TEST_F(ZfsLatencyResourceTest, VerdictShowsAsAWarningOnTheOverview) {
  AddSamplings();
  auto history = store_->ZfsLatencyOfVdev("tank", "raidz1-0", 4);
  ASSERT_TRUE(history.ok());
  // Two siblings: just enough (ZfsPeerRule::min_siblings).
  auto verdicts = detect::EvaluateZfsLatencyPeers(*history);
  StoreAlertRepository repo(*store_);
  AlertService alerts(repo, nullptr, clock_, AlertServiceOptions{});
  ASSERT_TRUE(alerts.OnVerdicts(verdicts).ok());
  json overview = Get("/api/v1/overview");
  bool seen = false;
  for (const json& d : overview["drives"]) {
    if (d["id"] == "wwn-1") {
      seen = true;
      EXPECT_EQ(d["status"], "warning") << d;  // told: the ZFS verdict notifies at once
      EXPECT_NE(d["reason"].get<std::string>().find("ZFS disk wait 40.0 ms"), std::string::npos)
          << d["reason"];
    } else if (d["id"] == "wwn-2" || d["id"] == "wwn-3") {
      EXPECT_EQ(d["status"], "healthy") << d;
    }
  }
  EXPECT_TRUE(seen);
}

TEST_F(ZfsLatencyResourceTest, SitOutPercentilesHistogramsAndThePoolsAnswer) {
  const std::int64_t now = ToUnixSeconds(clock_.Now());
  std::vector<ZfsLatencySample> all;
  for (std::int64_t at : {now - 7200, now - 3600}) {
    for (int i = 1; i <= 3; ++i) {
      ZfsLatencySample s;
      s.at = at;
      s.pool = "tank";
      s.vdev = "raidz1-0";
      s.member = "/dev/sd" + std::string(1, static_cast<char>('a' + i)) + "1";
      s.drive_id = "wwn-" + std::to_string(i);
      s.read_ops = 30;
      s.disk_wait_read = i == 1 ? 0.030 : 0.008;
      s.slow_ios = i == 1 ? 5u : 0u;
      s.sit_out = i == 1 && at == now - 3600;
      if (at == now - 3600) {
        ZfsWaitHistogram h;
        h.seconds = 3600;
        h.read.assign(37, 0);
        h.read[i == 1 ? 25 : 22] = 98;  // <= 67 ms, <= 8.4 ms
        h.read[28] = 2;                 // <= 537 ms
        h.write.assign(37, 0);
        h.write[20] = 10;
        s.disk_wait_histogram = h;
      }
      all.push_back(s);
    }
  }
  ASSERT_TRUE(store_->AddZfsLatencySamples(all).ok());
  json z = Get("/api/v1/drives/wwn-1/zfs");
  EXPECT_EQ(z["sit_out"], true);
  ASSERT_EQ(z["samples"].size(), 2u);
  const json& older = z["samples"][0];
  EXPECT_EQ(older["sit_out"], false);
  EXPECT_TRUE(older["histogram_seconds"].is_null());
  EXPECT_TRUE(older["disk_wait_read_p99_seconds"].is_null());
  const json& newest = z["samples"][1];
  EXPECT_EQ(newest["histogram_seconds"], 3600);
  EXPECT_NEAR(newest["disk_wait_read_p50_seconds"].get<double>(), 0.067108863, 1e-9);
  EXPECT_NEAR(newest["disk_wait_read_p99_seconds"].get<double>(), 0.536870911, 1e-9);
  EXPECT_NEAR(newest["disk_wait_write_p99_seconds"].get<double>(), 0.002097151, 1e-9);
  const json& h = z["histogram"];
  ASSERT_TRUE(h.is_object()) << z;
  EXPECT_EQ(h["seconds"], 3600);
  EXPECT_EQ(h["siblings"], 2);
  ASSERT_EQ(h["bucket_upper_seconds"].size(), 37u);
  EXPECT_EQ(h["read"][25], 98);
  EXPECT_EQ(h["siblings_read"][22], 196);
  EXPECT_EQ(h["siblings_read"][28], 4);
  // A drive with no histogram yet: null.
  ASSERT_TRUE(store_
                  ->AddZfsLatencySamples({[&] {
                    ZfsLatencySample s = all[0];
                    s.pool = "backup";
                    s.vdev = "sde";
                    s.member = "/dev/sde";
                    s.drive_id = "wwn-4";
                    s.sit_out.reset();
                    return s;
                  }()})
                  .ok());
  json plain = Get("/api/v1/drives/wwn-4/zfs");
  EXPECT_TRUE(plain["histogram"].is_null());
  EXPECT_TRUE(plain["sit_out"].is_null());

  ApiContext ctx;
  ctx.store = store_.get();
  ctx.clock = &clock_;
  ctx.started_at = clock_.Now();
  Response m = BuildApiRouter(ctx)->Route(Request::Make(Method::kGet, "/metrics"));
  ASSERT_EQ(m.status, 200);
  EXPECT_NE(m.body.find("diskpulse_drive_zfs_sit_out{drive=\"wwn-1\"} 1\n"), std::string::npos)
      << m.body;
  EXPECT_NE(m.body.find("diskpulse_drive_zfs_sit_out{drive=\"wwn-2\"} 0\n"), std::string::npos);
  EXPECT_EQ(m.body.find("diskpulse_drive_zfs_sit_out{drive=\"wwn-4\"}"), std::string::npos);
  EXPECT_NE(m.body.find("diskpulse_drive_zfs_disk_wait_read_p99_seconds{drive=\"wwn-1\"} 0.53"),
            std::string::npos);

  // The pools answer: SLOW and sit_out of ZFS's newest sampling per member.
  Pool tank;
  tank.name = "tank";
  tank.state = "ONLINE";
  Vdev v;
  v.name = "raidz1-0";
  v.type = "raidz1";
  v.role = "data";
  for (int i = 1; i <= 3; ++i) {
    PoolMember m;
    m.path = "/dev/sd" + std::string(1, static_cast<char>('a' + i)) + "1";
    m.state = "ONLINE";
    m.drive_id = "wwn-" + std::to_string(i);
    v.members.push_back(m);
  }
  PoolMember unsampled;
  unsampled.path = "/dev/sdz1";
  unsampled.state = "ONLINE";
  v.members.push_back(unsampled);
  tank.vdevs.push_back(v);
  ASSERT_TRUE(store_->RecordPools({tank}, now).ok());
  json pools = Get("/api/v1/pools");
  ASSERT_EQ(pools.size(), 1u);
  const json& members = pools[0]["vdevs"][0]["members"];
  EXPECT_EQ(members[0]["slow_ios"], 5);
  EXPECT_EQ(members[0]["sit_out"], true);
  EXPECT_EQ(members[1]["slow_ios"], 0);
  EXPECT_EQ(members[1]["sit_out"], false);
  EXPECT_TRUE(members[3]["slow_ios"].is_null());
  EXPECT_TRUE(members[3]["sit_out"].is_null());
  json overview = Get("/api/v1/overview");
  EXPECT_EQ(overview["pools"][0]["vdevs"][0]["members"][0]["slow_ios"], 5);
  // A sampling older than a week is not shown as the members' state.
  clock_.Advance(std::chrono::hours(24 * 8));
  json later = Get("/api/v1/pools");
  EXPECT_TRUE(later[0]["vdevs"][0]["members"][0]["slow_ios"].is_null());
}

}  // namespace
}  // namespace dp::http
