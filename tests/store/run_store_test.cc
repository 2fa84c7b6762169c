#include <gtest/gtest.h>

#include "store/store_test_util.h"

namespace dp {
namespace {

using testing::MakeRun;

class RunStoreTest : public testing::StoreFixture {
 protected:
  void SetUp() override {
    StoreFixture::SetUp();
    ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-a", "sda"), 1).ok());
    ASSERT_TRUE(store_->UpsertDrive(testing::MakeDrive("wwn-b", "sdb"), 1).ok());
  }
};

TEST_F(RunStoreTest, RoundTripsEveryField) {
  dp::Run r = MakeRun("wwn-a", "zones", 1000);
  r.trigger = "api";
  r.ended_at.reset();
  r.outcome = RunOutcome::kRunning;
  r.progress = 0.25;
  r.contended = true;
  r.partial = true;
  r.engine = "uring";
  r.reason = "";
  auto id = store_->InsertRun(r);
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  auto got = store_->GetRun(*id);
  ASSERT_TRUE(got.ok() && got->has_value());
  const dp::Run& g = **got;
  EXPECT_EQ(g.id, *id);
  EXPECT_EQ(g.drive_id, "wwn-a");
  EXPECT_EQ(g.test, "zones");
  EXPECT_EQ(g.trigger, "api");
  EXPECT_EQ(g.started_at, 1000);
  EXPECT_FALSE(g.ended_at.has_value());
  EXPECT_EQ(g.outcome, RunOutcome::kRunning);
  EXPECT_DOUBLE_EQ(g.progress, 0.25);
  EXPECT_TRUE(g.contended);
  EXPECT_TRUE(g.partial);
  EXPECT_EQ(g.engine, "uring");

  // It finishes.
  dp::Run done = g;
  done.ended_at = 1090;
  done.outcome = RunOutcome::kFailed;
  done.reason = "read error at LBA 123456: Input/output error";
  done.progress = 1;
  ASSERT_TRUE(store_->UpdateRun(done).ok());
  got = store_->GetRun(*id);
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((*got)->ended_at, std::optional<std::int64_t>(1090));
  EXPECT_EQ((*got)->outcome, RunOutcome::kFailed);
  EXPECT_EQ((*got)->reason, done.reason);
}

TEST_F(RunStoreTest, PoolLevelRunHasNoDrive) {
  dp::Run r = MakeRun("", "pool-write", 5);
  auto id = store_->InsertRun(r);
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  auto got = store_->GetRun(*id);
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((*got)->drive_id, "");
  testing::RawDb raw(db_path_);
  EXPECT_EQ(raw.Text("SELECT ifnull(drive_id, 'NULL') FROM runs"), "NULL");
}

TEST_F(RunStoreTest, UnknownRunsAndDrives) {
  auto got = store_->GetRun(999);
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->has_value());
  dp::Run r = MakeRun("wwn-a", "seq", 1);
  r.id = 999;
  EXPECT_EQ(store_->UpdateRun(r).code(), StatusCode::kNotFound);
  auto id = store_->InsertRun(MakeRun("wwn-a", "seq", 1));
  ASSERT_TRUE(id.ok());
  r.id = *id;
  r.drive_id = "wwn-ghost";
  Status s = store_->UpdateRun(r);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("unknown drive 'wwn-ghost'"), std::string::npos) << s.ToString();
  EXPECT_EQ(store_->InsertRun(MakeRun("wwn-a", "", 1)).status().code(),
            StatusCode::kInvalidArgument);
}

