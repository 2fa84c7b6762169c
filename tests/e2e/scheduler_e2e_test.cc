// End-to-end: the real diskpulsed with a loop device as a config target and
// an @every schedule — discovery -> scheduler -> bench -> store -> detection
// -> alerts -> webhook — on a real kernel. The slowdown is made by a kernel
// read-bandwidth throttle (cgroup v1 blkio or v2 io.max) on the daemon at ~70%
// of the rate it measured.
//
// A loop device over a sparse file has no speed of its own: its reads are
// memory copies whose rate swings 50x with the machine's CPU load (measured
// here: 195 to 13000 MB/s in ten 1 s runs). So the "healthy drive" is the
// loop device read through a kernel cap of kDriveBps (a drive of known
// speed), and the slowdown is a tighter cap at 70% of what the daemon
// measured; "throttle removed" restores the healthy cap.
// Needs root, losetup and a kernel throttle (cgroup v1 blkio, or cgroup v2 with
// the io controller); skips otherwise.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

#include "base/command_capture.h"
#include "base/log.h"
#include "e2e/webhook_receiver_util.h"
#include "store/store.h"
#include "support/capability.h"
#include "support/cgroup_throttle.h"
#include "support/daemon_process.h"
#include "support/eventually.h"
#include "support/http_client.h"
#include "support/loop_daemon.h"
#include "support/loop_device.h"
#include "support/temp_dir.h"
#include "support/zpool_recording.h"

namespace dp::testing {
namespace {

using Steady = std::chrono::steady_clock;
using nlohmann::json;

double Seconds(Steady::time_point from) {
  return std::chrono::duration<double>(Steady::now() - from).count();
}


// The healthy drive's speed (see the top of the file). Low enough that the
// loop device reaches it even on a starved machine: the baseline is formed
// from the first runs, and runs slowed by CPU starvation (not by the cap)
// widen its band until a 30% drop no longer leaves it.
constexpr std::uint64_t kDriveBps = 50'000'000;

class SchedulerE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why = LoopDevice::Unavailable();
    if (!why.empty()) DP_SKIP_WITHOUT("loop devices", why);
    auto loop = LoopDevice::Create(256ULL << 20, /*direct_io=*/true);
    ASSERT_TRUE(loop.ok()) << loop.status().ToString();
    loop_ = std::move(loop).value();
  }

  // Puts this test process — and so the daemon it starts next, which
  // inherits its cgroup — behind the healthy-drive cap, so the very first
  // run already sees it. The cgroup's destructor moves the test back.
  bool CapDrive() {
    std::string why = CgroupThrottle::Unavailable();
    if (!why.empty()) return false;
    auto cg = CgroupThrottle::Create();
    if (!cg.ok()) return false;
    throttle_ = std::move(cg).value();
    return throttle_->SetReadBps(loop_->major(), loop_->minor(), kDriveBps).ok() &&
           throttle_->AddProcess(::getpid()).ok();
  }

  // A daemon config: the loop device as target "bench-a", a `seq` schedule
  // every `every`, small budgets, fast detection and retries.
  json Patch(const std::string& every, json alerts = json::object()) const {
    // Runs seconds apart: a slowdown cannot outlast the hours a watch waits
    // for (persist_before_notify_hours; box_shift_e2e_test holds the watch),
    // so it is notified at once here.
    json a = {{"resolve_after_clear_runs", 2},
              {"persist_before_notify_hours", 0},
              {"detection", {{"baseline_runs", 8}, {"retest_delay_minutes", 0}}}};
    a.merge_patch(alerts);
    LoopTargetOptions o;
    o.every = every;
    json patch = LoopTargetConfig(*loop_, o);
    patch["alerts"] = a;
    return patch;
  }

  Status StartDaemon(const json& patch) {
    auto d = DaemonProcess::Start(dir_, patch);
    if (!d.ok()) return d.status();
    daemon_ = std::move(d).value();
    auto store = Store::Open(dir_.Path("var/diskpulse.db"));
    if (!store.ok()) return store.status();
    store_ = std::move(store).value();
    auto id = WaitForDrive(*store_, "bench-a");
    if (!id.ok()) return NotFound(id.status().message() + ":\n" + daemon_->Output());
    drive_id_ = *id;
    return Status::Ok();
  }

