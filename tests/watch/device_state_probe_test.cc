// The daemon's pre-run probe asks a pool's scrub state at admission time: a
// scrub that started after the last discovery defers the test (replayed
// `zpool status` captures of a real pool, before and during its scrub), one
// `zpool status` per pool answers for a minute, and where zpool cannot
// answer the last discovery's record stands.
#include "watch/device_state_probe.h"

#include <gtest/gtest.h>

#include <fstream>

#include "base/fake_clock.h"
#include "base/replay_command_runner.h"
#include "inventory/zpool_status_parser.h"
#include "sched/admission.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using testing::FixturePath;
using testing::ReadFile;

const std::vector<std::string> kStatusRoot = {"zpool", "status", "-s", "-p", "-P", "root"};

class DeviceStateProbeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open(dir_.Path("probe.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(store).value();
    // A plain file stands in for the member's node: it opens read-only and
    // has no I/O counters to watch.
    const std::string node = dir_.Path("member");
    std::ofstream(node) << std::string(4096, '\0');
    Drive d;
    d.id = "nvme-member";
    d.name = "nvme0n1";
    d.dev_path = node;
    d.transport = "file";
    ASSERT_TRUE(store_->UpsertDrive(d, 0).ok());
    // The last discovery saw the pool before its scrub (the first capture of
    // it, its members mapped to the drive).
    auto pools = ParseZpoolStatusText(
        ReadFile(FixturePath("zpool/linux-P-fullpath-nvme-mirror-scrub-start.txt")));
    ASSERT_TRUE(pools.ok()) << pools.status().ToString();
    ASSERT_EQ(pools->size(), 1u);
    before_ = pools->front();
    ASSERT_EQ(before_.name, "root");
    for (Vdev& v : before_.vdevs)
      for (PoolMember& m : v.members) m.drive_id = "nvme-member";
  }

  DeviceStateProbe MakeProbe(CommandRunner& runner) {
    DeviceStateProbeOptions opts;
    opts.read_smart = false;
    opts.clock = &clock_;
    return DeviceStateProbe(Config{}, runner, *store_, opener_, opts);
  }

  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
  PosixDeviceOpener opener_;
  FakeClock clock_;
  Pool before_;
};

TEST_F(DeviceStateProbeTest, ScrubStartedSinceDiscoveryDefersAtAdmission) {
  before_.scan = PoolScan{};  // discovery saw no scan running
  before_.scan.function = "scrub";
  before_.scan.state = "finished";
  ASSERT_TRUE(store_->RecordPools({before_}, 100).ok());
  ReplayCommandRunner zpool;
  zpool.AddOutput(kStatusRoot,
                  ReadFile(FixturePath("zpool/linux-P-fullpath-nvme-mirror-scrub-progress.txt")));
  DeviceStateProbe probe = MakeProbe(zpool);

  auto s = probe.Probe("nvme-member");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->pool_scan, "scrub");
  // Within the minute the answer is reused: one zpool call per pool.
  clock_.Advance(std::chrono::seconds(59));
  ASSERT_TRUE(probe.Probe("nvme-member").ok());
  EXPECT_EQ(zpool.calls().size(), 1u);
  // After it, zpool is asked again.
  clock_.Advance(std::chrono::seconds(2));
  ASSERT_TRUE(probe.Probe("nvme-member").ok());
  EXPECT_EQ(zpool.calls().size(), 2u);
}

// A scrub the last discovery saw, ended (here cancelled) since: the probe
// says so, and admission does not fall back on the stale record.
TEST_F(DeviceStateProbeTest, ScrubEndedSinceDiscoveryDefersNothing) {
  auto pools = ParseZpoolStatusText(
      ReadFile(FixturePath("zpool/linux-mirror-scrub-canceled.txt")));
  ASSERT_TRUE(pools.ok()) << pools.status().ToString();
  Pool seen = pools->front();
  ASSERT_EQ(seen.name, "neptune");
  ASSERT_NE(seen.scan.state, "in_progress");
  for (Vdev& v : seen.vdevs)
    for (PoolMember& m : v.members) m.drive_id = "nvme-member";
  const std::string canceled = ReadFile(FixturePath("zpool/linux-mirror-scrub-canceled.txt"));
  seen.scan.state = "in_progress";  // as discovery saw it, before the cancel
  ASSERT_TRUE(store_->RecordPools({seen}, 100).ok());
  ReplayCommandRunner zpool;
  zpool.AddOutput({"zpool", "status", "-s", "-p", "-P", "neptune"}, canceled);
  DeviceStateProbe probe = MakeProbe(zpool);
  auto s = probe.Probe("nvme-member");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->pool_scan, "");
  EXPECT_TRUE(s->pool_scan_current);

  Job job;
  job.test = "seq";
  job.drive_id = "nvme-member";
  job.pool = "neptune";
  Drive d;
  d.id = "nvme-member";
  d.present = true;
  SchedulerConfig config;
  // Only the scrub is under test: the stand-in file's busy share is its
  // filesystem's, which other tests running beside this one make busy.
  DriveState state = *s;
  state.busy_share = 0;
  const DeferDecision decision =
      Admit(job, {state}, {d}, {seen}, config, FromUnixSeconds(1'767'225'600));
  EXPECT_EQ(decision.action, DeferAction::kRun) << decision.reason;
}

TEST_F(DeviceStateProbeTest, ZpoolThatCannotAnswerLeavesTheDiscoveredState) {
  ASSERT_TRUE(store_->RecordPools({before_}, 100).ok());
  ASSERT_EQ(before_.scan.state, "in_progress");  // the capture is of the scrub's start
  ReplayCommandRunner nothing;  // every command: not found
  DeviceStateProbe probe = MakeProbe(nothing);
  auto s = probe.Probe("nvme-member");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->pool_scan, "scrub");
  EXPECT_FALSE(s->pool_scan_current);
  EXPECT_EQ(nothing.calls().size(), 1u);
}

}  // namespace
}  // namespace dp
