// detect/health_detector.h against real captures: zpool status of degraded,
// faulted and erroring pools, smartctl self-test logs and SSD wear.
#include "detect/health_detector.h"

#include <gtest/gtest.h>

#include <optional>

#include "inventory/mdstat_parser.h"
#include "inventory/zpool_status_parser.h"
#include "smart/smartctl_parser.h"
#include "support/temp_dir.h"

namespace dp::detect {
namespace {

constexpr std::int64_t kDay = 86400;

const Verdict* Find(const std::vector<Verdict>& vs, const std::string& condition) {
  for (const auto& v : vs)
    if (v.condition == condition) return &v;
  return nullptr;
}

// A copy of the verdict on `condition`, for a list that is a temporary.
std::optional<Verdict> One(const std::vector<Verdict>& vs, const std::string& condition) {
  const Verdict* v = Find(vs, condition);
  return v ? std::optional<Verdict>(*v) : std::nullopt;
}

Pool ZpoolFixture(const std::string& name) {
  auto pools =
      ParseZpoolStatusText(testing::ReadFile(testing::FixturePath("zpool/" + name)));
  EXPECT_TRUE(pools.ok()) << pools.status().ToString();
  EXPECT_FALSE(pools->empty());
  return pools.ok() && !pools->empty() ? pools->front() : Pool{};
}

SmartSnapshot SmartFixture(const std::string& name) {
  auto r = ParseSmartctlOutput(testing::ReadFile(testing::FixturePath("smartctl/" + name)));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r->snapshot : SmartSnapshot{};
}

Drive MakeDrive(const std::string& id, const std::string& name) {
  Drive d;
  d.id = id;
  d.name = name;
  d.dev_path = "/dev/" + name;
  d.model = "WDC WD40EFRX";
  d.serial = "WD-" + name;
  return d;
}

// --- missing drives ---

TEST(HealthDetector, MissingDriveFiresOnlyAfterTheGrace) {
  DetectionConfig cfg;
  cfg.missing_grace_minutes = 30;
  Drive d = MakeDrive("wwn-1", "sdc");
  d.present = false;
  d.last_seen = 1000;
  d.missing_since = 1000;
  auto early = EvaluateMissingDrives({d}, 1000 + 29 * 60, cfg);
  ASSERT_EQ(early.size(), 1u);
  EXPECT_EQ(early[0].kind, VerdictKind::kInconclusive);
  auto late = EvaluateMissingDrives({d}, 1000 + 31 * 60, cfg);
  ASSERT_EQ(late.size(), 1u);
  EXPECT_TRUE(late[0].Firing());
  EXPECT_EQ(late[0].condition, "missing");
  EXPECT_EQ(late[0].drive_id, "wwn-1");
  EXPECT_EQ(late[0].severity, Severity::kCritical);
  EXPECT_NE(late[0].summary.find("WD-sdc"), std::string::npos) << late[0].summary;
  EXPECT_EQ(late[0].details["missing_since"], 1000);
}

TEST(HealthDetector, PresentOrForgottenDrivesAreClear) {
  DetectionConfig cfg;
  Drive present = MakeDrive("wwn-1", "sda");
  Drive forgotten = MakeDrive("wwn-2", "sdb");
  forgotten.present = false;
  forgotten.missing_since = 0;
  forgotten.forgotten_at = 50;
  forgotten.forgotten_reason = "replaced";
  Drive file = MakeDrive("path-/srv/f", "f");
  file.transport = "file";
  file.present = false;
  auto vs = EvaluateMissingDrives({present, forgotten, file}, 100 * kDay, cfg);
  ASSERT_EQ(vs.size(), 2u);  // a file target is no drive
  for (const auto& v : vs) EXPECT_EQ(v.kind, VerdictKind::kClear) << v.summary;
  EXPECT_NE(vs[1].summary.find("replaced"), std::string::npos);
}

// --- pools ---

TEST(HealthDetector, DegradedPoolAndUnmappedUnavailMemberNamedByLastIdentity) {
  // Real OpenZFS capture: mirror-1 DEGRADED, loop3 UNAVAIL "corrupted data";
  // loop3 maps to no present drive, but the pool's history knows it.
  Pool pool = ZpoolFixture("linux-mirror2x-degraded-unavail-corrupted-data.txt");
  ASSERT_EQ(pool.state, "DEGRADED");
  PoolMemory memory;
  Drive gone = MakeDrive("wwn-5000c500deadbeef", "sdd");
  gone.model = "ST4000VN008";
  gone.serial = "ZDH1ABCD";
  memory.last_drive_at["loop3"] = gone;
  DetectionConfig cfg;
  auto vs = EvaluatePoolHealth(pool, memory, 2000000000, cfg);

  const Verdict* state = Find(vs, "pool:dummy:state");
  ASSERT_NE(state, nullptr);
  EXPECT_TRUE(state->Firing());
  EXPECT_EQ(state->severity, Severity::kCritical);
  EXPECT_EQ(state->drive_id, "");
  EXPECT_EQ(state->drive_name, "pool dummy");  // what a notification names
  EXPECT_NE(state->summary.find("mirror-1 DEGRADED"), std::string::npos) << state->summary;

  const Verdict* members = Find(vs, "pool:dummy:members");
  ASSERT_NE(members, nullptr);
  EXPECT_TRUE(members->Firing());
  EXPECT_NE(members->summary.find("ST4000VN008 serial ZDH1ABCD"), std::string::npos)
      << members->summary;
  ASSERT_EQ(members->details["members"].size(), 1u);
  EXPECT_EQ(members->details["members"][0]["last_known_drive"], "wwn-5000c500deadbeef");
  EXPECT_EQ(members->details["members"][0]["state"], "UNAVAIL");
}

TEST(HealthDetector, ManyUnavailMembersAreOneAlertPerPool) {
  Pool pool = ZpoolFixture("linux-mirror2x-degraded-unavail-corrupted-data.txt");
  // Every leaf UNAVAIL, as when an enclosure drops out: one pool alert.
  for (Vdev& v : pool.vdevs)
    for (PoolMember& m : v.members) m.state = "UNAVAIL";
  auto vs = EvaluatePoolHealth(pool, {}, 2000000000, DetectionConfig{});
  int member_verdicts = 0;
  for (const auto& v : vs)
    if (v.condition.find(":members") != std::string::npos) ++member_verdicts;
  EXPECT_EQ(member_verdicts, 1);
  const Verdict* members = Find(vs, "pool:dummy:members");
  ASSERT_NE(members, nullptr);
  EXPECT_EQ(members->details["members"].size(), 4u);
  EXPECT_NE(members->summary.find("4 members"), std::string::npos) << members->summary;
}

TEST(HealthDetector, MappedMembersAreLeftToTheirDriveAlerts) {
  Pool pool = ZpoolFixture("linux-mirror2x-degraded-unavail-corrupted-data.txt");
  for (Vdev& v : pool.vdevs)
    for (PoolMember& m : v.members) m.drive_id = "wwn-" + m.path;
  auto vs = EvaluatePoolHealth(pool, {}, 2000000000, DetectionConfig{});
  const Verdict* members = Find(vs, "pool:dummy:members");
  ASSERT_NE(members, nullptr);
  EXPECT_EQ(members->kind, VerdictKind::kClear);
}

TEST(HealthDetector, FaultedPoolIsCritical) {
  Pool pool = ZpoolFixture("solaris-pool-faulted-metadata-corrupted.txt");
  auto vs = EvaluatePoolHealth(pool, {}, 2000000000, DetectionConfig{});
  const Verdict* state = Find(vs, "pool:" + pool.name + ":state");
  ASSERT_NE(state, nullptr);
  EXPECT_TRUE(state->Firing());
  EXPECT_EQ(state->severity, Severity::kCritical);
  EXPECT_NE(state->summary.find("FAULTED"), std::string::npos) << state->summary;
}

TEST(HealthDetector, HealthyPoolIsClearEverywhere) {
  Pool pool = ZpoolFixture("linux-2x-mirror-wwn-features.txt");
  ASSERT_EQ(pool.state, "ONLINE");
  const auto finished = ScanFinishedAt(pool.scan);
  ASSERT_TRUE(finished.has_value()) << pool.scan.text;
  auto vs = EvaluatePoolHealth(pool, {}, *finished + 3 * kDay, DetectionConfig{});
  ASSERT_FALSE(vs.empty());
  for (const auto& v : vs) EXPECT_FALSE(v.Firing()) << v.condition << ": " << v.summary;
}

TEST(HealthDetector, PermanentErrorsFireWithTheFileList) {
  Pool pool = ZpoolFixture("solaris-pool-permanent-errors-file-list-v.txt");
  auto vs = EvaluatePoolHealth(pool, {}, 2000000000, DetectionConfig{});
  const Verdict* errors = Find(vs, "pool:monkey:errors");
  ASSERT_NE(errors, nullptr);
  EXPECT_TRUE(errors->Firing());
  EXPECT_EQ(errors->severity, Severity::kCritical);
  EXPECT_EQ(errors->details["files"].size(), 5u);
  EXPECT_NE(errors->summary.find("/monkey/a.txt"), std::string::npos) << errors->summary;
}

TEST(HealthDetector, MdArrayMissingAMemberFires) {
  // The same /proc/mdstat shape as mdstat_parser_test's degraded RAID1.
  auto md = ParseMdstat(
      "Personalities : [raid1]\n"
      "md0 : active raid1 sda1[0]\n"
      "      976630464 blocks super 1.2 [2/1] [U_]\n"
      "\n"
      "unused devices: <none>\n");
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  ASSERT_EQ(md->size(), 1u);
  auto vs = EvaluatePoolHealth(md->front(), {}, 2000000000, DetectionConfig{});
  const Verdict* state = Find(vs, "pool:md0:state");
  ASSERT_NE(state, nullptr);
  EXPECT_TRUE(state->Firing());
  EXPECT_NE(state->summary.find("missing a member"), std::string::npos) << state->summary;
  EXPECT_EQ(Find(vs, "scrub:md0:overdue"), nullptr);  // md has no ZFS scrub
}

TEST(HealthDetector, PoolCapacityAgainstTheLimits) {
  Pool pool = ZpoolFixture("zol-raidz1-cksum-errors-9P.txt");
  // No space read: no capacity verdict (unknown, not clear).
  EXPECT_FALSE(One(EvaluatePoolHealth(pool, {}, 1, DetectionConfig{}), "pool:keg2:capacity").has_value());
  pool.size_bytes = 1000;
  DetectionConfig cfg;  // 80 / 90
  pool.allocated_bytes = 799;
  EXPECT_EQ(One(EvaluatePoolHealth(pool, {}, 1, cfg), "pool:keg2:capacity")->kind,
            VerdictKind::kClear);
  pool.allocated_bytes = 800;
  auto w = One(EvaluatePoolHealth(pool, {}, 1, cfg), "pool:keg2:capacity");
  EXPECT_TRUE(w->Firing());
  EXPECT_EQ(w->severity, Severity::kWarning);
  EXPECT_NE(w->summary.find("80% full"), std::string::npos) << w->summary;
  pool.allocated_bytes = 905;
  EXPECT_EQ(One(EvaluatePoolHealth(pool, {}, 1, cfg), "pool:keg2:capacity")->severity,
            Severity::kCritical);
  cfg.pool_capacity_warning_percent = 95;
  cfg.pool_capacity_critical_percent = 99;
  EXPECT_FALSE(One(EvaluatePoolHealth(pool, {}, 1, cfg), "pool:keg2:capacity")->Firing());
}

// --- scrubs ---

TEST(HealthDetector, ScrubWithErrorsFiresCritical) {
  // "scrub repaired 0B in 14h7m with 1 errors on Sun Feb  4 20:54:25 2024"
  Pool pool = ZpoolFixture("linux-mirror-online-data-errors-permission-denied.txt");
  auto vs = EvaluatePoolHealth(pool, {}, 2000000000, DetectionConfig{});
  const Verdict* findings = Find(vs, "scrub:jeremy:findings");
  ASSERT_NE(findings, nullptr);
  EXPECT_TRUE(findings->Firing());
  EXPECT_EQ(findings->severity, Severity::kCritical);
  EXPECT_EQ(findings->current, 1.0);
}

TEST(HealthDetector, ScrubThatRepairedFiresWarning) {
  // "scrub repaired 448K in 1h26m with 0 errors on Sun Jan 10 01:50:44 2021"
  Pool pool = ZpoolFixture("zol-raidz1-cksum-errors-9P.txt");
  auto vs = EvaluatePoolHealth(pool, {}, 2000000000, DetectionConfig{});
  const Verdict* findings = Find(vs, "scrub:keg2:findings");
  ASSERT_NE(findings, nullptr);
  EXPECT_TRUE(findings->Firing());
  EXPECT_EQ(findings->severity, Severity::kWarning);
  EXPECT_EQ(findings->details["repaired"], "448K");
}

TEST(HealthDetector, ScrubOverdueAfterTheConfiguredAge) {
  Pool pool = ZpoolFixture("zol-raidz1-cksum-errors-9P.txt");
  const auto finished = ScanFinishedAt(pool.scan);
  ASSERT_TRUE(finished.has_value()) << pool.scan.text;
  // Sun Jan 10 01:50:44 2021 in whatever zone the test runs: within a day.
  EXPECT_NEAR(static_cast<double>(*finished), 1610243444.0, 86400.0);
  DetectionConfig cfg;  // default 35 days
  EXPECT_EQ(cfg.scrub_overdue_days, 35);
  auto on_time = EvaluatePoolHealth(pool, {}, *finished + 34 * kDay, cfg);
  ASSERT_NE(Find(on_time, "scrub:keg2:overdue"), nullptr);
  EXPECT_EQ(Find(on_time, "scrub:keg2:overdue")->kind, VerdictKind::kClear);
  auto late = EvaluatePoolHealth(pool, {}, *finished + 36 * kDay, cfg);
  const Verdict* overdue = Find(late, "scrub:keg2:overdue");
  ASSERT_NE(overdue, nullptr);
  EXPECT_TRUE(overdue->Firing());
  EXPECT_NE(overdue->summary.find("36 days"), std::string::npos) << overdue->summary;
  cfg.scrub_overdue_days = 60;
  EXPECT_FALSE(One(EvaluatePoolHealth(pool, {}, *finished + 36 * kDay, cfg),
                    "scrub:keg2:overdue")
                   ->Firing());
}

TEST(HealthDetector, NeverScrubbedPoolIsOverdueOnlyOnceWatchedLongEnough) {
  Pool pool = ZpoolFixture("solaris-pool-permanent-errors-file-list-v.txt");  // none requested
  PoolMemory memory;
  memory.first_seen = 1000;
  auto young = EvaluatePoolHealth(pool, memory, 1000 + 10 * kDay, DetectionConfig{});
  EXPECT_EQ(Find(young, "scrub:monkey:overdue")->kind, VerdictKind::kInconclusive);
  auto old = EvaluatePoolHealth(pool, memory, 1000 + 40 * kDay, DetectionConfig{});
  EXPECT_TRUE(Find(old, "scrub:monkey:overdue")->Firing());
}

TEST(HealthDetector, ScrubInProgressIsOnTime) {
  Pool pool = ZpoolFixture("linux-P-fullpath-nvme-mirror-scrub-progress.txt");
  ASSERT_EQ(pool.scan.state, "in_progress");
  auto vs = EvaluatePoolHealth(pool, {}, 2000000000, DetectionConfig{});
  EXPECT_EQ(Find(vs, "scrub:" + pool.name + ":overdue")->kind, VerdictKind::kClear);
}

TEST(HealthDetector, JsonScanStatsGiveEndTimeAndErrors) {
  auto pools = ParseZpoolStatusJson(
      testing::ReadFile(testing::FixturePath("zpool/json-three-pools-json-int-trimmed.json")));
  ASSERT_TRUE(pools.ok()) << pools.status().ToString();
  ASSERT_FALSE(pools->empty());
  const Pool& rpool = pools->front();
  EXPECT_EQ(ScanFinishedAt(rpool.scan), std::optional<std::int64_t>(1764050594));
  auto vs = EvaluatePoolHealth(rpool, {}, 1764050594 + 40 * kDay, DetectionConfig{});
  EXPECT_TRUE(Find(vs, "scrub:rpool:overdue")->Firing());
  EXPECT_EQ(Find(vs, "scrub:rpool:findings")->kind, VerdictKind::kClear);
}

// --- SSD wear ---

TEST(HealthDetector, NvmePercentageUsedAgainstTheLimits) {
  SmartSnapshot s = SmartFixture("nvme-intel-P4500-SSDPE2KX020T7-75pct-used.json");
  ASSERT_TRUE(s.nvme && s.nvme->percentage_used);
  ASSERT_EQ(*s.nvme->percentage_used, 75);
  DetectionConfig cfg;  // 80 / 95
  Drive d = MakeDrive("nvme-1", "nvme0n1");
  EXPECT_EQ(One(EvaluateDriveUpkeep(d, s, 1, cfg), "wear:endurance")->kind, VerdictKind::kClear);
  cfg.wear_warning_percent = 70;
  auto w = One(EvaluateDriveUpkeep(d, s, 1, cfg), "wear:endurance");
  EXPECT_TRUE(w->Firing());
  EXPECT_EQ(w->severity, Severity::kWarning);
  cfg.wear_critical_percent = 75;
  EXPECT_EQ(One(EvaluateDriveUpkeep(d, s, 1, cfg), "wear:endurance")->severity,
            Severity::kCritical);
}

TEST(HealthDetector, AtaWearAttributesByName) {
  DetectionConfig cfg;
  cfg.wear_warning_percent = 40;
  Drive d = MakeDrive("ssd-1", "sdx");
  // Intel S4500: 233 Media_Wearout_Indicator normalised 55 -> 45% used.
  SmartSnapshot intel = SmartFixture("ata-ssd-intel-S4500-SSDSC2KB240G7-worn-realloc4.json");
  auto w = One(EvaluateDriveUpkeep(d, intel, 1, cfg), "wear:endurance");
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->current, 45.0);
  EXPECT_TRUE(w->Firing());
  // Samsung 860 EVO: 177 Wear_Leveling_Count normalised 81 -> 19% used.
  SmartSnapshot samsung = SmartFixture("ata-ssd-samsung-860evo-500g-xall.json");
  w = One(EvaluateDriveUpkeep(d, samsung, 1, cfg), "wear:endurance");
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->current, 19.0);
  EXPECT_FALSE(w->Firing());
  // SandForce: 177 is Wear_Range_Delta and 233 SandForce_Internal (both
  // normalised 0), yet 231 SSD_Life_Left 100 is its wear: 0% used.
  SmartSnapshot ocz = SmartFixture("ata-ssd-ocz-vertex2-xall-smartctl7.2.json");
  w = One(EvaluateDriveUpkeep(d, ocz, 1, cfg), "wear:endurance");
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->current, 0.0);
  // A spinning disk has no wear verdict, whatever its 202 means.
  SmartSnapshot hdd = SmartFixture("ata-hdd-seagate-ST3200820AS-error-log-exit64.json");
  EXPECT_FALSE(One(EvaluateDriveUpkeep(d, hdd, 1, cfg), "wear:endurance").has_value());
}