  std::vector<dp::Run> SeqRuns() const {
    if (!store_ || drive_id_.empty()) return {};  // the daemon never started
    RunFilter f;
    f.drive_id = drive_id_;
    f.test = "seq";
    f.limit = 0;
    auto runs = store_->ListRuns(f);
    return runs.ok() ? *runs : std::vector<dp::Run>{};
  }

  std::vector<dp::Run> OkRuns() const {
    std::vector<dp::Run> out;
    for (const auto& r : SeqRuns())
      if (r.outcome == RunOutcome::kOk && !r.contended && !r.partial) out.push_back(r);
    std::reverse(out.begin(), out.end());  // oldest first
    return out;
  }

  double RateOf(const dp::Run& r) const {
    if (!store_) return 0;
    auto points = store_->RunPoints(r.id);
    if (!points.ok() || points->empty()) return 0;
    return points->front().mb_per_s;
  }

  std::vector<Alert> AlertsOf(const std::string& state) const {
    if (!store_) return {};
    AlertFilter f;
    f.state = state;
    f.drive_id = drive_id_;
    f.limit = 0;
    auto a = store_->ListAlerts(f);
    return a.ok() ? *a : std::vector<Alert>{};
  }

  std::string Dump() const {
    std::string s;
    for (const auto& r : SeqRuns())
      s += "run " + std::to_string(r.id) + " " + r.trigger + " " +
           std::string(RunOutcomeName(r.outcome)) + " " + r.reason +
           (r.contended ? " contended" : "") + " " + std::to_string(RateOf(r)) + " MB/s\n";
    return s + "--- daemon output (tail) ---\n" +
           (daemon_ ? daemon_->Output().substr(
                          daemon_->Output().size() > 6000 ? daemon_->Output().size() - 6000 : 0)
                    : "");
  }

  TempDir dir_;
  std::unique_ptr<LoopDevice> loop_;
  // Declared before the daemon, so the daemon is killed before the cgroup
  // it sits in is removed, and the loop device is detached last.
  std::unique_ptr<CgroupThrottle> throttle_;
  std::unique_ptr<DaemonProcess> daemon_;
  std::unique_ptr<Store> store_;
  std::string drive_id_;
};

