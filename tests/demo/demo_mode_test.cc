// Demo mode's parts without the daemon: its flags, the simulated NAS
// (DemoWorld: deterministic figures, the slow sibling, SMART from the
// replayed capture with growing pending sectors), the executor (a read run
// stores points with progress; SMART stores a snapshot; self-tests are
// refused) and PrepareDemo seeding a real store whose real detection finds
// the three planted problems and nothing on the healthy drives, each alert
// in its owner's words.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "app/daemon_args.h"
#include "demo/demo_executor.h"
#include "demo/demo_mode.h"
#include "base/fake_clock.h"
#include "model/condition.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using dp::testing::TempDir;

constexpr std::int64_t kNow = 1780000000;

TEST(DemoArgs, DemoAndWeeks) {
  EXPECT_FALSE(ParseDaemonArgs({})->demo);
  auto a = ParseDaemonArgs({"--demo"});
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->demo);
  EXPECT_EQ(a->demo_weeks, 104);
  auto w = ParseDaemonArgs({"--demo-weeks", "30"});
  ASSERT_TRUE(w.ok());
  EXPECT_TRUE(w->demo);
  EXPECT_EQ(w->demo_weeks, 30);
  for (const char* bad : {"0", "x", "-3", "99999"}) {
    auto r = ParseDaemonArgs({"--demo-weeks", bad});
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("--demo-weeks"), std::string::npos);
  }
  EXPECT_FALSE(ParseDaemonArgs({"--demo-weeks"}).ok());
  EXPECT_NE(DaemonUsage().find("--demo"), std::string::npos);
}

TEST(DemoWorldTest, LayoutFiguresAndSmart) {
  DemoWorld world(kNow - 200 * 86400, kNow);
  ASSERT_EQ(world.drives().size(), 8u);
  ASSERT_EQ(world.pools().size(), 1u);
  const Pool& tank = world.pools()[0];
  ASSERT_EQ(tank.vdevs.size(), 3u);
  EXPECT_EQ(tank.vdevs[0].type, "raidz2");
  EXPECT_EQ(tank.vdevs[0].members.size(), 6u);
  EXPECT_EQ(tank.vdevs[1].role, "log");
  EXPECT_EQ(tank.vdevs[2].role, "spare");
  std::set<std::string> ids;
  for (const Drive& d : world.drives()) ids.insert(d.id);
  EXPECT_EQ(ids.size(), 8u);

  auto mb = [&](const std::string& name, std::int64_t at) {
    auto points = world.Measure(name, "seq", at);
    EXPECT_TRUE(points.ok()) << points.status().ToString();
    return points.ok() && !points->empty() ? points->front().mb_per_s : 0.0;
  };
  // Deterministic, and the slow sibling ~20% below the others.
  EXPECT_DOUBLE_EQ(mb("sda", kNow - 1000), mb("sda", kNow - 1000));
  EXPECT_NEAR(mb("sde", kNow - 1000) / mb("sda", kNow - 1000), 0.8, 0.04);
  // sdb has lost throughput since 5 months before the start.
  EXPECT_LT(mb("sdb", kNow), 0.93 * mb("sdb", kNow - 300 * 86400));
  auto zones = world.Measure("sda", "zones", kNow);
  ASSERT_TRUE(zones.ok());
  EXPECT_GE(zones->size(), 3u);
  EXPECT_FALSE(world.Measure("sda", "pool-write", kNow).ok());
  EXPECT_FALSE(world.Measure("sdq", "seq", kNow).ok());

  auto early = world.Smart("sdd", kNow - 20 * 7 * 86400);
  auto late = world.Smart("sdd", kNow);
  auto later = world.Smart("sdd", kNow + 600);
  ASSERT_TRUE(early.ok() && late.ok() && later.ok());
  EXPECT_EQ(early->pending_sectors, 0u);
  EXPECT_GT(*late->pending_sectors, 10u);
  EXPECT_GT(*later->pending_sectors, *late->pending_sectors);
  EXPECT_EQ(late->serial, world.drives()[3].serial);
  EXPECT_FALSE(late->attributes.empty());  // the WD Red capture's table
  EXPECT_TRUE(late->health_passed.value_or(false));
  auto nvme = world.Smart("nvme0n1", kNow);
  ASSERT_TRUE(nvme.ok());
  EXPECT_TRUE(nvme->nvme.has_value());
}

