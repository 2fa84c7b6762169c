// ZfsSamplingTask on its own thread with a fake zpool replaying the
// fixtures (ZFS cannot run here) and a real store: nothing before discovery
// gave it pools, then samplings on its cadence that keep the histogram
// memory between them, verdicts handed over, each warning logged once, and
// a cadence of 0 never starting.
#include "watch/zfs_sampling_task.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "base/fake_clock.h"
#include "base/replay_command_runner.h"
#include "support/eventually.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using ::dp::testing::Eventually;
using ::dp::testing::FixturePath;
using ::dp::testing::ReadFile;
using namespace std::chrono_literals;

std::vector<std::string> Zpool(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"zpool"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

Pool Tank() {
  Pool p;
  p.name = "tank";
  p.state = "ONLINE";
  Vdev v;
  v.name = "raidz2-0";
  v.type = "raidz2";
  for (int i = 1; i <= 6; ++i) {
    PoolMember m;
    m.path = "/dev/disk/by-id/ata-WDC_WD80EFZZ-68BTXN0_WD-CA0AAAA" + std::to_string(i) + "-part1";
    m.drive_id = "wwn-" + std::to_string(i);
    v.members.push_back(m);
  }
  p.vdevs.push_back(v);
  return p;
}

class ZfsSamplingTaskTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::Open(dir_.Path("diskpulse.db"));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
    for (int i = 1; i <= 6; ++i) {
      Drive d;
      d.id = "wwn-" + std::to_string(i);
      d.name = "sd" + std::string(1, static_cast<char>('a' + i));
      ASSERT_TRUE(store_->UpsertDrive(d, 1).ok());
    }
    config_.tools.zpool = "zpool";
    runner_.AddOutput(
        Zpool(ZfsIostatArgs("tank")),
        ReadFile(FixturePath("zpool-iostat/reconstructed-raidz2-6disk-vlpPy-slog.txt")));
    runner_.AddOutput(Zpool(ZfsSlowStatusArgs("tank")), "", 2, "invalid option 's'\n");
    runner_.AddOutput(Zpool(ZfsSitOutArgs("tank")),
                      ReadFile(FixturePath("zpool-get/reconstructed-raidz2-sit-out-Hp.txt")));
    runner_.AddOutput(Zpool(ZfsHistogramArgs("tank")),
                      ReadFile(FixturePath(
                          "zpool-iostat/reconstructed-raidz2-6disk-w-vpP-cumulative-1.txt")));
    runner_.AddOutput(Zpool(ZfsHistogramArgs("tank")),
                      ReadFile(FixturePath(
                          "zpool-iostat/reconstructed-raidz2-6disk-w-vpP-cumulative-2.txt")));
  }

  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
  Config config_;
  ReplayCommandRunner runner_;
};

TEST_F(ZfsSamplingTaskTest, SamplesTheDiscoveredPoolsOnItsCadence) {
  FakeClock clock;
  std::mutex mu;
  std::vector<Verdict> seen;
  ZfsSamplingTask task(config_, runner_, *store_, clock, 20ms,
                       [&](const std::vector<Verdict>& v) {
                         std::lock_guard lock(mu);
                         seen.insert(seen.end(), v.begin(), v.end());
                         clock.Advance(1h);  // each sampling at its own time
                       });
  task.Start();
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(task.samplings(), 0);  // no pools from discovery yet
  EXPECT_TRUE(runner_.calls().empty());
  task.UpdatePools({Tank()});
  ASSERT_TRUE(Eventually([&] { return task.samplings() >= 3; }, 30s)) << task.samplings();
  task.Stop();
  const int done = task.samplings();
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(task.samplings(), done);  // stopped
  // The -s failure of this old zpool, logged once however many samplings.
  ASSERT_EQ(task.warnings_logged().size(), 1u);
  EXPECT_NE(task.warnings_logged()[0].find("invalid option 's'"), std::string::npos);
  {
    std::lock_guard lock(mu);
    bool sit = false;
    for (const auto& v : seen) sit = sit || (v.condition == "zfs:tank:sit_out" && v.Firing());
    EXPECT_TRUE(sit);
  }
  // The first sampling primed the histogram memory; later ones have an hour's waits.
  auto m3 = store_->ZfsLatencyOfDrive("wwn-3", 0);
  ASSERT_TRUE(m3.ok());
  ASSERT_GE(m3->size(), 3u);
  EXPECT_FALSE(m3->back().disk_wait_histogram);  // oldest
  ASSERT_TRUE((*m3)[m3->size() - 2].disk_wait_histogram);
  EXPECT_EQ((*m3)[m3->size() - 2].disk_wait_histogram->seconds, 3600);
}

TEST_F(ZfsSamplingTaskTest, ZeroMinutesNeverSamples) {
  FakeClock clock;
  ZfsSamplingTask task(config_, runner_, *store_, clock, 0ms);
  task.Start();
  task.UpdatePools({Tank()});
  std::this_thread::sleep_for(200ms);
  task.Stop();
  EXPECT_EQ(task.samplings(), 0);
  EXPECT_TRUE(runner_.calls().empty());
}

}  // namespace
}  // namespace dp
