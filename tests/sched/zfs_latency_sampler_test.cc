// SampleZfsLatency with a fake zpool that replays captures from
// tests/fixtures/zpool-iostat and tests/fixtures/zpool (ZFS cannot run
// here), a real store and the real alert service: a member far above its
// siblings in three samplings opens one "watch" alert, a rise of ZFS's SLOW
// counter opens another, a missing zpool gives no samples and no warnings.
#include "sched/zfs_latency_sampler.h"

#include <gtest/gtest.h>

#include "alert/alert_service.h"
#include "base/fake_clock.h"
#include "base/replay_command_runner.h"
#include "sched/store_alert_repository.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using ::dp::testing::FixturePath;
using ::dp::testing::ReadFile;

const char* const kPrefix = "/dev/disk/by-id/ata-WDC_WD80EFZZ-68BTXN0_WD-CA0AAAA";

class ZfsLatencySamplerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::Open(dir_.Path("diskpulse.db"));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
    config_.tools.zpool = "zpool";
  }

  // Pool "tank" as discovery maps it: raidz2-0 of the six WD80EFZZ members.
  Pool Tank() {
    Pool p;
    p.name = "tank";
    p.state = "ONLINE";
    Vdev v;
    v.name = "raidz2-0";
    v.type = "raidz2";
    v.role = "data";
    for (int i = 1; i <= 6; ++i) {
      PoolMember m;
      m.path = kPrefix + std::to_string(i) + "-part1";
      m.state = "ONLINE";
      m.drive_id = "wwn-" + std::to_string(i);
      Drive d;
      d.id = m.drive_id;
      d.name = "sd" + std::string(1, static_cast<char>('a' + i));
      EXPECT_TRUE(store_->UpsertDrive(d, 1).ok());
      v.members.push_back(m);
    }
    p.vdevs.push_back(v);
    return p;
  }

  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
  Config config_;
};

TEST_F(ZfsLatencySamplerTest, SlowMemberOpensOneWatchAlertAfterThreeSamplings) {
  ReplayCommandRunner runner;
  std::string iostat = ReadFile(FixturePath("zpool-iostat/reconstructed-raidz2-6disk-vlpPy-slog.txt"));
  std::vector<std::string> io = {"zpool"};
  for (const auto& a : ZfsIostatArgs("tank")) io.push_back(a);
  runner.AddOutput(io, iostat);
  std::vector<std::string> st = {"zpool"};
  for (const auto& a : ZfsSlowStatusArgs("tank")) st.push_back(a);
  // A zpool without -s (0.7): its usage error, exit 2.
  runner.AddOutput(st, "", 2, "invalid option 's'\nusage:\n");

  StoreAlertRepository repo(*store_);
  FakeClock clock;
  AlertService alerts(repo, nullptr, clock, AlertServiceOptions{});
  Pool tank = Tank();
  for (int pass = 1; pass <= 3; ++pass) {
    auto r = SampleZfsLatency(config_, runner, *store_, {tank}, 3600 * pass);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->samples.size(), 7u);  // six raidz2 members and the log
    ASSERT_EQ(r->warnings.size(), 1u);
    EXPECT_NE(r->warnings[0].find("exit status 2: invalid option 's'"), std::string::npos)
        << r->warnings[0];
    ASSERT_TRUE(alerts.OnVerdicts(r->verdicts).ok());
    auto open = store_->ListAlerts(AlertFilter{});
    ASSERT_TRUE(open.ok());
    if (pass < 3) {
      EXPECT_TRUE(open->empty()) << "pass " << pass << ": " << open->front().summary;
    } else {
      ASSERT_EQ(open->size(), 1u);
      const Alert& a = open->front();
      EXPECT_EQ(a.drive_id, "wwn-3");
      EXPECT_EQ(a.condition, "zfs:tank:latency");
      EXPECT_EQ(a.severity, "warning");
      // (46.8 ms x 40 reads + 31.0 ms x 15 writes) / 55 operations, against 8.42 ms.
      EXPECT_NE(a.summary.find("ZFS disk wait 42.5 ms, 5.0x its 5 vdev siblings' median 8.42 ms"),
                std::string::npos)
          << a.summary;
    }
  }
  auto mine = store_->ZfsLatencyOfDrive("wwn-3", 0);
  ASSERT_TRUE(mine.ok());
  ASSERT_EQ(mine->size(), 3u);
  EXPECT_DOUBLE_EQ(*(*mine)[0].disk_wait_read, 0.0468);
  EXPECT_EQ((*mine)[0].vdev, "raidz2-0");
  EXPECT_FALSE((*mine)[0].slow_ios);
  // The log device maps to no drive but is stored (it is a sibling of nobody).
  EXPECT_EQ(store_->ZfsLatencyOfVdev("tank", "raidz2-0", 1)->size(), 6u);
}