// --- self-tests ---

TEST(HealthDetector, SelfTestOverdueFromPowerOnHours) {
  // Real capture: power-on 37787 h, newest self-test at 35990 h: 74 days ago.
  SmartSnapshot s = SmartFixture("megaraid-sat-hdd-WD4000FYYX-healthy.json");
  Drive d = MakeDrive("wwn-2", "sdb");
  DetectionConfig cfg;
  auto o = One(EvaluateDriveUpkeep(d, s, 1, cfg), "selftest:overdue");
  ASSERT_TRUE(o.has_value());
  EXPECT_TRUE(o->Firing());
  EXPECT_EQ(o->current, 1797.0);
  EXPECT_NE(o->summary.find("74 powered-on days"), std::string::npos) << o->summary;
  cfg.self_test_overdue_days = 80;
  EXPECT_EQ(One(EvaluateDriveUpkeep(d, s, 1, cfg), "selftest:overdue")->kind,
            VerdictKind::kClear);
  cfg.self_test_overdue_days = 0;  // not judged
  EXPECT_FALSE(One(EvaluateDriveUpkeep(d, s, 1, cfg), "selftest:overdue").has_value());
}

TEST(HealthDetector, SelfTestAgeAcrossThe16BitHourWrap) {
  // Real capture: power-on 65592 h, newest self-test logged at 42 h: the
  // log's 16-bit hours wrapped, so it ran 14 h ago, not 65550 h ago.
  SmartSnapshot s = SmartFixture("usb-jmicron-hdd-hitachi-HDS721050DLE630-failing.json");
  auto o = One(EvaluateDriveUpkeep(MakeDrive("h", "sdh"), s, 1, DetectionConfig{}), "selftest:overdue");
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(o->kind, VerdictKind::kClear) << o->summary;
  EXPECT_EQ(o->current, 14.0);
}