TEST_F(RunStoreTest, ListFiltersAndOrdersNewestFirst) {
  struct {
    const char* drive;
    const char* test;
    std::int64_t at;
    RunOutcome outcome;
  } rows[] = {
      {"wwn-a", "seq", 100, RunOutcome::kOk},      {"wwn-a", "random", 200, RunOutcome::kOk},
      {"wwn-b", "seq", 300, RunOutcome::kSkipped}, {"wwn-a", "seq", 400, RunOutcome::kFailed},
      {"", "pool-write", 500, RunOutcome::kOk},    {"wwn-a", "seq", 400, RunOutcome::kOk},
  };
  std::vector<std::int64_t> ids;
  for (const auto& row : rows) {
    dp::Run r = MakeRun(row.drive, row.test, row.at);
    r.outcome = row.outcome;
    auto id = store_->InsertRun(r);
    ASSERT_TRUE(id.ok());
    ids.push_back(*id);
  }
  auto all = store_->ListRuns(RunFilter());
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 6u);
  EXPECT_EQ((*all)[0].started_at, 500);
  // Same start: the later id first.
  EXPECT_EQ((*all)[1].id, ids[5]);
  EXPECT_EQ((*all)[2].id, ids[3]);
  EXPECT_EQ((*all)[5].started_at, 100);

  RunFilter f;
  f.drive_id = "wwn-a";
  f.test = "seq";
  auto a_seq = store_->ListRuns(f);
  ASSERT_TRUE(a_seq.ok());
  ASSERT_EQ(a_seq->size(), 3u);
  for (const auto& r : *a_seq) {
    EXPECT_EQ(r.drive_id, "wwn-a");
    EXPECT_EQ(r.test, "seq");
  }
  f.since = 300;
  a_seq = store_->ListRuns(f);
  ASSERT_TRUE(a_seq.ok());
  EXPECT_EQ(a_seq->size(), 2u);
  f.limit = 1;
  a_seq = store_->ListRuns(f);
  ASSERT_TRUE(a_seq.ok());
  ASSERT_EQ(a_seq->size(), 1u);
  EXPECT_EQ((*a_seq)[0].id, ids[5]);

  RunFilter skipped;
  skipped.outcome = RunOutcome::kSkipped;
  auto s = store_->ListRuns(skipped);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->size(), 1u);
  EXPECT_EQ((*s)[0].drive_id, "wwn-b");

  RunFilter by_test;
  by_test.test = "pool-write";
  auto pw = store_->ListRuns(by_test);
  ASSERT_TRUE(pw.ok());
  ASSERT_EQ(pw->size(), 1u);
  EXPECT_EQ((*pw)[0].drive_id, "");
}

// A drive's latest run of one test (the page's first screen asks it for
// every drive) is found by one index seek, not by stepping through every run
// of the drive's other tests.
TEST_F(RunStoreTest, LatestRunOfADrivesTestUsesTheDriveTestIndex) {
  for (int w = 0; w < 20; ++w)
    for (const char* test : {"seq", "zones", "smart"})
      ASSERT_TRUE(store_->InsertRun(MakeRun("wwn-a", test, 1000 + w * 100)).ok());
  RunFilter f;
  f.drive_id = "wwn-a";
  f.test = "smart";
  f.limit = 1;
  auto latest = store_->ListRuns(f);
  ASSERT_TRUE(latest.ok());
  ASSERT_EQ(latest->size(), 1u);
  EXPECT_EQ((*latest)[0].test, "smart");
  EXPECT_EQ((*latest)[0].started_at, 1000 + 19 * 100);

  testing::RawDb raw(db_path_);
  raw.Exec("ANALYZE");
  // The statement of Store::ListRuns with a drive and a test, unbound.
  std::string plan = raw.Rows(
      "EXPLAIN QUERY PLAN SELECT id, outcome, reason FROM runs WHERE started_at >= ?1 "
      "AND drive_id = ?2 AND test = ?3 ORDER BY started_at DESC, id DESC LIMIT ?5");
  EXPECT_NE(plan.find("USING INDEX runs_by_drive_test (drive_id=? AND test=? AND started_at>?)"),
            std::string::npos)
      << plan;
  EXPECT_EQ(plan.find("TEMP B-TREE"), std::string::npos) << plan;  // no sort step
}

TEST_F(RunStoreTest, SurvivesReopen) {
  auto id = store_->InsertRun(MakeRun("wwn-b", "seek", 77));
  ASSERT_TRUE(id.ok());
  Reopen();
  auto got = store_->GetRun(*id);
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((*got)->test, "seek");
}

}  // namespace
}  // namespace dp