// a. Baseline, then a throttle at ~70% of the measured rate: a slowdown alert
// is stored, listed by the API and posted to the webhook; a 500-answering and
// an unreachable webhook are logged and retried without harm. Throttle off:
// the alert resolves after resolve_after_clear_runs clear runs.
TEST_F(SchedulerE2eTest, ThrottledDriveRaisesSlowdownAlertThatResolves) {
  std::string why = CgroupThrottle::Unavailable();
  if (!why.empty()) DP_SKIP_WITHOUT("cgroup io throttle", why);

  WebhookReceiver good(200), broken(500);
  json hooks = json::array({
      {{"name", "hook-good"}, {"url", good.url()}, {"max_attempts", 1}, {"timeout_seconds", 3}},
      {{"name", "hook-500"}, {"url", broken.url()}, {"max_attempts", 2},
       {"retry_initial_seconds", 1}, {"timeout_seconds", 3}},
      {{"name", "hook-down"}, {"url", "http://127.0.0.1:1/nothing"}, {"max_attempts", 2},
       {"retry_initial_seconds", 1}, {"timeout_seconds", 2}},
  });
  ASSERT_TRUE(CapDrive()) << "cannot cap the drive with a kernel throttle";
  ASSERT_TRUE(StartDaemon(Patch("@every 2s", {{"webhooks", hooks}})).ok()) << Dump();

  // Baseline: 8 good runs (the pair band is a Student-t prediction band at
  // 4.5 sigmas: from 3 runs it could not tell even a 30% drop), plus one judged.
  ASSERT_TRUE(Eventually([&] { return OkRuns().size() >= 9; }, std::chrono::seconds(90))) << Dump();
  std::vector<double> rates;
  for (const auto& r : OkRuns()) rates.push_back(RateOf(r));
  std::sort(rates.begin(), rates.end());
  const double rate = rates[rates.size() / 2];
  ASSERT_GT(rate, 0) << Dump();
  EXPECT_TRUE(AlertsOf("").empty()) << "alert before any throttle:\n" << Dump();

  const std::uint64_t bps = static_cast<std::uint64_t>(rate * 1e6 * 0.7);
  ASSERT_TRUE(throttle_->SetReadBps(loop_->major(), loop_->minor(), bps).ok());
  const auto throttled_at = Steady::now();
  const std::size_t runs_before = OkRuns().size();

  std::optional<Alert> alert;
  ASSERT_TRUE(Eventually(
      [&] {
        for (const auto& a : AlertsOf("active"))
          if (a.condition == "slowdown:drive") alert = a;
        return alert.has_value();
      },
      std::chrono::seconds(60)))
      << Dump();
  const double to_alert = Seconds(throttled_at);
  const std::size_t runs_to_alert = OkRuns().size() - runs_before;
  EXPECT_LE(runs_to_alert, 3u) << Dump();
  EXPECT_NE(alert->summary.find("bench-a"), std::string::npos) << alert->summary;
  double slow_rate = RateOf(OkRuns().back());

  // The webhook got it; the API lists it.
  EXPECT_TRUE(good.WaitFor("\"opened\"", std::chrono::seconds(10)));
  auto api = HttpGet(daemon_->port(), "/api/v1/alerts");
  if (api.status == 200) {
    EXPECT_NE(api.body.find(alert->condition), std::string::npos) << api.body;
  }

  // Throttle off (back to the healthy drive): resolves after 2 clear runs.
  ASSERT_TRUE(throttle_->SetReadBps(loop_->major(), loop_->minor(), kDriveBps).ok());
  const auto released_at = Steady::now();
  ASSERT_TRUE(Eventually(
      [&] {
        auto a = store_->GetAlert(alert->id);
        return a.ok() && *a && (*a)->state == "resolved";
      },
      std::chrono::seconds(60)))
      << Dump();
  const double to_resolve = Seconds(released_at);
  EXPECT_TRUE(good.WaitFor("\"resolved\"", std::chrono::seconds(10)));

  // The broken sinks were tried, failed, logged; the daemon is fine.
  EXPECT_TRUE(Eventually([&] { return !broken.bodies().empty(); }, std::chrono::seconds(10)));
  EXPECT_TRUE(daemon_->WaitForOutput("hook-500", std::chrono::seconds(10))) << Dump();
  EXPECT_TRUE(daemon_->WaitForOutput("hook-down", std::chrono::seconds(10))) << Dump();
  EXPECT_TRUE(daemon_->Running());
  EXPECT_EQ(HttpGet(daemon_->port(), "/api/v1/health").status, 200);

  std::cout << "[figures] healthy cap " << kDriveBps / 1e6 << " MB/s, measured " << rate
            << " MB/s; throttle " << bps / 1e6
            << " MB/s (70%); throttled run " << slow_rate << " MB/s; alert after " << to_alert
            << " s (" << runs_to_alert << " runs incl. confirmation); resolved after "
            << to_resolve << " s\n";
  RecordProperty("measured_mb_per_s", std::to_string(rate));
  RecordProperty("seconds_to_alert", std::to_string(to_alert));
  RecordProperty("seconds_to_resolve", std::to_string(to_resolve));
}

// b. Steady state: no alert across the same number of runs.
TEST_F(SchedulerE2eTest, SteadyDriveRaisesNoAlert) {
  std::string why = CgroupThrottle::Unavailable();
  if (!why.empty())
    DP_SKIP_WITHOUT("cgroup io throttle", "no kernel throttle (no drive of known speed): " << why);
  ASSERT_TRUE(CapDrive()) << "cannot cap the drive with a kernel throttle";
  ASSERT_TRUE(StartDaemon(Patch("@every 2s")).ok()) << Dump();
  ASSERT_TRUE(Eventually([&] { return OkRuns().size() >= 12; }, std::chrono::seconds(90)))
      << Dump();
  // Doubts (a confirmation re-test) may happen on noise; alerts must not.
  EXPECT_TRUE(AlertsOf("").empty()) << Dump();
}

