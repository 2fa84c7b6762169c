// End-to-end: a foreign reader of a different shape than the bench — random
// 64 KiB reads at queue depth 4 (fio) against the daemon's sequential 1 MiB
// reads — on the same real loop device during scheduled runs. Whether the
// scheduler defers the run (busy) or it runs and the guard flags it
// (contended), it is never evidence: no uncontended run, no alert, no
// baseline. Once the reader stops, runs are clean again (so the guard is not
// simply always on). Needs root, losetup, fio; the throttled variant cgroup v1.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <thread>

#include "store/store.h"
#include "support/capability.h"
#include "support/cgroup_throttle.h"
#include "support/daemon_process.h"
#include "support/foreign_load.h"
#include "support/http_client.h"
#include "support/loop_daemon.h"
#include "support/loop_device.h"
#include "support/temp_dir.h"

namespace dp::testing {
namespace {

using nlohmann::json;
using Steady = std::chrono::steady_clock;

template <typename F>
bool Within(std::chrono::seconds timeout, F probe) {
  const auto deadline = Steady::now() + timeout;
  while (Steady::now() < deadline) {
    if (probe()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  return probe();
}

class ContentionE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why = LoopDevice::Unavailable();
    if (!why.empty()) DP_SKIP_WITHOUT("loop devices", why);
    why = ForeignLoad::Unavailable();
    if (!why.empty()) DP_SKIP_WITHOUT("fio", why);
    auto loop = LoopDevice::Create(256ULL << 20, /*direct_io=*/true);
    ASSERT_TRUE(loop.ok()) << loop.status().ToString();
    loop_ = std::move(loop).value();
  }

  // The daemon: the loop device as target "bench-a", a seq run every 2 s,
  // baseline after 3 good runs; `busy_above` is the scheduler's deferral bar.
  json Patch(double busy_above) const {
    LoopTargetOptions o;
    o.busy_above = busy_above;
    json patch = LoopTargetConfig(*loop_, o);
    patch["log_level"] = "debug";  // the dump on failure says why each run was deferred
    patch["alerts"] = {{"resolve_after_clear_runs", 2}, {"detection", {{"baseline_runs", 3}}}};
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
    if (!store_ || drive_id_.empty()) return {};
    RunFilter f;
    f.drive_id = drive_id_;
    f.test = "seq";
    f.limit = 0;
    auto runs = store_->ListRuns(f);
    return runs.ok() ? *runs : std::vector<dp::Run>{};
  }
  // Runs that ended (not queued, deferred or running) after run `after`.
  std::vector<dp::Run> Ended(std::int64_t after = 0) const {
    std::vector<dp::Run> out;
    for (const auto& r : SeqRuns())
      if (r.id > after && r.outcome != RunOutcome::kQueued &&
          r.outcome != RunOutcome::kDeferred && r.outcome != RunOutcome::kRunning)
        out.push_back(r);
    return out;
  }
  static bool Evidence(const dp::Run& r) {
    return r.outcome == RunOutcome::kOk && !r.contended && !r.partial;
  }
  std::size_t AlertCount() const {
    AlertFilter f;
    f.drive_id = drive_id_;
    f.limit = 0;
    auto a = store_ ? store_->ListAlerts(f) : Result<std::vector<Alert>>(std::vector<Alert>{});
    return a.ok() ? a->size() : 0;
  }
  // The seq baseline as the API shows it: runs in it (0 when none; -1 and
  // the answer in `why` when the API does not say).
  int BaselineRuns(std::string& why) const {
    auto r = HttpGet(daemon_->port(), "/api/v1/drives/bench-a/history?test=seq&metric=mb_per_s");
    why = std::to_string(r.status) + " " + r.error + " " + r.body;
    if (r.status != 200) return -1;
    auto j = json::parse(r.body, nullptr, false);
    if (j.is_discarded() || !j.contains("series")) return -1;
    int most = 0;
    for (const auto& s : j["series"])
      if (s.contains("baseline") && s["baseline"].is_object())
        most = std::max(most, s["baseline"].value("runs", 0));
    return most;
  }
  std::string Dump() const {
    std::string s;
    for (const auto& r : SeqRuns())
      s += "run " + std::to_string(r.id) + " " + std::string(RunOutcomeName(r.outcome)) + " " +
           r.reason + (r.contended ? " contended" : "") + "\n";
    const std::string out = daemon_ ? daemon_->Output() : "";
    return s + "--- daemon output (tail) ---\n" + out.substr(out.size() > 5000 ? out.size() - 5000 : 0);
  }

  // While the reader runs: `runs` runs end contended or are deferred, and
  // for `hold` more seconds none is evidence; then it stops and a clean run
  // follows.
  void ExpectNeverEvidenceThenClean(std::size_t runs, std::chrono::seconds hold) {
    std::size_t deferred = 0, contended = 0;
    ASSERT_TRUE(Within(std::chrono::seconds(90), [&] {
      deferred = contended = 0;
      for (const auto& r : SeqRuns()) {
        if (r.outcome == RunOutcome::kDeferred && r.reason == "busy") ++deferred;
        if (r.outcome == RunOutcome::kOk && r.contended) ++contended;
      }
      return deferred + contended >= runs;
    })) << Dump();
    std::this_thread::sleep_for(hold);
    for (const auto& r : Ended())
      EXPECT_FALSE(Evidence(r)) << "run " << r.id << " counted as evidence under foreign I/O\n"
                                << Dump();
    EXPECT_EQ(AlertCount(), 0u) << Dump();
    std::string api;
    EXPECT_EQ(BaselineRuns(api), 0) << api << "\n" << Dump();
    for (const auto& r : Ended()) {
      if (r.contended) {
        EXPECT_NE(r.reason.find("contended"), std::string::npos) << r.reason;
      }
    }

    load_->Stop();
    const std::int64_t last = SeqRuns().empty() ? 0 : SeqRuns().front().id;
    ASSERT_TRUE(Within(std::chrono::seconds(60), [&] {
      for (const auto& r : SeqRuns())
        if (Evidence(r)) return true;
      return false;
    })) << "no clean run after the reader stopped\n"
        << Dump();
    std::cout << "[figures] under random 64K QD4: " << deferred << " deferred busy, "
              << contended << " ran contended; clean after it stopped (last run before: " << last
              << ")\n";
  }

  TempDir dir_;
  std::unique_ptr<LoopDevice> loop_;
  std::unique_ptr<ForeignLoad> load_;  // stopped before the device is detached
  std::unique_ptr<CgroupThrottle> throttle_;
  std::unique_ptr<DaemonProcess> daemon_;  // killed before its cgroup goes
  std::unique_ptr<Store> store_;
  std::string drive_id_;
};

// The scheduler's own deferral left on (default bar, 10%): the reader keeps
// the device busy, so runs are deferred "busy" — or, where one slips through
// between the probe and the bench, the bench marks it contended.
TEST_F(ContentionE2eTest, ForeignRandomReaderDefersOrContendsScheduledRuns) {
  auto load = ForeignLoad::Start(loop_->path(), LoadShape::kRandom64KQd4);
  ASSERT_TRUE(load.ok()) << load.status().ToString();
  load_ = std::move(load).value();
  ASSERT_TRUE(load_->WaitForCounters(loop_->MajMin()));
  ASSERT_TRUE(StartDaemon(Patch(0.10)).ok()) << Dump();
  ExpectNeverEvidenceThenClean(1, std::chrono::seconds(8));
}

// Deferral off (busy_above 1): every run goes ahead, through a 50 MB/s cgroup
// cap on the daemon (a drive of known speed), while fio — outside the cgroup —
// reads 64 KiB at 150 a second: a fifth of the bytes, most of the requests.
// The bench's own guard (its idle check and the per-point accounting) must
// mark every one of them contended.
TEST_F(ContentionE2eTest, ForeignRandomReaderMakesEveryRunContendedWhenNotDeferred) {
  std::string why = CgroupThrottle::Unavailable();
  if (!why.empty()) DP_SKIP_WITHOUT("cgroup io throttle", "cgroup v1 blkio unavailable: " << why);
  auto load = ForeignLoad::Start(loop_->path(), LoadShape::kRandom64KQd4, 150);
  ASSERT_TRUE(load.ok()) << load.status().ToString();
  load_ = std::move(load).value();
  ASSERT_TRUE(load_->WaitForCounters(loop_->MajMin()));
  // fio started first, so only this process (and the daemon it starts) is capped.
  auto cg = CgroupThrottle::Create();
  ASSERT_TRUE(cg.ok()) << cg.status().ToString();
  throttle_ = std::move(cg).value();
  ASSERT_TRUE(throttle_->SetReadBps(loop_->major(), loop_->minor(), 50'000'000).ok());
  ASSERT_TRUE(throttle_->AddProcess(::getpid()).ok());
  ASSERT_TRUE(StartDaemon(Patch(1.0)).ok()) << Dump();
  ExpectNeverEvidenceThenClean(3, std::chrono::seconds(2));
}

}  // namespace
}  // namespace dp::testing
