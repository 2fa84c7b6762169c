// End-to-end on real block devices: three loop devices as the members of one
// recorded vdev, each read by the bench through a kernel read-bandwidth
// throttle (cgroup v1 blkio or v2 io.max) of known speed, every run stored in
// SQLite and judged by RunEvaluator, alerts applied by AlertService with a
// recording notifier. The weeks are the runs' timestamps (a fake clock); the
// reads are real.
//   - The whole box throttled together for good (a new HBA driver): one
//     environment notice, the members' baselines re-formed by automatic
//     re-baseline marks, then no alert and no re-test.
//   - One target throttled through its scheduled run and its re-test
//     (housekeeping lasting hours), back at the next scheduled run: no
//     notification.
// Needs root, losetup and a kernel throttle; skips otherwise.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "alert/alert_service.h"
#include "base/fake_clock.h"
#include "bench/bench_runner.h"
#include "runs/run_evaluator.h"
#include "runs/store_alert_repository.h"
#include "store/store.h"
#include "support/capability.h"
#include "support/cgroup_throttle.h"
#include "support/loop_device.h"
#include "support/temp_dir.h"

namespace dp::testing {
namespace {

constexpr int kMembers = 3;
constexpr std::uint64_t kDriveBps = 50'000'000;  // the healthy drives' speed
constexpr std::int64_t kWeek = 7 * 86400;

struct Recorder : Notifier {
  std::vector<Notification> got;
  void Submit(const Notification& n) override { got.push_back(n); }
  int Opened(const std::string& condition) const {
    int n = 0;
    for (const auto& g : got) n += g.kind == NotifyKind::kOpened && g.alert.condition == condition;
    return n;
  }
};

class BoxShiftE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why = LoopDevice::Unavailable();
    if (!why.empty()) DP_SKIP_WITHOUT("loop devices", why);
    why = CgroupThrottle::Unavailable();
    if (!why.empty()) DP_SKIP_WITHOUT("cgroup io throttle", why);
    auto cg = CgroupThrottle::Create();
    ASSERT_TRUE(cg.ok()) << cg.status().ToString();
    throttle_ = std::move(cg).value();
    ASSERT_TRUE(throttle_->AddProcess(::getpid()).ok());
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
      auto loop = LoopDevice::Create(64ULL << 20, /*direct_io=*/true);
      ASSERT_TRUE(loop.ok()) << loop.status().ToString();
      loops_.push_back(std::move(loop).value());
      ASSERT_TRUE(Cap(i, kDriveBps));
      Drive d;
      d.id = "loop-member-" + std::to_string(i);
      d.name = "member" + std::to_string(i);
      d.dev_path = loops_.back()->path();
      d.model = "LOOP-50MBS";
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
    alerts_ = std::make_unique<AlertService>(*repo_, &notes_, clock_, AlertServiceOptions{});
    evaluator_ = std::make_unique<RunEvaluator>(
        *store_, alerts_.get(), cfg_,
        [this](const std::string& drive, const std::string&, std::int64_t) {
          retests_.push_back(drive);
        });
  }

  bool Cap(int member, std::uint64_t bps) {
    return throttle_->SetReadBps(loops_[member]->major(), loops_[member]->minor(), bps).ok();
  }

  // One seq run of a member at `at`: real reads, stored, judged.
  void Measure(int member, std::int64_t at, const std::string& trigger) {
    BenchOptions o;
    o.tests = {BenchTest::kSeq};
    o.seconds = 1.5;
    o.idle_check_seconds = 0;
    SystemClock wall;
    auto dev = BlockDevice::Open(loops_[member]->path());
    ASSERT_TRUE(dev.ok()) << dev.status().ToString();
    DeviceTarget target(std::move(dev).value(), o.engine, wall);
    auto report = RunReadTests(target, o, nullptr, nullptr);
    ASSERT_TRUE(report.ok()) << report.status().ToString();
    dp::Run r;
    r.drive_id = "loop-member-" + std::to_string(member);
    r.test = "seq";
    r.trigger = trigger;
    r.started_at = at;
    r.ended_at = at + 1;
    r.outcome = RunOutcome::kOk;
    auto id = store_->InsertRun(r);
    ASSERT_TRUE(id.ok());
    r.id = *id;
    ASSERT_TRUE(store_->AddMeasurements(r.id, report->results).ok());
    clock_.Set(FromUnixSeconds(at + 1));
    auto verdicts = evaluator_->Evaluate(r);
    ASSERT_TRUE(verdicts.ok());
    // The automatic re-baselines the verdicts asked for: the drive's own and
    // its siblings', each from the shift's start.
    for (const Verdict& v : *verdicts) {
      if (!v.rebaseline_from) continue;
      automatic_[r.drive_id] = *v.rebaseline_from;
      for (const std::string& sibling : v.rebaseline_siblings) automatic_[sibling] = *v.rebaseline_from;
    }
    if (std::getenv("DP_E2E_VERDICTS"))
      for (const Verdict& v : *verdicts)
        std::fprintf(stderr, "%s %.1f MB/s: %s: %s\n", r.drive_id.c_str(),
                     report->results.empty() ? 0.0 : report->results.front().mb_per_s,
                     std::string(VerdictKindName(v.kind)).c_str(), v.summary.c_str());
    ++runs_;
  }