TEST(DemoExecutorTest, ReadRunStoresPointsSmartStoresSnapshotSelfTestRefused) {
  TempDir tmp;
  auto store = Store::Open(tmp.Path("dp.db"));
  ASSERT_TRUE(store.ok());
  auto world = std::make_shared<const DemoWorld>(kNow - 100 * 86400, kNow);
  for (const Drive& d : world->drives()) ASSERT_TRUE((*store)->UpsertDrive(d, kNow).ok());
  FakeClock clock;
  clock.Set(FromUnixSeconds(kNow));
  DemoJobExecutor executor(world, **store, clock, std::chrono::milliseconds(50));
  const Drive& sda = world->drives()[0];
  dp::Run run;
  run.drive_id = sda.id;
  run.test = "random";
  run.started_at = kNow;
  run.outcome = RunOutcome::kRunning;
  auto id = (*store)->InsertRun(run);
  ASSERT_TRUE(id.ok());
  Job job;
  job.run_id = *id;
  job.test = "random";
  job.drive_id = sda.id;
  JobCancel cancel;
  std::vector<double> progress;
  auto r = executor.Execute(job, cancel, [&](double p) { progress.push_back(p); });
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->engine, "simulated");
  ASSERT_FALSE(progress.empty());
  EXPECT_DOUBLE_EQ(progress.back(), 1.0);
  auto points = (*store)->RunPoints(*id);
  ASSERT_TRUE(points.ok());
  EXPECT_FALSE(points->empty());

  job.test = "smart";
  ASSERT_TRUE(executor.Execute(job, cancel, nullptr).ok());
  auto smart = (*store)->LatestSmart(sda.id);
  ASSERT_TRUE(smart.ok() && smart->has_value());
  EXPECT_EQ((*smart)->serial, sda.serial);

  job.test = "smart-short";
  EXPECT_FALSE(executor.Execute(job, cancel, nullptr).ok());
  DemoStateProbe probe(world);
  EXPECT_TRUE(probe.Probe(sda.id).ok());
  EXPECT_FALSE(probe.Probe("nope").ok());
}

