// watch/health_checks.h over a real SQLite store and the real alert service:
// a drive that goes missing opens one alert after the grace and resolves on
// the first pass it is back; a forgotten drive's alert closes and never
// re-opens; a pool member that maps to no drive is named by the drive the
// pool's history last saw at its path (a real degraded zpool capture).
#include "watch/health_checks.h"

#include <gtest/gtest.h>

#include "base/fake_clock.h"
#include "inventory/zpool_status_parser.h"
#include "runs/store_alert_repository.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

class HealthChecksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::Open(dir_.Path("diskpulse.db"));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
    for (const char* name : {"sda", "sdb"}) {
      Drive d;
      d.id = std::string("wwn-") + name;
      d.name = name;
      d.dev_path = std::string("/dev/") + name;
      d.model = "ST4000VN008";
      d.serial = std::string("ZDH-") + name;
      drives_.push_back(d);
      ASSERT_TRUE(store_->UpsertDrive(d, 1000).ok());
    }
    repo_ = std::make_unique<StoreAlertRepository>(*store_);
    AlertServiceOptions o;
    o.policy.resolve_after_clear_runs = 3;  // state kinds resolve on one clear anyway
    alerts_ = std::make_unique<AlertService>(*repo_, nullptr, clock_, o);
    cfg_.missing_grace_minutes = 30;  // minutes apart below, as hourly passes would be
  }

  void Pass(std::int64_t at, const std::vector<Pool>& pools = {},
            const std::vector<std::string>& excluded = {}) {
    clock_.Set(FromUnixSeconds(at));
    Status s = ApplyHealth(*store_, *alerts_, pools, true, at, cfg_, excluded);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  std::vector<Alert> Alerts(const std::string& condition, const std::string& state = "") {
    auto all = store_->ListAlerts(AlertFilter{state, "", 0});
    EXPECT_TRUE(all.ok());
    std::vector<Alert> out;
    for (const Alert& a : *all)
      if (a.condition == condition) out.push_back(a);
    return out;
  }

  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
  std::vector<Drive> drives_;
  FakeClock clock_;
  std::unique_ptr<StoreAlertRepository> repo_;
  std::unique_ptr<AlertService> alerts_;
  DetectionConfig cfg_;
};

TEST_F(HealthChecksTest, MissingDriveOpensAfterGraceAndResolvesWhenBack) {
  ASSERT_TRUE(store_->MarkMissingExcept({"wwn-sda"}, 2000).ok());
  Pass(2000 + 10 * 60);
  EXPECT_TRUE(Alerts("missing").empty());  // within the 30 min grace
  Pass(2000 + 31 * 60);
  auto open = Alerts("missing", "active");
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].drive_id, "wwn-sdb");
  EXPECT_EQ(open[0].severity, "critical");
  EXPECT_NE(open[0].evidence_json.find("\"missing_since\":2000"), std::string::npos)
      << open[0].evidence_json;
  Pass(2000 + 60 * 60);
  EXPECT_EQ(Alerts("missing").size(), 1u);  // the same alert, refreshed

  ASSERT_TRUE(store_->UpsertDrive(drives_[1], 9000).ok());  // it is back
  Pass(9000);
  EXPECT_TRUE(Alerts("missing", "active").empty());
  auto all = Alerts("missing");
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].state, "resolved");
}

// inventory.exclude: a known drive the owner excludes is left out of
// discovery, so the store has it as gone; that is never a missing drive, and
// a missing alert it already had resolves as excluded.
TEST_F(HealthChecksTest, ExcludedDriveIsNeverMissing) {
  ASSERT_TRUE(store_->MarkMissingExcept({"wwn-sda"}, 2000).ok());
  Pass(2000 + 31 * 60, {}, {"sdb"});
  Pass(2000 + 5 * 86400, {}, {"/dev/sdb"});
  EXPECT_TRUE(Alerts("missing").empty());

  Pass(2000 + 6 * 86400);  // the owner took it out of the list again: it is missing
  ASSERT_EQ(Alerts("missing", "active").size(), 1u);
  Pass(2000 + 7 * 86400, {}, {"wwn-sdb"});  // and put it back in
  EXPECT_TRUE(Alerts("missing", "active").empty());
  auto all = Alerts("missing");
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].state, "resolved");
  EXPECT_NE(all[0].resolution.find("excluded"), std::string::npos) << all[0].resolution;
}

