#include <gtest/gtest.h>

#include "store/store_test_util.h"

namespace dp {
namespace {

class AlertStoreTest : public testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-a", "sda"), 1).ok());
    ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-b", "sdb"), 1).ok());
  }
};

Alert MakeAlert(const std::string& drive, const std::string& condition, std::int64_t at) {
  Alert a;
  a.drive_id = drive;
  a.condition = condition;
  a.severity = "warning";
  a.state = "open";
  a.summary = "sda: sequential read 22% below its baseline";
  a.evidence_json = R"({"baseline_mb_s":190.2,"latest_mb_s":148.1,"runs":[1,2,3]})";
  a.opened_at = at;
  a.updated_at = at;
  return a;
}

TEST_F(AlertStoreTest, LifecycleRoundTrips) {
  auto id = store_->InsertAlert(MakeAlert("wwn-a", "slowdown:seq", 100));
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  auto got = store_->GetAlert(*id);
  ASSERT_TRUE(got.ok() && got->has_value());
  Alert a = **got;
  EXPECT_EQ(a.id, *id);
  EXPECT_EQ(a.drive_id, "wwn-a");
  EXPECT_EQ(a.condition, "slowdown:seq");
  EXPECT_EQ(a.severity, "warning");
  EXPECT_EQ(a.state, "open");
  EXPECT_EQ(a.summary, MakeAlert("", "", 0).summary);
  EXPECT_EQ(a.evidence_json, MakeAlert("", "", 0).evidence_json);
  EXPECT_EQ(a.opened_at, 100);
  EXPECT_FALSE(a.acknowledged_at.has_value());
  EXPECT_FALSE(a.resolved_at.has_value());
  EXPECT_FALSE(a.last_notified_at.has_value());
  EXPECT_EQ(a.notify_count, 0);

  a.last_notified_at = 101;
  a.notify_count = 1;
  a.state = "acknowledged";
  a.acknowledged_at = 150;
  a.severity = "critical";
  a.updated_at = 150;
  ASSERT_TRUE(store_->UpdateAlert(a).ok());
  auto open = store_->OpenAlertFor("wwn-a", "slowdown:seq");
  ASSERT_TRUE(open.ok() && open->has_value());
  EXPECT_EQ((*open)->id, *id);
  EXPECT_EQ((*open)->state, "acknowledged");
  EXPECT_EQ((*open)->acknowledged_at, std::optional<std::int64_t>(150));
  EXPECT_EQ((*open)->last_notified_at, std::optional<std::int64_t>(101));
  EXPECT_EQ((*open)->notify_count, 1);
  EXPECT_EQ((*open)->severity, "critical");

  a.state = "resolved";
  a.resolved_at = 200;
  a.clear_streak = 3;
  ASSERT_TRUE(store_->UpdateAlert(a).ok());
  open = store_->OpenAlertFor("wwn-a", "slowdown:seq");
  ASSERT_TRUE(open.ok());
  EXPECT_FALSE(open->has_value());
  got = store_->GetAlert(*id);
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((*got)->resolved_at, std::optional<std::int64_t>(200));
  EXPECT_EQ((*got)->clear_streak, 3);
}

