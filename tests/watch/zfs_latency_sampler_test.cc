// SampleZfsLatency with a fake zpool that replays captures from
// tests/fixtures/zpool-iostat and tests/fixtures/zpool (ZFS cannot run
// here), a real store and the real alert service: a member far above its
// siblings in three samplings opens one "watch" alert, a rise of ZFS's SLOW
// counter opens another, a missing zpool gives no samples and no warnings;
// a member OpenZFS 2.4 sits out opens a third, a zpool without sit_out says
// nothing about it, and the disk wait histograms stored are the difference
// between two samplings' cumulative counts.
#include "watch/zfs_latency_sampler.h"

#include <gtest/gtest.h>

#include "alert/alert_service.h"
#include "base/fake_clock.h"
#include "base/recording_command_runner.h"
#include "base/replay_command_runner.h"
#include "model/zfs_latency.h"
#include "runs/store_alert_repository.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using ::dp::testing::FixturePath;
using ::dp::testing::ReadFile;

const char* const kPrefix = "/dev/disk/by-id/ata-WDC_WD80EFZZ-68BTXN0_WD-CA0AAAA";

std::vector<std::string> Zpool(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"zpool"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

const char* const kHistogram1 = "zpool-iostat/reconstructed-raidz2-6disk-w-vpP-cumulative-1.txt";
const char* const kHistogram2 = "zpool-iostat/reconstructed-raidz2-6disk-w-vpP-cumulative-2.txt";

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
  runner.AddOutput(Zpool(ZfsHistogramArgs("tank")), ReadFile(FixturePath(kHistogram1)));
  // ... nor vdev properties: unknown, and no warning.
  runner.AddOutput(Zpool(ZfsSitOutArgs("tank")), "", 2,
                   "bad property list: invalid property 'sit_out'\nusage:\n");

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
  // OpenZFS before 2.2 takes all-vdevs for a pool name.
  runner.AddOutput(Zpool(ZfsSitOutArgs("teststore")), "", 1,
                   "cannot open 'all-vdevs': no such pool\n");
  runner.AddOutput(Zpool(ZfsHistogramArgs("teststore")), "");  // no tables: no histograms

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

TEST_F(ZfsLatencySamplerTest, SitOutOpensAnAlertAndHistogramsAreTheHoursDifference) {
  ReplayCommandRunner runner;
  runner.AddOutput(Zpool(ZfsIostatArgs("tank")),
                   ReadFile(FixturePath("zpool-iostat/reconstructed-raidz2-6disk-vlpPy-slog.txt")));
  runner.AddOutput(Zpool(ZfsSlowStatusArgs("tank")), "", 2, "invalid option 's'\n");
  runner.AddOutput(Zpool(ZfsSitOutArgs("tank")),
                   ReadFile(FixturePath("zpool-get/reconstructed-raidz2-sit-out-Hp.txt")));
  runner.AddOutput(Zpool(ZfsHistogramArgs("tank")), ReadFile(FixturePath(kHistogram1)));
  runner.AddOutput(Zpool(ZfsHistogramArgs("tank")), ReadFile(FixturePath(kHistogram2)));
  StoreAlertRepository repo(*store_);
  FakeClock clock;
  AlertService alerts(repo, nullptr, clock, AlertServiceOptions{});
  ZfsHistogramMemory memory;
  Pool tank = Tank();
  for (std::int64_t at : {3600, 7200}) {
    auto r = SampleZfsLatency(config_, runner, *store_, {tank}, at, &memory);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ(r->warnings.size(), 1u) << r->warnings.back();  // the -s one only
    ASSERT_TRUE(alerts.OnVerdicts(r->verdicts).ok());
  }
  auto open = store_->ListAlerts(AlertFilter{});
  ASSERT_TRUE(open.ok());
  bool sit = false;
  for (const Alert& a : *open) {
    if (a.condition != "zfs:tank:sit_out") continue;
    sit = true;
    EXPECT_EQ(a.drive_id, "wwn-3");
    EXPECT_EQ(a.severity, "warning");
  }
  EXPECT_TRUE(sit);
  auto m3 = store_->ZfsLatencyOfDrive("wwn-3", 0);
  ASSERT_TRUE(m3.ok());
  ASSERT_EQ(m3->size(), 2u);
  EXPECT_EQ((*m3)[0].sit_out, std::optional<bool>(true));
  // The first sampling primes the memory; the second stores the hour.
  EXPECT_FALSE((*m3)[1].disk_wait_histogram);
  ASSERT_TRUE((*m3)[0].disk_wait_histogram);
  const ZfsWaitHistogram& h = *(*m3)[0].disk_wait_histogram;
  EXPECT_EQ(h.seconds, 3600);
  std::uint64_t reads = 0;
  for (auto c : h.read) reads += c;
  EXPECT_EQ(reads, 1584000u - 1440001u);
  EXPECT_EQ(h.read[25], 526604u - 478731u);
  auto m1 = store_->ZfsLatencyOfDrive("wwn-1", 1);
  EXPECT_EQ((*m1)[0].sit_out, std::optional<bool>(false));
  ASSERT_TRUE((*m1)[0].disk_wait_histogram);
  // The slow member's median disk wait is 4x its sibling's: 67 ms and 17 ms buckets.
  EXPECT_NEAR(*ZfsHistogramQuantile(h.read, 0.5), 0.0671, 1e-4);
  EXPECT_NEAR(*ZfsHistogramQuantile((*m1)[0].disk_wait_histogram->read, 0.5), 0.0168, 1e-4);
  // The log device is no raidz child: "-", unknown.
  auto vdev_rows = store_->ZfsLatestSamplings(0);
  ASSERT_TRUE(vdev_rows.ok());
  for (const auto& s : *vdev_rows)
    if (s.member.find("nvme-") != std::string::npos) {
      EXPECT_FALSE(s.sit_out);
    }
}

TEST_F(ZfsLatencySamplerTest, ResetCountersAndScrubsStartTheHistogramsAfresh) {
  ZfsHistogramMemory memory;
  std::pair<std::vector<std::uint64_t>, std::vector<std::uint64_t>> a{{0, 5, 9}, {1}},
      b{{0, 7, 9}, {4}};
  EXPECT_FALSE(memory.Difference("tank", "m", 100, a));
  auto d = memory.Difference("tank", "m", 160, b);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->seconds, 60);
  EXPECT_EQ(d->read, (std::vector<std::uint64_t>{0, 2, 0}));
  EXPECT_EQ(d->write, (std::vector<std::uint64_t>{3}));
  // Re-imported: counts went down, the window is unknown.
  EXPECT_FALSE(memory.Difference("tank", "m", 220, a));
  EXPECT_TRUE(memory.Difference("tank", "m", 280, b));
  memory.Forget("tank");
  EXPECT_FALSE(memory.Difference("tank", "m", 340, b));
}

