// RunEvaluator over a real SQLite store: runs and their measurements go in as
// the scheduler and executor would store them; verdicts come out as alerts.
#include "sched/run_evaluator.h"

#include <gtest/gtest.h>

#include "alert/alert_repository.h"
#include "alert/alert_service.h"
#include "base/fake_clock.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

class RunEvaluatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::Open(dir_.Path("diskpulse.db"));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
    Drive d;
    d.id = "wwn-1";
    d.name = "sda";
    d.dev_path = "/dev/sda";
    d.model = "M";
    ASSERT_TRUE(store_->UpsertDrive(d, 1000).ok());
    AlertServiceOptions o;
    o.policy.resolve_after_clear_runs = 2;
    alerts_ = std::make_unique<AlertService>(repo_, nullptr, clock_, o);
    cfg_.baseline_runs = 3;
    evaluator_ = std::make_unique<RunEvaluator>(
        *store_, alerts_.get(), cfg_,
        [this](const std::string& drive, const std::string& test) {
          confirmations_.push_back(drive + "/" + test);
        });
  }

  // Stores a finished seq run measuring mb_per_s, then evaluates it.
  std::vector<Verdict> SeqRun(double mb_per_s, std::string trigger = "schedule:x",
                              bool contended = false, RunOutcome outcome = RunOutcome::kOk) {
    at_ += 3600;
    dp::Run r;
    r.drive_id = "wwn-1";
    r.test = "seq";
    r.trigger = trigger;
    r.started_at = at_;
    r.ended_at = at_ + 10;
    r.outcome = outcome;
    r.contended = contended;
    auto id = store_->InsertRun(r);
    EXPECT_TRUE(id.ok());
    r.id = *id;
    BenchPoint p;
    p.test = "seq";
    p.block_size = 1 << 20;
    p.queue_depth = 8;
    p.bytes = 1 << 30;
    p.seconds = 1;
    p.mb_per_s = mb_per_s;
    p.iops = mb_per_s;
    p.contended = contended;
    EXPECT_TRUE(store_->AddMeasurements(r.id, {p}).ok());
    auto v = evaluator_->Evaluate(r);
    EXPECT_TRUE(v.ok()) << v.status().ToString();
    return v.ok() ? *v : std::vector<Verdict>{};
  }

  std::vector<Alert> Alerts() { return repo_.All(); }

  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
  InMemoryAlertRepository repo_;
  FakeClock clock_;
  std::unique_ptr<AlertService> alerts_;
  DetectionConfig cfg_;
  std::unique_ptr<RunEvaluator> evaluator_;
  std::vector<std::string> confirmations_;
  std::int64_t at_ = 1'700'000'000;
};

TEST(RunEvaluatorNames, JudgedTests) {
  for (const char* t : {"seq", "zones", "seek", "random", "sweep"}) EXPECT_TRUE(IsJudgedTest(t));
  for (const char* t : {"pool-write", "parallel", "smart", "smart-long"})
    EXPECT_FALSE(IsJudgedTest(t));
}

TEST_F(RunEvaluatorTest, DropIsConfirmedThenAlertedThenResolved) {
  for (double v : {100.0, 101.0, 99.0, 100.5}) SeqRun(v);
  EXPECT_TRUE(Alerts().empty());
  EXPECT_TRUE(confirmations_.empty());

  SeqRun(70);  // one run outside: a re-test is asked for, no alert yet
  EXPECT_EQ(confirmations_, (std::vector<std::string>{"wwn-1/seq"}));
  EXPECT_TRUE(Alerts().empty());

  SeqRun(71, "confirm");  // the confirmation is outside too: slowdown
  ASSERT_EQ(Alerts().size(), 1u);
  EXPECT_EQ(Alerts()[0].condition, "slowdown:seq:qd8-1m:mb_per_s");
  EXPECT_EQ(Alerts()[0].state, "open");
  EXPECT_EQ(confirmations_.size(), 1u);  // a confirmation never asks for another

  SeqRun(40, "schedule:x", /*contended=*/true);  // contended: no evidence
  SeqRun(0, "schedule:x", false, RunOutcome::kFailed);
  EXPECT_EQ(Alerts()[0].clear_streak, 0);

  SeqRun(100);
  EXPECT_EQ(Alerts()[0].state, "open");
  SeqRun(99.5);
  EXPECT_EQ(Alerts()[0].state, "resolved");
}

TEST_F(RunEvaluatorTest, ContendedRunsNeverMakeABaselineOrADoubt) {
  for (int i = 0; i < 5; ++i) SeqRun(30, "schedule:x", /*contended=*/true);
  for (double v : {100.0, 101.0, 99.0}) SeqRun(v);
  EXPECT_TRUE(confirmations_.empty());
  EXPECT_TRUE(Alerts().empty());
}

}  // namespace
}  // namespace dp