TEST_F(AlertStoreTest, OneActiveAlertPerDriveAndCondition) {
  ASSERT_TRUE(store_->InsertAlert(MakeAlert("wwn-a", "smart:reallocated", 1)).ok());
  auto dup = store_->InsertAlert(MakeAlert("wwn-a", "smart:reallocated", 2));
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.status().code(), StatusCode::kAlreadyExists);
  // Another drive, another condition, or a pool-level alert are fine.
  EXPECT_TRUE(store_->InsertAlert(MakeAlert("wwn-b", "smart:reallocated", 2)).ok());
  EXPECT_TRUE(store_->InsertAlert(MakeAlert("wwn-a", "smart:pending", 2)).ok());
  ASSERT_TRUE(store_->InsertAlert(MakeAlert("", "zfs:degraded", 2)).ok());
  EXPECT_EQ(store_->InsertAlert(MakeAlert("", "zfs:degraded", 3)).status().code(),
            StatusCode::kAlreadyExists);
  auto pool_alert = store_->OpenAlertFor("", "zfs:degraded");
  ASSERT_TRUE(pool_alert.ok() && pool_alert->has_value());
  EXPECT_EQ((*pool_alert)->drive_id, "");

  // Once resolved, the condition may open again.
  auto open = store_->OpenAlertFor("wwn-a", "smart:reallocated");
  ASSERT_TRUE(open.ok() && open->has_value());
  Alert a = **open;
  a.state = "resolved";
  a.resolved_at = 5;
  ASSERT_TRUE(store_->UpdateAlert(a).ok());
  auto again = store_->InsertAlert(MakeAlert("wwn-a", "smart:reallocated", 6));
  ASSERT_TRUE(again.ok());
  open = store_->OpenAlertFor("wwn-a", "smart:reallocated");
  ASSERT_TRUE(open.ok() && open->has_value());
  EXPECT_EQ((*open)->id, *again);
  // Reopening the resolved one while another is active is refused.
  a.state = "open";
  EXPECT_EQ(store_->UpdateAlert(a).code(), StatusCode::kAlreadyExists);
}

TEST_F(AlertStoreTest, ValidatesStateSeverityAndDrive) {
  Alert a = MakeAlert("wwn-a", "x", 1);
  a.state = "closed";
  EXPECT_EQ(store_->InsertAlert(a).status().code(), StatusCode::kInvalidArgument);
  a = MakeAlert("wwn-a", "x", 1);
  a.severity = "bad";
  EXPECT_EQ(store_->InsertAlert(a).status().code(), StatusCode::kInvalidArgument);
  a = MakeAlert("wwn-a", "", 1);
  EXPECT_EQ(store_->InsertAlert(a).status().code(), StatusCode::kInvalidArgument);
  auto ghost = store_->InsertAlert(MakeAlert("wwn-ghost", "x", 1));
  ASSERT_FALSE(ghost.ok());
  EXPECT_NE(ghost.status().message().find("unknown drive 'wwn-ghost'"), std::string::npos);
  a = MakeAlert("wwn-a", "x", 1);
  a.id = 4242;
  EXPECT_EQ(store_->UpdateAlert(a).code(), StatusCode::kNotFound);
  auto none = store_->GetAlert(4242);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

TEST_F(AlertStoreTest, ListFiltersAndOrdersNewestFirst) {
  auto a1 = store_->InsertAlert(MakeAlert("wwn-a", "c1", 10));
  auto a2 = store_->InsertAlert(MakeAlert("wwn-b", "c1", 20));
  auto a3 = store_->InsertAlert(MakeAlert("wwn-a", "c2", 30));
  ASSERT_TRUE(a1.ok() && a2.ok() && a3.ok());
  Alert acked = **store_->GetAlert(*a2);
  acked.state = "acknowledged";
  ASSERT_TRUE(store_->UpdateAlert(acked).ok());
  Alert resolved = **store_->GetAlert(*a1);
  resolved.state = "resolved";
  ASSERT_TRUE(store_->UpdateAlert(resolved).ok());

  auto ids = [](const Result<std::vector<Alert>>& r) {
    std::vector<std::int64_t> out;
    for (const auto& a : *r) out.push_back(a.id);
    return out;
  };
  AlertFilter f;
  auto all = store_->ListAlerts(f);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(ids(all), (std::vector<std::int64_t>{*a3, *a2, *a1}));
  f.state = "active";
  EXPECT_EQ(ids(store_->ListAlerts(f)), (std::vector<std::int64_t>{*a3, *a2}));
  f.state = "resolved";
  EXPECT_EQ(ids(store_->ListAlerts(f)), (std::vector<std::int64_t>{*a1}));
  f.state = "open";
  EXPECT_EQ(ids(store_->ListAlerts(f)), (std::vector<std::int64_t>{*a3}));
  f.state = "";
  f.drive_id = "wwn-a";
  EXPECT_EQ(ids(store_->ListAlerts(f)), (std::vector<std::int64_t>{*a3, *a1}));
  f.limit = 1;
  EXPECT_EQ(ids(store_->ListAlerts(f)), (std::vector<std::int64_t>{*a3}));
}

}  // namespace
}  // namespace dp