TEST_F(ZfsLatencySamplerTest, RiseOfTheSlowColumnOpensAnAlert) {
  // The real raidz1 capture for the waits, the OpenZFS test's SLOW counts for
  // its members (renamed to this pool's), rising between two samplings.
  ReplayCommandRunner runner;
  std::vector<std::string> io = {"zpool"};
  for (const auto& a : ZfsIostatArgs("teststore")) io.push_back(a);
  runner.AddOutput(io, ReadFile(FixturePath("zpool-iostat/linux-raidz1-5disk-vl-scrub-trim.txt")));
  std::string status = ReadFile(FixturePath("zpool/openzfs-test-raidz1-slow-ios-s.txt"));
  auto rename = [](std::string s, const std::string& from, const std::string& to) {
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
    return s;
  };
  status = rename(status, "slow_io_pool", "teststore");
  for (int i = 1; i <= 4; ++i) {
    status = rename(status, "/var/tmp/vdevfile" + std::to_string(i) + ".499278",
                    std::string("sd") + static_cast<char>('a' + i - 1) + "1");
  }
  std::vector<std::string> st = {"zpool"};
  for (const auto& a : ZfsSlowStatusArgs("teststore")) st.push_back(a);
  runner.AddOutput(st, status);
  runner.AddOutput(st, rename(status, "   96", "  101"));  // sdc1: 5 more

  Pool p;
  p.name = "teststore";
  Vdev v;
  v.name = "raidz1-0";
  for (const char* m : {"sda1", "sdb1", "sdc1", "sdd1", "sde1"}) {
    PoolMember pm;
    pm.path = m;
    pm.drive_id = std::string("wwn-") + m;
    Drive d;
    d.id = pm.drive_id;
    d.name = m;
    ASSERT_TRUE(store_->UpsertDrive(d, 1).ok());
    v.members.push_back(pm);
  }
  p.vdevs.push_back(v);
  StoreAlertRepository repo(*store_);
  FakeClock clock;
  AlertService alerts(repo, nullptr, clock, AlertServiceOptions{});
  for (std::int64_t at : {3600, 7200}) {
    auto r = SampleZfsLatency(config_, runner, *store_, {p}, at);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_TRUE(r->warnings.empty()) << r->warnings.front();
    EXPECT_EQ(r->samples.size(), 5u);
    ASSERT_TRUE(alerts.OnVerdicts(r->verdicts).ok());
  }
  auto open = store_->ListAlerts(AlertFilter{});
  ASSERT_TRUE(open.ok());
  ASSERT_EQ(open->size(), 1u);
  EXPECT_EQ(open->front().drive_id, "wwn-sdc1");
  EXPECT_EQ(open->front().condition, "zfs:teststore:slow_ios");
  EXPECT_NE(open->front().summary.find("5 new ZFS slow I/Os"), std::string::npos)
      << open->front().summary;
  auto sde = store_->ZfsLatencyOfDrive("wwn-sde1", 1);
  ASSERT_EQ(sde->size(), 1u);
  EXPECT_FALSE((*sde)[0].slow_ios);  // not in the status output
  EXPECT_DOUBLE_EQ(*(*sde)[0].disk_wait_write, 0.004);
}

TEST_F(ZfsLatencySamplerTest, NoZpoolNoSamplesNoWarnings) {
  ReplayCommandRunner runner;
  std::vector<std::string> io = {"zpool"};
  for (const auto& a : ZfsIostatArgs("tank")) io.push_back(a);
  runner.AddError(io, NotFound("zpool not found"));
  auto r = SampleZfsLatency(config_, runner, *store_, {Tank()}, 1);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->samples.empty());
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_TRUE(r->verdicts.empty());
  // md arrays, and a pool that resilvers, ask nothing.
  Pool md;
  md.name = "md0";
  md.kind = "md";
  Pool busy = Tank();
  busy.scan.function = "resilver";
  busy.scan.state = "in_progress";
  ReplayCommandRunner none;
  ASSERT_TRUE(SampleZfsLatency(config_, none, *store_, {md, busy}, 1).ok());
  EXPECT_TRUE(none.calls().empty());
}

TEST_F(ZfsLatencySamplerTest, GarbageAndTimeoutAreWarnings) {
  ReplayCommandRunner runner;
  std::vector<std::string> io = {"zpool"};
  for (const auto& a : ZfsIostatArgs("tank")) io.push_back(a);
  runner.AddOutput(io, "cannot open 'tank': no such pool\n");
  auto r = SampleZfsLatency(config_, runner, *store_, {Tank()}, 1);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_NE(r->warnings[0].find("zpool iostat tank: "), std::string::npos) << r->warnings[0];
  EXPECT_TRUE(r->samples.empty());
  ReplayCommandRunner slow;
  slow.AddError(io, Timeout("zpool iostat: killed after 60 s"));
  auto t = SampleZfsLatency(config_, slow, *store_, {Tank()}, 2);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->warnings.size(), 1u);
  EXPECT_NE(t->warnings[0].find("killed after 60 s"), std::string::npos);
}

}  // namespace
}  // namespace dp