TEST(HealthDetector, SelfTestAbortedByHostFires) {
  SmartSnapshot aborted =
      SmartFixture("ata-hdd-WDC-WD140EDFZ-14tb-selftest-aborted-constructed.json");
  Drive d = MakeDrive("wwn-3", "sdc");
  auto a = One(EvaluateDriveUpkeep(d, aborted, 1, DetectionConfig{}), "selftest:aborted");
  ASSERT_TRUE(a.has_value());
  EXPECT_TRUE(a->Firing());
  EXPECT_NE(a->summary.find("Aborted by host"), std::string::npos) << a->summary;
  SmartSnapshot fine = SmartFixture("ata-hdd-WDC-WD140EDFZ-14tb-healthy.json");
  auto vs = EvaluateDriveUpkeep(d, fine, 1, DetectionConfig{});
  EXPECT_EQ(Find(vs, "selftest:aborted")->kind, VerdictKind::kClear);
  EXPECT_EQ(Find(vs, "selftest:overdue")->kind, VerdictKind::kClear);  // 22 h ago
}

TEST(HealthDetector, NoSelfTestLogNoSelfTestVerdicts) {
  // A capture without a self-test log (smartctl -a of an NVMe drive here)
  // says nothing about self-tests: no verdict rather than "never ran".
  SmartSnapshot s = SmartFixture("nvme-samsung-970evoplus-250g.json");
  auto vs = EvaluateDriveUpkeep(MakeDrive("n", "nvme0n1"), s, 1, DetectionConfig{});
  EXPECT_EQ(Find(vs, "selftest:overdue"), nullptr);
  EXPECT_EQ(Find(vs, "selftest:aborted"), nullptr);
}