// c. Foreign reads on the device: the scheduled run is deferred "busy", and
// runs once the reader stops.
TEST_F(SchedulerE2eTest, BusyDriveIsDeferredThenRuns) {
  std::atomic<bool> stop{false};
  int fd = ::open(loop_->path().c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  std::thread reader([&] {
    void* buf = nullptr;
    if (::posix_memalign(&buf, 4096, 1 << 20) != 0) return;
    std::uint64_t off = 0;
    while (!stop) {
      if (::pread(fd, buf, 1 << 20, static_cast<off_t>(off)) <= 0) off = 0;
      off = (off + (1 << 20)) % (256ULL << 20);
    }
    std::free(buf);
  });
  struct Join {
    std::atomic<bool>& stop;
    std::thread& t;
    int fd;
    ~Join() {
      stop = true;
      if (t.joinable()) t.join();
      ::close(fd);
    }
  } join{stop, reader, fd};

  ASSERT_TRUE(StartDaemon(Patch("@every 2s")).ok()) << Dump();
  std::optional<dp::Run> deferred;
  ASSERT_TRUE(Eventually(
      [&] {
        for (const auto& r : SeqRuns())
          if (r.outcome == RunOutcome::kDeferred && r.reason == "busy") deferred = r;
        return deferred.has_value();
      },
      std::chrono::seconds(30)))
      << Dump();
  EXPECT_TRUE(OkRuns().empty()) << "a run went ahead on a busy drive\n" << Dump();
  EXPECT_TRUE(daemon_->WaitForOutput("busy", std::chrono::seconds(5)));

  stop = true;
  reader.join();
  ASSERT_TRUE(Eventually(
      [&] {
        auto r = store_->GetRun(deferred->id);
        return r.ok() && *r && (*r)->outcome == RunOutcome::kOk;
      },
      std::chrono::seconds(30)))
      << Dump();
}

// c. A pool scrubbing (a replayed `zpool status`) with the loop device as its
// member: the scheduled run is deferred with reason "scrub".
TEST_F(SchedulerE2eTest, ScrubbingPoolIsDeferredWithReasonScrub) {
  const std::string rec = dir_.Path("recording");
  const std::string status =
      "  pool: scratch\n"
      " state: ONLINE\n"
      "  scan: scrub in progress since Sun Nov 30 01:00:00 2025\n"
      "\t1.50G / 12.0G scanned at 1.2G/s, 1.50G / 12.0G issued at 1.2G/s\n"
      "\t0B repaired, 12.50% done, 00:02:30 to go\n"
      "config:\n"
      "\n"
      "\tNAME            STATE     READ WRITE CKSUM\n"
      "\tscratch         ONLINE       0     0     0\n"
      "\t  " + loop_->path() + "      ONLINE       0     0     0\n"
      "\n"
      "errors: No known data errors\n";
  ASSERT_TRUE(WriteZpoolRecording(rec, {status}).ok());

  json patch = Patch("@every 2s");
  patch["replay_dir"] = rec;
  patch["tools"] = {{"zpool", "zpool"}, {"smartctl", "smartctl"}};  // answered by the recording
  ASSERT_TRUE(StartDaemon(patch).ok()) << Dump();
  std::optional<dp::Run> deferred;
  ASSERT_TRUE(Eventually(
      [&] {
        for (const auto& r : SeqRuns())
          if (r.outcome == RunOutcome::kDeferred && r.reason == "scrub") deferred = r;
        return deferred.has_value();
      },
      std::chrono::seconds(30)))
      << Dump();
  EXPECT_TRUE(OkRuns().empty()) << "a run went ahead on a scrubbing pool\n" << Dump();
  EXPECT_TRUE(daemon_->Running());
}

// d. The drive vanishes between scheduling and running: the run is recorded
// skipped or failed with its reason, and the daemon carries on.
TEST_F(SchedulerE2eTest, VanishedDriveIsRecordedNotFatal) {
  ASSERT_TRUE(StartDaemon(Patch("@every 2s")).ok()) << Dump();
  ASSERT_TRUE(Eventually([&] { return !OkRuns().empty(); }, std::chrono::seconds(30))) << Dump();
  const std::int64_t last_ok = OkRuns().back().id;
  ASSERT_TRUE(loop_->Detach().ok());
  std::optional<dp::Run> gone;
  ASSERT_TRUE(Eventually(
      [&] {
        for (const auto& r : SeqRuns())
          if (r.id > last_ok &&
              (r.outcome == RunOutcome::kSkipped || r.outcome == RunOutcome::kFailed))
            gone = r;
        return gone.has_value();
      },
      std::chrono::seconds(30)))
      << Dump();
  EXPECT_FALSE(gone->reason.empty());
  if (gone->outcome == RunOutcome::kSkipped) {
    EXPECT_EQ(gone->reason, "missing") << Dump();
  }
  EXPECT_TRUE(daemon_->Running()) << Dump();
  EXPECT_EQ(HttpGet(daemon_->port(), "/api/v1/health").status, 200);
  std::cout << "[vanished] run " << gone->id << " " << RunOutcomeName(gone->outcome) << ": "
            << gone->reason << "\n";
}

}  // namespace
}  // namespace dp::testing
