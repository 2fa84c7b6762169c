#include <gtest/gtest.h>

#include "store/store_test_util.h"

namespace dp {
namespace {

class RetentionTest : public testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-a", "sda"), 1).ok());
  }
  std::int64_t AddRun(std::int64_t at) {
    auto id = store_->InsertRun(testing::MakeRun("wwn-a", "random", at));
    EXPECT_TRUE(id.ok());
    BenchPoint p;
    p.test = "random";
    p.block_size = 4096;
    p.queue_depth = 1;
    p.iops = 100 + static_cast<double>(at);
    p.latency = LatencySummary{1, 2, 3, 4, 5, 6};
    p.histogram = "histogram-bytes";
    EXPECT_TRUE(store_->AddMeasurements(*id, {p}).ok());
    return *id;
  }
};

TEST_F(RetentionTest, DropsOldDetailKeepsFigures) {
  std::int64_t old_run = AddRun(100);
  std::int64_t new_run = AddRun(300);
  SmartSnapshot s;
  s.protocol = "ATA";
  s.reallocated_sectors = 1;
  s.raw_json = "{\"old\":true}";
  ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", 100, s).ok());
  s.raw_json = "{\"new\":true}";
  s.reallocated_sectors = 2;
  ASSERT_TRUE(store_->InsertSmartSnapshot("wwn-a", 300, s).ok());

  ASSERT_TRUE(store_->PruneBefore(200).ok());

  auto old_points = store_->RunPoints(old_run);
  ASSERT_TRUE(old_points.ok());
  ASSERT_EQ(old_points->size(), 1u);
  EXPECT_TRUE((*old_points)[0].histogram.empty());
  EXPECT_DOUBLE_EQ((*old_points)[0].iops, 200);  // figures stay
  ASSERT_TRUE((*old_points)[0].latency.has_value());
  auto new_points = store_->RunPoints(new_run);
  ASSERT_TRUE(new_points.ok());
  EXPECT_EQ((*new_points)[0].histogram, "histogram-bytes");

  HistoryQuery q;
  q.drive_id = "wwn-a";
  q.test = "random";
  q.metric = "iops";
  auto h = store_->History(q);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->size(), 2u);

  testing::RawDb raw(db_path_);
  EXPECT_EQ(raw.Rows("SELECT at, ifnull(raw_json, 'NULL'), reallocated_sectors "
                     "FROM smart_snapshots ORDER BY at"),
            "100|NULL|1\n300|{\"new\":true}|2");
  auto latest = store_->LatestSmart("wwn-a");
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->raw_json, "{\"new\":true}");
}

}  // namespace
}  // namespace dp