TEST(DemoSeedTest, RealDetectionFindsThePlantedProblems) {
  Config config;
  config.database = "";  // PrepareDemo sets it
  auto setup = PrepareDemo(config, kNow, 30);
  ASSERT_TRUE(setup.ok()) << setup.status().ToString();
  EXPECT_NE(config.database.find(setup->dir), std::string::npos);
  EXPECT_EQ(config.api_token, "demo");
  EXPECT_FALSE(config.schedule_list.empty());
  EXPECT_GT(setup->seeded_runs, 30 * 8 * 4 - 1);
  {
    auto store = Store::Open(config.database);
    ASSERT_TRUE(store.ok());
    auto alerts = (*store)->ListAlerts(AlertFilter{"active", "", 0});
    ASSERT_TRUE(alerts.ok());
    std::map<std::string, std::set<std::string>> kinds;  // drive name -> condition kinds
    auto drives = (*store)->ListDrives();
    ASSERT_TRUE(drives.ok());
    std::map<std::string, std::string> name_of;
    for (const Drive& d : *drives) name_of[d.id] = d.name;
    // A drive's slowdown event holds its peer verdicts as members.
    for (const Alert& a : *alerts) {
      kinds[name_of[a.drive_id]].insert(a.condition.substr(0, a.condition.find(':')));
      if (a.evidence_json.find("\"condition\":\"peer:") != std::string::npos)
        kinds[name_of[a.drive_id]].insert("peer");
    }
    EXPECT_TRUE(kinds["sdd"].count("smart")) << ::testing::PrintToString(kinds);
    EXPECT_TRUE(kinds["sde"].count("peer")) << ::testing::PrintToString(kinds);
    EXPECT_TRUE(kinds["sdb"].count("slowdown") || kinds["sdb"].count("trend"))
        << ::testing::PrintToString(kinds);
    // What discovery would find: sdh gone, sdf's self-test overdue, tank's
    // scrub overdue (a pool alert: no drive).
    EXPECT_EQ(kinds["sdh"], std::set<std::string>{"missing"}) << ::testing::PrintToString(kinds);
    EXPECT_EQ(kinds["sdf"], std::set<std::string>{"selftest"}) << ::testing::PrintToString(kinds);
    std::set<std::string> pool_conditions;
    for (const Alert& a : *alerts)
      if (a.drive_id.empty()) pool_conditions.insert(a.condition);
    EXPECT_EQ(pool_conditions, std::set<std::string>{"scrub:tank:overdue"});
    for (const char* healthy : {"sda", "sdc", "sdg", "nvme0n1"})
      EXPECT_FALSE(kinds.count(healthy)) << healthy << ": " << ::testing::PrintToString(kinds);
    // As their owner reads them: sdb's decline is one told alert whose
    // members include its trend, the missing drive's headline counts days,
    // sdd's SMART alert gives the count its SMART table shows, and every
    // active alert has a headline, a confidence and advice.
    std::map<std::string, std::string> id_of;
    for (const Drive& d : *drives) id_of[d.name] = d.id;
    auto every = (*store)->ListAlerts(AlertFilter{"", "", 0});
    ASSERT_TRUE(every.ok());
    std::set<std::string> told;
    std::set<ConditionKind> rules;
    for (const Alert& a : *every) {
      const ConditionKind k = ConditionKindOf(a.condition);
      if (a.drive_id != id_of["sdb"] || (k != ConditionKind::kSlowdown &&
                                         k != ConditionKind::kTrend && k != ConditionKind::kPeer))
        continue;
      if (a.notify_count > 0) told.insert(a.condition + " #" + std::to_string(a.id));
      for (const AlertMember& m : a.event.members) rules.insert(ConditionKindOf(m.condition));
    }
    EXPECT_EQ(told, std::set<std::string>{"slowdown:drive #" + std::to_string([&] {
                      for (const Alert& a : *alerts)
                        if (a.drive_id == id_of["sdb"]) return a.id;
                      return std::int64_t{0};
                    }())});
    EXPECT_TRUE(rules.count(ConditionKind::kTrend)) << "the trend is a member of the one alert";
    for (const Alert& a : *alerts) {
      SCOPED_TRACE(a.condition + ": " + a.summary);
      EXPECT_FALSE(a.words.headline.empty());
      EXPECT_FALSE(a.words.confidence.empty());
      EXPECT_FALSE(a.words.advice.empty());
      EXPECT_EQ(a.words.headline.find(" min"), std::string::npos) << a.words.headline;
      EXPECT_EQ(a.words.headline.find("Mann-Kendall"), std::string::npos) << a.words.headline;
      if (a.drive_id == id_of["sdh"]) {
        EXPECT_EQ(a.words.headline, "sdh has been missing for 2 days");
      }
      if (a.drive_id == id_of["sdd"] && a.condition == "smart:pending_sectors") {
        auto latest = (*store)->LatestSmart(id_of["sdd"]);
        ASSERT_TRUE(latest.ok() && *latest && (*latest)->pending_sectors);
        const std::string shown = std::to_string(*(*latest)->pending_sectors);
        EXPECT_EQ(a.words.headline.rfind("sdd has " + shown + " sectors", 0), 0u)
            << "its SMART table shows " << shown << "; the alert says: " << a.words.headline;
      }
    }
    auto pools = (*store)->LatestPools();
    ASSERT_TRUE(pools.ok());
    ASSERT_EQ(pools->size(), 1u);
    EXPECT_EQ((*pools)[0].name, "tank");
  }
  RemoveDemo(*setup);
  EXPECT_FALSE(std::filesystem::exists(setup->dir));
}

}  // namespace
}  // namespace dp