  // A scheduled week: every member 20 minutes apart, then the re-tests asked
  // for, six hours later. `before_retests` runs between the two.
  void Week(int week, const std::function<void()>& before_retests = {}) {
    const std::int64_t t = 1'750'000'000 + week * kWeek;
    retests_.clear();
    for (int i = 0; i < kMembers; ++i) Measure(i, t + i * 1200, "schedule:weekly");
    if (before_retests) before_retests();
    const auto again = retests_;
    for (std::size_t k = 0; k < again.size(); ++k)
      Measure(std::stoi(again[k].substr(again[k].rfind('-') + 1)), t + 6 * 3600 + k * 600,
              "confirm:0");
    retests_total_ += static_cast<int>(again.size());
  }

  std::vector<Alert> All() {
    AlertFilter f;
    f.limit = 0;
    auto a = store_->ListAlerts(f);
    EXPECT_TRUE(a.ok());
    return a.ok() ? *a : std::vector<Alert>{};
  }

  TempDir dir_;
  // Declared first so they go last: the devices detach after the cgroup.
  std::vector<std::unique_ptr<LoopDevice>> loops_;
  std::unique_ptr<CgroupThrottle> throttle_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<StoreAlertRepository> repo_;
  FakeClock clock_;
  Recorder notes_;
  std::unique_ptr<AlertService> alerts_;
  DetectionConfig cfg_;
  std::unique_ptr<RunEvaluator> evaluator_;
  std::vector<std::string> retests_;
  std::map<std::string, std::int64_t> automatic_;  // drive -> rebaseline_from asked by a verdict
  int retests_total_ = 0, runs_ = 0;
};

TEST_F(BoxShiftE2eTest, WholeBoxThrottledForGoodIsOneNoticeThenAbsorbed) {
  for (int w = 0; w < 7; ++w) Week(w);
  ASSERT_TRUE(All().empty()) << "an alert before any change";
  // The new "HBA driver": every member 20% slower, for good.
  for (int i = 0; i < kMembers; ++i) ASSERT_TRUE(Cap(i, kDriveBps * 8 / 10));
  int late_retests = 0;
  for (int w = 7; w < 19; ++w) {
    const int before = retests_total_;
    Week(w);
    if (w >= 15) late_retests += retests_total_ - before;
  }
  int environment = 0;
  for (const Alert& a : All()) {
    EXPECT_EQ(a.condition, "environment:box") << a.drive_id << ": " << a.summary;
    environment += a.condition == "environment:box";
  }
  EXPECT_EQ(environment, 1);
  EXPECT_EQ(notes_.Opened("environment:box"), 1);
  EXPECT_EQ(late_retests, 0) << "re-tests did not return to normal";
  for (int i = 0; i < kMembers; ++i) {
    auto marks = store_->ListRebaselines("loop-member-" + std::to_string(i), 0);
    ASSERT_TRUE(marks.ok());
    ASSERT_EQ(marks->size(), 1u) << "member " << i << ": baseline not re-formed";
    // The one mark is the automatic re-baseline a verdict asked for: its drive
    // and moment are the verdict's, not a mark made any other way.
    const std::string id = "loop-member-" + std::to_string(i);
    ASSERT_EQ(automatic_.count(id), 1u) << id << ": no verdict asked for its re-baseline";
    EXPECT_EQ((*marks)[0].at, automatic_.at(id)) << (*marks)[0].reason;
  }
}

TEST_F(BoxShiftE2eTest, HousekeepingPastTheRetestIsNeverNotified) {
  for (int w = 0; w < 7; ++w) Week(w);
  ASSERT_TRUE(All().empty()) << "an alert before any change";
  // Member 1 is 40% slower from its scheduled run through its re-test...
  ASSERT_TRUE(Cap(1, kDriveBps * 6 / 10));
  const std::int64_t t = 1'750'000'000 + 7 * kWeek;
  retests_.clear();
  for (int i = 0; i < kMembers; ++i) Measure(i, t + i * 1200, "schedule:weekly");
  ASSERT_EQ(retests_, std::vector<std::string>{"loop-member-1"});
  Measure(1, t + 6 * 3600, "confirm:0");
  // ...and back by the next scheduled run.
  ASSERT_TRUE(Cap(1, kDriveBps));
  for (int w = 8; w < 13; ++w) Week(w);
  EXPECT_TRUE(notes_.got.empty()) << notes_.got.front().alert.summary;
  for (const Alert& a : All()) {
    EXPECT_EQ(a.notify_count, 0) << a.summary;
    EXPECT_EQ(a.state, "resolved") << a.summary;
  }
}

}  // namespace
}  // namespace dp::testing
