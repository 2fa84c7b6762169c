// End-to-end on a real block device: a loop device over a file in /dev/shm,
// read by the bench's seq test through a kernel read-bandwidth throttle
// (cgroup v2 io.max or v1 blkio) at 200 MB/s, every run stored in SQLite
// and judged by RunEvaluator, alerts applied by AlertService. The weeks are
// the runs' timestamps (a fake clock); the reads are real.
// The throttle drops to 120 MB/s (-40%) landing on the 3rd, 5th or 7th run,
// while the baseline is still forming or has just formed: the drop must be
// told (a re-test asked, then a slowdown alert), not learnt as the new
// install's noise (baseline.h, "A step among the first runs").
// Needs root, losetup and a kernel throttle: skips naming what is missing,
// and fails instead when CI=true.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
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

constexpr std::uint64_t kDeviceBytes = 128ULL << 20;  // in RAM: small
constexpr std::uint64_t kHealthyBps = 200'000'000;
constexpr std::uint64_t kSlowBps = 120'000'000;
constexpr std::int64_t kWeek = 7 * 86400;
constexpr std::int64_t kT0 = 1'750'000'000;
const char* const kDrive = "loop-young";

struct Recorder : Notifier {
  std::vector<Notification> got;
  void Submit(const Notification& n) override { got.push_back(n); }
};

class YoungStepE2eTest : public ::testing::TestWithParam<int> {
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
    // tmpfs has no O_DIRECT, so the loop device reads its file buffered;
    // the bench still opens the device O_DIRECT, and the throttle sets the
    // speed.
    auto loop = LoopDevice::Create(kDeviceBytes, /*direct_io=*/false, "/dev/shm");
    ASSERT_TRUE(loop.ok()) << loop.status().ToString();
    loop_ = std::move(loop).value();
    // Written through, so the device reads data: never-written blocks read
    // as zeros, and a device not known to be rotational reading zeros is an
    // SSD's unwritten region, never evidence (bench/unwritten_region.h).
    const std::string block(1 << 20, '\x5a');
    for (std::uint64_t off = 0; off < kDeviceBytes; off += block.size())
      ASSERT_TRUE(loop_->WriteBacking(off, block).ok());
    ASSERT_TRUE(Cap(kHealthyBps));
    auto s = Store::Open(dir_.Path("diskpulse.db"));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
    Drive d;
    d.id = kDrive;
    d.name = "young";
    d.dev_path = loop_->path();
    d.model = "LOOP-200MBS";
    ASSERT_TRUE(store_->UpsertDrive(d, 1000).ok());
    repo_ = std::make_unique<StoreAlertRepository>(*store_);
    alerts_ = std::make_unique<AlertService>(*repo_, &notes_, clock_, AlertServiceOptions{});
    evaluator_ = std::make_unique<RunEvaluator>(
        *store_, alerts_.get(), cfg_,
        [this](const std::string&, const std::string&, std::int64_t) { ++retests_asked_; });
  }

  bool Cap(std::uint64_t bps) {
    return throttle_->SetReadBps(loop_->major(), loop_->minor(), bps).ok();
  }

  // One seq run at `at`: real reads (2.5 s: a shorter run carries the
  // throttle's first burst, 200-215 MB/s at a 200 MB/s cap), stored, judged; the
  // verdicts' kinds.
  std::vector<VerdictKind> Measure(std::int64_t at, const std::string& trigger) {
    BenchOptions o;
    o.tests = {BenchTest::kSeq};
    o.seconds = 2.5;
    o.idle_check_seconds = 0;
    SystemClock wall;
    auto dev = BlockDevice::Open(loop_->path());
    EXPECT_TRUE(dev.ok()) << dev.status().ToString();
    if (!dev.ok()) return {};
    DeviceTarget target(std::move(dev).value(), o.engine, wall);
    auto report = RunReadTests(target, o, nullptr, nullptr);
    EXPECT_TRUE(report.ok()) << report.status().ToString();
    if (!report.ok()) return {};
    dp::Run r;
    r.drive_id = kDrive;
    r.test = "seq";
    r.trigger = trigger;
    r.started_at = at;
    r.ended_at = at + 1;
    r.outcome = RunOutcome::kOk;
    auto id = store_->InsertRun(r);
    EXPECT_TRUE(id.ok());
    r.id = *id;
    EXPECT_TRUE(store_->AddMeasurements(r.id, report->results).ok());
    clock_.Set(FromUnixSeconds(at + 1));
    auto verdicts = evaluator_->Evaluate(r);
    EXPECT_TRUE(verdicts.ok());
    std::vector<VerdictKind> kinds;
    if (!verdicts.ok()) return kinds;
    char line[512];
    for (const Verdict& v : *verdicts) {
      kinds.push_back(v.kind);
      std::snprintf(line, sizeof line, "\n  %s %.1f MB/s: %s: %s", trigger.c_str(),
                    report->results.empty() ? 0.0 : report->results.front().mb_per_s,
                    std::string(VerdictKindName(v.kind)).c_str(), v.summary.c_str());
      trace_ += line;
    }
    return kinds;
  }

  // A scheduled week's run and, when it asked for one, its re-test six
  // hours later; the kinds of both.
  std::vector<VerdictKind> Week(int week) {
    const std::int64_t t = kT0 + week * kWeek;
    const int asked = retests_asked_;
    std::vector<VerdictKind> kinds = Measure(t, "schedule:weekly");
    if (retests_asked_ > asked) {
      const std::vector<VerdictKind> again = Measure(t + 6 * 3600, "confirm:0");
      kinds.insert(kinds.end(), again.begin(), again.end());
    }
    return kinds;
  }

  std::vector<Alert> Slowdowns() {
    AlertFilter f;
    f.limit = 0;
    auto all = store_->ListAlerts(f);
    EXPECT_TRUE(all.ok());
    std::vector<Alert> out;
    if (all.ok())
      for (const Alert& a : *all)
        if (a.condition.rfind("slowdown", 0) == 0) out.push_back(a);
    return out;
  }

  TempDir dir_;
  // Declared first so they go last: the device detaches after the cgroup
  // is removed (both also when a test fails).
  std::unique_ptr<LoopDevice> loop_;
  std::unique_ptr<CgroupThrottle> throttle_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<StoreAlertRepository> repo_;
  FakeClock clock_;
  Recorder notes_;
  std::unique_ptr<AlertService> alerts_;
  DetectionConfig cfg_;
  std::unique_ptr<RunEvaluator> evaluator_;
  int retests_asked_ = 0;
  std::string trace_;
};