// Between discovery passes the presence look raises the alert of a drive
// still gone past the grace; one the kernel lists again is left alone (the
// discovery pass the look started marks it present), and an excluded one too.
TEST_F(HealthChecksTest, PresenceLookRaisesOnlyDrivesStillGone) {
  cfg_.missing_grace_minutes = 1;
  ASSERT_TRUE(store_->MarkMissingExcept({}, 2000).ok());  // sda and sdb gone
  clock_.Set(FromUnixSeconds(2030));
  ASSERT_TRUE(ApplyMissing(*store_, *alerts_, 2030, cfg_, {}, {}).ok());
  EXPECT_TRUE(Alerts("missing").empty());  // within the grace
  clock_.Set(FromUnixSeconds(2120));
  ASSERT_TRUE(ApplyMissing(*store_, *alerts_, 2120, cfg_, {}, {"sda"}).ok());
  auto open = Alerts("missing", "active");
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].drive_id, "wwn-sdb");
  clock_.Set(FromUnixSeconds(2240));
  ASSERT_TRUE(ApplyMissing(*store_, *alerts_, 2240, cfg_, {"sda", "sdb"}, {}).ok());
  EXPECT_TRUE(Alerts("missing", "active").empty());
}

TEST_F(HealthChecksTest, ForgottenDriveClosesItsAlertAndNeverReopens) {
  // A present drive cannot be forgotten; an unknown one is NotFound.
  auto present = ForgetDrive(*store_, alerts_.get(), "wwn-sdb", "", 1500);
  EXPECT_EQ(present.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(ForgetDrive(*store_, alerts_.get(), "wwn-nope", "", 1500).status().code(),
            StatusCode::kNotFound);

  ASSERT_TRUE(store_->MarkMissingExcept({"wwn-sda"}, 2000).ok());
  Pass(2000 + 3600);
  ASSERT_EQ(Alerts("missing", "active").size(), 1u);
  auto forgotten = ForgetDrive(*store_, alerts_.get(), "wwn-sdb", "replaced by ZDH-sdc", 6000);
  ASSERT_TRUE(forgotten.ok()) << forgotten.status().ToString();
  EXPECT_EQ(forgotten->forgotten_at, std::optional<std::int64_t>(6000));
  EXPECT_EQ(forgotten->forgotten_reason, "replaced by ZDH-sdc");
  auto closed = Alerts("missing");
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(closed[0].state, "resolved");
  EXPECT_EQ(closed[0].resolution, "retired: replaced by ZDH-sdc");
  Pass(6000 + 86400);
  Pass(6000 + 7 * 86400);
  EXPECT_TRUE(Alerts("missing", "active").empty());

  // Back again: watched again, so losing it later alerts again.
  ASSERT_TRUE(store_->UpsertDrive(drives_[1], 700000).ok());
  auto back = store_->GetDrive("wwn-sdb");
  ASSERT_TRUE(back.ok() && *back);
  EXPECT_FALSE((*back)->forgotten_at.has_value());
  ASSERT_TRUE(store_->MarkMissingExcept({"wwn-sda"}, 800000).ok());
  Pass(800000 + 3600);
  EXPECT_EQ(Alerts("missing", "active").size(), 1u);
}

// Retiring a drive closes all it had open, not only "missing": a SMART
// warning or a slowdown of a drive taken out for good would otherwise stay
// open with reminders for ever. Another drive's alerts are left alone.
TEST_F(HealthChecksTest, ForgettingADriveResolvesEveryAlertItHad) {
  ASSERT_TRUE(store_->MarkMissingExcept({"wwn-sda"}, 2000).ok());
  Pass(2000 + 3600);
  ASSERT_EQ(Alerts("missing", "active").size(), 1u);
  for (const auto& [drive, condition] :
       std::vector<std::pair<std::string, std::string>>{{"wwn-sdb", "smart:reallocated"},
                                                        {"wwn-sdb", "slowdown:drive"},
                                                        {"wwn-sdb", "selftest:overdue"},
                                                        {"wwn-sda", "smart:reallocated"}}) {
    Alert a;
    a.drive_id = drive;
    a.condition = condition;
    a.severity = "warning";
    a.summary = condition;
    a.opened_at = a.updated_at = 3000;
    a.notify_count = 1;
    ASSERT_TRUE(store_->InsertAlert(a).ok());
  }
  ASSERT_TRUE(ForgetDrive(*store_, alerts_.get(), "wwn-sdb", "sold", 6000).ok());
  auto active = store_->ListAlerts(AlertFilter{"active", "", 0});
  ASSERT_TRUE(active.ok());
  ASSERT_EQ(active->size(), 1u);
  EXPECT_EQ(active->front().drive_id, "wwn-sda");
  auto of_sdb = store_->ListAlerts(AlertFilter{"", "wwn-sdb", 0});
  ASSERT_TRUE(of_sdb.ok());
  EXPECT_EQ(of_sdb->size(), 4u);
  for (const Alert& a : *of_sdb) {
    EXPECT_EQ(a.state, "resolved") << a.condition;
    EXPECT_EQ(a.resolution, "retired: sold") << a.condition;
  }
}

TEST_F(HealthChecksTest, UnmappedMemberIsNamedByTheDriveLastSeenThere) {
  auto parsed = ParseZpoolStatusText(testing::ReadFile(
      testing::FixturePath("zpool/linux-mirror2x-degraded-unavail-corrupted-data.txt")));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  // Earlier, healthy: loop3 was sdb.
  std::vector<Pool> before = *parsed;
  for (Vdev& v : before[0].vdevs)
    for (PoolMember& m : v.members) {
      m.state = "ONLINE";
      if (m.path == "loop3") m.drive_id = "wwn-sdb";
    }
  before[0].state = "ONLINE";
  for (Vdev& v : before[0].vdevs) v.state = "ONLINE";
  ASSERT_TRUE(store_->RecordPools(before, 1000).ok());
  Pass(1000, before);
  EXPECT_TRUE(Alerts("pool:dummy:members", "active").empty());
  EXPECT_TRUE(Alerts("pool:dummy:state", "active").empty());

  // Now: loop3 UNAVAIL and mapped to nothing (the capture as it is).
  ASSERT_TRUE(store_->RecordPools(*parsed, 5000).ok());
  Pass(5000, *parsed);
  auto members = Alerts("pool:dummy:members", "active");
  ASSERT_EQ(members.size(), 1u);
  EXPECT_EQ(members[0].drive_id, "");
  EXPECT_NE(members[0].summary.find("ST4000VN008 serial ZDH-sdb (wwn-sdb)"), std::string::npos)
      << members[0].summary;
  EXPECT_EQ(Alerts("pool:dummy:state", "active").size(), 1u);

  // Repaired: both resolve on the first healthy pass.
  ASSERT_TRUE(store_->RecordPools(before, 9000).ok());
  Pass(9000, before);
  EXPECT_TRUE(Alerts("pool:dummy:members", "active").empty());
  EXPECT_TRUE(Alerts("pool:dummy:state", "active").empty());
}

TEST_F(HealthChecksTest, UnreadPoolsLeaveTheirAlertsAlone) {
  auto parsed = ParseZpoolStatusText(testing::ReadFile(
      testing::FixturePath("zpool/linux-mirror2x-degraded-unavail-corrupted-data.txt")));
  ASSERT_TRUE(parsed.ok());
  Pass(5000, *parsed);
  ASSERT_EQ(Alerts("pool:dummy:state", "active").size(), 1u);
  clock_.Set(FromUnixSeconds(6000));
  ASSERT_TRUE(ApplyHealth(*store_, *alerts_, {}, /*pools_read=*/false, 6000, cfg_).ok());
  EXPECT_EQ(Alerts("pool:dummy:state", "active").size(), 1u);
}

}  // namespace
}  // namespace dp