#include "store/migrations.h"
#include "store/sqlite_db.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

// A version-16 file with a drive whose decline had two told alerts (its
// speed event with a member in the evidence, and its trend) and another
// drive's trend alone: at version 17 the event's members are typed state,
// the first trend closes into the drive's speed alert, the second becomes it.
TEST(AlertMigrationTest, TrendsJoinTheSpeedAlertAndMembersBecomeTypedState) {
  testing::TempDir dir;
  const std::string path = dir.Path("diskpulse.db");
  {
    auto db = SqliteDb::Open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    std::vector<Migration> upto16;
    for (const Migration& m : SchemaMigrations())
      if (m.version <= 16) upto16.push_back(m);
    ASSERT_TRUE(ApplyMigrations(**db, upto16).ok());
    ASSERT_TRUE(
        (*db)
            ->Exec(
                "INSERT INTO drives (id, name, firmware, controller, first_seen, last_seen) VALUES "
                "  ('wwn-b', 'sdb', 'f', 'c', 1, 2), ('wwn-c', 'sdc', 'f', 'c', 1, 2);"
                "INSERT INTO alerts (drive_id, condition, severity, state, summary, evidence, "
                "  opened_at, updated_at, notify_count) VALUES "
                "  ('wwn-b', 'slowdown:drive', 'warning', 'open', 's', '{\"members\":[{"
                "\"condition\":\"slowdown:seq:qd8-1m:mb_per_s\",\"state\":\"open\",\"severity\":"
                "\"warning\",\"clear_streak\":1,\"opened_at\":5,\"verdict\":{\"test\":\"seq\","
                "\"change_percent\":11,\"band\":{\"low\":180,\"high\":220}}}],"
                "\"last_fired_at\":9,\"cleared_since_fired\":false}', 5, 9, 1),"
                "  ('wwn-b', 'trend:drive', 'warning', 'open', 't', '{}', 6, 9, 1),"
                "  ('wwn-c', 'trend:drive', 'warning', 'open', 't', '{}', 6, 9, 1)")
            .ok());
  }
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  auto b = (*store)->OpenAlertFor("wwn-b", "slowdown:drive");
  ASSERT_TRUE(b.ok() && b->has_value());
  ASSERT_EQ((*b)->event.members.size(), 1u);
  const AlertMember& m = (*b)->event.members[0];
  EXPECT_EQ(m.condition, "slowdown:seq:qd8-1m:mb_per_s");
  EXPECT_EQ(m.clear_streak, 1);
  EXPECT_EQ(m.test, "seq");
  EXPECT_EQ(m.change_percent, 11);
  EXPECT_EQ(m.band_low, 180);
  EXPECT_EQ((*b)->event.last_fired_at, 9);
  EXPECT_FALSE((*b)->event.cleared_since_fired);
  auto b_trend = (*store)->OpenAlertFor("wwn-b", "trend:drive");
  ASSERT_TRUE(b_trend.ok());
  EXPECT_FALSE(b_trend->has_value()) << "closed into sdb's speed alert";
  auto c = (*store)->OpenAlertFor("wwn-c", "slowdown:drive");
  ASSERT_TRUE(c.ok() && c->has_value()) << "sdc's trend is its speed alert now";
  EXPECT_EQ((*c)->notify_count, 1);
}

}  // namespace
}  // namespace dp
