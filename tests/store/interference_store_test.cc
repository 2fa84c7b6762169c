// Runs recognised as unseen interference in the store: MarkInterference
// flags every figure of the run, History reads the flag back (the judge
// keeps such runs out of every baseline), other runs stay as they were, and
// a run with no figures is a clear NotFound.
#include <gtest/gtest.h>

#include "store/store_test_util.h"

namespace dp {
namespace {

BenchPoint SeqPoint(double mb_per_s) {
  BenchPoint p;
  p.test = "seq";
  p.block_size = 1 << 20;
  p.queue_depth = 8;
  p.mb_per_s = mb_per_s;
  p.iops = mb_per_s;
  return p;
}

class InterferenceStoreTest : public testing::StoreFixture {};

TEST_F(InterferenceStoreTest, MarkedRunsReadBackInterferedInEveryMetric) {
  ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-a", "sda"), 1).ok());
  auto calm = store_->InsertRun(testing::MakeRun("wwn-a", "seq", 100));
  auto hit = store_->InsertRun(testing::MakeRun("wwn-a", "seq", 200));
  ASSERT_TRUE(calm.ok() && hit.ok());
  ASSERT_TRUE(store_->AddMeasurements(*calm, {SeqPoint(250)}).ok());
  ASSERT_TRUE(store_->AddMeasurements(*hit, {SeqPoint(180)}).ok());

  ASSERT_TRUE(store_->MarkInterference(*hit).ok());
  for (const char* metric : {"mb_per_s", "iops"}) {
    HistoryQuery q;
    q.drive_id = "wwn-a";
    q.test = "seq";
    q.metric = metric;
    auto h = store_->History(q);
    ASSERT_TRUE(h.ok()) << h.status().ToString();
    ASSERT_EQ(h->size(), 2u) << metric;
    EXPECT_FALSE((*h)[0].interfered) << metric;
    EXPECT_TRUE((*h)[1].interfered) << metric;
    EXPECT_EQ((*h)[1].run_id, *hit);
  }
  // Marked twice: still one flag, no error.
  EXPECT_TRUE(store_->MarkInterference(*hit).ok());
  auto all = store_->DriveMeasurements("wwn-a");
  ASSERT_TRUE(all.ok());
  int flagged = 0;
  for (const DriveMeasurement& m : *all) flagged += m.sample.interfered ? 1 : 0;
  EXPECT_EQ(flagged, 2);

  const Status unknown = store_->MarkInterference(*hit + 1000);
  EXPECT_EQ(unknown.code(), StatusCode::kNotFound) << unknown.ToString();
}

}  // namespace
}  // namespace dp