TEST_F(ZfsLatencySamplerTest, HistogramBucketsFollowTheLabels) {
  auto tables = ParseZpoolIostatHistogram(
      ReadFile(FixturePath("zpool-iostat/reconstructed-pool-w-histogram.txt")));
  ASSERT_TRUE(tables.ok()) << tables.status().ToString();
  ASSERT_EQ(tables->size(), 1u);
  auto b = DiskWaitBuckets(tables->front());
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ASSERT_EQ(b->first.size(), 37u);
  EXPECT_EQ(b->first[15], 15u);     // "65us" row: 2^16 ns
  EXPECT_EQ(b->first[22], 35942u);  // "8ms" row, 35.1K (1024-based): 2^23 ns
  EXPECT_EQ(b->second[19], 6900u);  // "1ms" row
  ZpoolLatencyHistogram bad = tables->front();
  bad.bucket_seconds[3] = bad.bucket_seconds[4];  // two rows in one bucket
  EXPECT_FALSE(DiskWaitBuckets(bad).ok());
}

TEST_F(ZfsLatencySamplerTest, ARecordingHasEverythingTheSamplingAsks) {
  // What `diskpulse record` runs (ReadZfsPools) through the recording runner,
  // then the daemon's sampling replaying that folder: the same samples, no
  // warning (a command missing from a recording would be one).
  std::string status =
      "  pool: tank\n state: ONLINE\nconfig:\n\n"
      "\tNAME  STATE  READ WRITE CKSUM  SLOW\n"
      "\ttank  ONLINE    0     0     0     -\n"
      "\t  raidz2-0  ONLINE    0     0     0     -\n";
  for (int i = 1; i <= 6; ++i)
    status += std::string("\t    ") + kPrefix + std::to_string(i) + "-part1  ONLINE  0  0  0  " +
              (i == 3 ? "7" : "0") + "\n";
  status += "\nerrors: No known data errors\n";
  ReplayCommandRunner machine;
  machine.AddOutput(
      Zpool(ZfsIostatArgs("tank")),
      ReadFile(FixturePath("zpool-iostat/reconstructed-raidz2-6disk-vlpPy-slog.txt")));
  machine.AddOutput(Zpool(ZfsSlowStatusArgs("tank")), status);
  machine.AddOutput(Zpool(ZfsSitOutArgs("tank")),
                    ReadFile(FixturePath("zpool-get/reconstructed-raidz2-sit-out-Hp.txt")));
  machine.AddOutput(Zpool(ZfsHistogramArgs("tank")), ReadFile(FixturePath(kHistogram1)));
  const std::string folder = dir_.Path("recording");
  {
    RecordingCommandRunner recorder(machine, folder);
    EXPECT_TRUE(ReadZfsPools(config_, recorder, {Tank()}).empty());
    EXPECT_EQ(recorder.count(), 4);
    EXPECT_TRUE(recorder.write_errors().empty());
  }
  auto replay = ReplayCommandRunner::Load(folder);
  ASSERT_TRUE(replay.ok()) << replay.status().ToString();
  ZfsHistogramMemory memory;
  auto r = SampleZfsLatency(config_, **replay, *store_, {Tank()}, 3600, &memory);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->warnings.empty()) << r->warnings.front();
  ASSERT_EQ(r->samples.size(), 7u);
  EXPECT_EQ(r->samples[2].slow_ios, 7u);
  EXPECT_EQ(r->samples[2].sit_out, std::optional<bool>(true));
  EXPECT_EQ((*replay)->calls().size(), 4u);
}

}  // namespace
}  // namespace dp