TEST_P(YoungStepE2eTest, ADropAmongTheFirstRunsIsTold) {
  const int step = GetParam();  // the first run at 120 MB/s (1-based)
  for (int w = 0; w < step - 1; ++w) Week(w);
  ASSERT_EQ(retests_asked_, 0) << "a re-test before the drop:" << trace_;
  ASSERT_TRUE(Slowdowns().empty()) << "an alert before the drop:" << trace_;
  ASSERT_TRUE(Cap(kSlowBps));
  bool doubted = false, slowdown = false;
  // Five scheduled weeks after the drop, each with the re-test it asks for.
  for (int w = step - 1; w < step + 4 && !slowdown; ++w) {
    for (VerdictKind k : Week(w)) {
      doubted = doubted || k == VerdictKind::kNeedsConfirmation;
      slowdown = slowdown || k == VerdictKind::kSlowdown;
    }
  }
  EXPECT_TRUE(doubted) << "no doubt after the drop:" << trace_;
  EXPECT_TRUE(slowdown) << "no slowdown after the drop:" << trace_;
  EXPECT_FALSE(Slowdowns().empty()) << "no slowdown alert opened:" << trace_;
}

INSTANTIATE_TEST_SUITE_P(ThirdFifthSeventhRun, YoungStepE2eTest, ::testing::Values(3, 5, 7),
                         [](const auto& info) { return "Run" + std::to_string(info.param); });

}  // namespace
}  // namespace dp::testing