// Bad input: nonsense from zpool or smartctl gives no verdict or a clear
// one, never a crash or a made-up date.
TEST(HealthDetector, NonsenseScanTextAndSnapshots) {
  Pool pool;
  pool.name = "p";
  pool.state = "ONLINE";
  pool.scan.function = "scrub";
  pool.scan.state = "finished";
  for (const char* text :
       {"scrub repaired 0B in 1h with 99999999999999999999999 errors on Sun Feb  4 20:54:25 2024",
        "scrub repaired in with errors on", "scrub repaired 0B with 0 errors on Xyz Foo 99 1:2:3 0",
        "{\"end_time\": \"soon\", \"errors\": [1]}", "{", ""}) {
    pool.scan.text = text;
    auto vs = EvaluatePoolHealth(pool, {}, 2000000000, DetectionConfig{});
    const Verdict* findings = Find(vs, "scrub:p:findings");
    ASSERT_NE(findings, nullptr) << text;
    if (std::string(text).find("9999") != std::string::npos) {
      EXPECT_TRUE(findings->Firing()) << text;
    }
  }
  EXPECT_FALSE(ScanFinishedAt(PoolScan{"scrub", "finished", {}, "on Xyz Foo 9 1:02:03 2024"}));
  SmartSnapshot s;  // nothing known at all
  EXPECT_TRUE(EvaluateDriveUpkeep(MakeDrive("x", "sdx"), s, 1, DetectionConfig{}).empty());
  s.power_on_hours = 10;
  s.self_tests = {SmartSelfTest{"Short offline", "Completed without error", true, 5000}};
  auto vs = EvaluateDriveUpkeep(MakeDrive("x", "sdx"), s, 1, DetectionConfig{});
  ASSERT_NE(Find(vs, "selftest:overdue"), nullptr);
  EXPECT_EQ(Find(vs, "selftest:overdue")->kind, VerdictKind::kInconclusive);  // log ahead of POH
}

}  // namespace
}  // namespace dp::detect
