// Every member of a vdev slowing in the same window is one environment
// verdict for the vdev (controller, enclosure temperature, pool load), not
// one slowdown alert per drive; one drive slowing alone is still its own
// slowdown. RunEvaluator over a real SQLite store with a recorded pool.
#include <gtest/gtest.h>

#include "alert/alert_service.h"
#include "base/fake_clock.h"
#include "runs/run_evaluator.h"
#include "runs/store_alert_repository.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

constexpr int kMembers = 4;

class VdevEnvironmentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::Open(dir_.Path("diskpulse.db"));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
    Pool p;
    p.name = "tank";
    Vdev v;
    v.name = "raidz1-0";
    v.type = "raidz1";
    v.role = "data";
    for (int i = 0; i < kMembers; ++i) {
      Drive d;
      d.id = "wwn-" + std::to_string(i);
      d.name = "sd" + std::string(1, static_cast<char>('a' + i));
      d.dev_path = "/dev/" + d.name;
      d.model = "HDD-8T";
      ASSERT_TRUE(store_->UpsertDrive(d, 1000).ok());
      PoolMember m;
      m.path = d.name;
      m.state = "ONLINE";
      m.drive_id = d.id;
      v.members.push_back(m);
    }
    p.vdevs.push_back(v);
    ASSERT_TRUE(store_->RecordPools({p}, 1000).ok());
    repo_ = std::make_unique<StoreAlertRepository>(*store_);
    AlertServiceOptions o;
    alerts_ = std::make_unique<AlertService>(*repo_, nullptr, clock_, o);
    evaluator_ = std::make_unique<RunEvaluator>(
        *store_, alerts_.get(), cfg_,
        [this](const std::string& drive, const std::string&, std::int64_t) {
          retests_.push_back(drive);
        });
  }

  void SeqRun(int member, std::int64_t at, double mb_per_s, const std::string& trigger) {
    dp::Run r;
    r.drive_id = "wwn-" + std::to_string(member);
    r.test = "seq";
    r.trigger = trigger;
    r.started_at = at;
    r.ended_at = at + 10;
    r.outcome = RunOutcome::kOk;
    auto id = store_->InsertRun(r);
    ASSERT_TRUE(id.ok());
    r.id = *id;
    BenchPoint p;
    p.test = "seq";
    p.block_size = 1 << 20;
    p.queue_depth = 8;
    p.bytes = 1 << 30;
    p.seconds = 1;
    p.mb_per_s = mb_per_s;
    ASSERT_TRUE(store_->AddMeasurements(r.id, {p}).ok());
    ASSERT_TRUE(evaluator_->Evaluate(r).ok());
  }

  // One weekly window: every member measured 20 minutes apart, each doubtful
  // member re-tested an hour after the last; level(member) is its MB/s.
  template <typename Level>
  void Week(int week, Level level) {
    const std::int64_t t = 1'700'000'000 + static_cast<std::int64_t>(week) * 7 * 86400;
    retests_.clear();
    for (int i = 0; i < kMembers; ++i)
      SeqRun(i, t + i * 1200, level(i) * (1 + 0.01 * ((week + i) % 3 - 1)), "schedule:weekly");
    auto again = retests_;
    for (std::size_t k = 0; k < again.size(); ++k)
      SeqRun(std::stoi(again[k].substr(4)), t + kMembers * 1200 + 3600 + k * 600,
             level(std::stoi(again[k].substr(4))), "confirm:0");
  }

  std::vector<Alert> Active() {
    AlertFilter f;
    f.state = "active";
    f.limit = 0;
    auto a = store_->ListAlerts(f);
    EXPECT_TRUE(a.ok());
    return a.ok() ? *a : std::vector<Alert>{};
  }

  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<StoreAlertRepository> repo_;
  FakeClock clock_;
  std::unique_ptr<AlertService> alerts_;
  DetectionConfig cfg_;
  std::unique_ptr<RunEvaluator> evaluator_;
  std::vector<std::string> retests_;
};

TEST_F(VdevEnvironmentTest, WholeVdevSlowingTogetherIsOneEnvironmentAlert) {
  for (int w = 0; w < 8; ++w) Week(w, [](int) { return 200.0; });
  ASSERT_TRUE(Active().empty());
  for (int w = 8; w < 11; ++w) Week(w, [](int) { return 160.0; });  // the HBA got hot
  auto active = Active();
  ASSERT_EQ(active.size(), 1u);
  EXPECT_EQ(active[0].condition, "environment:tank/raidz1-0:seq:qd8-1m:mb_per_s");
  EXPECT_EQ(active[0].drive_id, "wwn-0");  // filed under the vdev's first member
  EXPECT_NE(active[0].summary.find("every measured member"), std::string::npos)
      << active[0].summary;
  for (const auto& a : active) EXPECT_EQ(a.condition.find("slowdown:"), std::string::npos);
  // The environment recovers: the alert resolves after clear runs.
  for (int w = 11; w < 16; ++w) Week(w, [](int) { return 200.0; });
  EXPECT_TRUE(Active().empty());
}

TEST_F(VdevEnvironmentTest, OneDriveSlowingAloneIsItsOwnSlowdown) {
  for (int w = 0; w < 8; ++w) Week(w, [](int) { return 200.0; });
  for (int w = 8; w < 10; ++w) Week(w, [](int m) { return m == 2 ? 160.0 : 200.0; });
  auto active = Active();
  bool slowdown = false;
  for (const auto& a : active) {
    EXPECT_EQ(a.condition.find("environment:"), std::string::npos) << a.condition;
    if (a.drive_id == "wwn-2" && a.condition == "slowdown:seq:qd8-1m:mb_per_s") slowdown = true;
  }
  EXPECT_TRUE(slowdown);
}

}  // namespace
}  // namespace dp
