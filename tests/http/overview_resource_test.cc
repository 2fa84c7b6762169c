// The page's first-screen resources through the router only (no sockets),
// on a real store in a temporary directory: GET /api/v1/overview (status
// badges from stored alerts and SMART, worst first, read figure as % of
// the detector's baseline, trend), GET /api/v1/pools (roles, counters,
// scan progress, drive names) and GET /api/v1/drives/{id}/smart (SMART over
// time, spread to a chart's worth of points), with the bad inputs.
#include <gtest/gtest.h>

#include "base/fake_clock.h"
#include "http/api.h"
#include "http/openapi_record_util.h"
#include "smart/smartctl_parser.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp::http {
namespace {

using dp::testing::TempDir;
using nlohmann::json;

constexpr std::int64_t kT0 = 1700000000;
constexpr std::int64_t kWeek = 7 * 86400;

class OverviewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open(tmp_.Path("dp.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(store).value();
  }

  Drive AddDrive(const std::string& name) {
    Drive d;
    d.id = "wwn-" + name;
    d.name = name;
    d.dev_path = "/dev/" + name;
    d.model = "WDC WD40EFRX";
    d.serial = "S-" + name;
    d.size_bytes = 4000787030016;
    d.rotational = true;
    d.rotation_rpm = 5400;
    d.transport = "sata";
    EXPECT_TRUE(store_->UpsertDrive(d, kT0).ok());
    return d;
  }
  // Every present drive stays present (MarkMissingExcept marks the rest).
  void KeepPresent(const std::vector<std::string>& ids) {
    ASSERT_TRUE(store_->MarkMissingExcept(ids, kT0 + 20).ok());
  }

  std::int64_t AddSeqRun(const std::string& drive_id, std::int64_t at, double mb,
                         bool contended = false, const std::string& test = "seq") {
    dp::Run run;
    run.drive_id = drive_id;
    run.test = test;
    run.trigger = "schedule:weekly";
    run.started_at = at;
    run.ended_at = at + 60;
    run.outcome = RunOutcome::kOk;
    run.contended = contended;
    auto id = store_->InsertRun(run);
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    std::vector<BenchPoint> points;
    auto point = [&](std::optional<std::string> zone, double v) {
      BenchPoint p;
      p.test = test;
      p.zone = std::move(zone);
      p.block_size = 1048576;
      p.queue_depth = test == "seq" ? 8 : 1;
      p.bytes = 1000000000;
      p.seconds = 5;
      p.mb_per_s = v;
      p.contended = contended;
      points.push_back(p);
    };
    if (test == "zones") {
      point("outer", mb);
      point("middle", mb * 0.8);
      point("inner", mb * 0.55);
    } else {
      point(std::nullopt, mb);
    }
    EXPECT_TRUE(store_->AddMeasurements(*id, points).ok());
    return *id;
  }
  void AddAlert(const std::string& drive_id, const std::string& condition,
                const std::string& severity, const std::string& summary,
                const std::string& state = "open", int notified = 1) {
    Alert a;
    a.notify_count = notified;
    a.drive_id = drive_id;
    a.condition = condition;
    a.severity = severity;
    a.state = state;
    a.summary = summary;
    a.opened_at = kT0;
    a.updated_at = kT0;
    ASSERT_TRUE(store_->InsertAlert(a).ok());
  }
  void AddSmart(const std::string& drive_id, std::int64_t at, int temperature,
                std::uint64_t pending = 0, std::optional<bool> passed = true) {
    SmartSnapshot s;
    s.protocol = "ATA";
    s.temperature_c = temperature;
    s.power_on_hours = 20000 + (at - kT0) / 3600;
    s.pending_sectors = pending;
    s.health_passed = passed;
    SmartAttribute a;
    a.id = 197;
    a.name = "Current_Pending_Sector";
    a.value = 200;
    a.worst = 200;
    a.thresh = 0;
    a.raw = pending;
    s.attributes.push_back(a);
    a.id = 194;
    a.name = "Temperature_Celsius";
    a.value = 150 - temperature;
    a.raw = static_cast<std::uint64_t>(std::max(0, temperature));
    s.attributes.push_back(a);
    ASSERT_TRUE(store_->InsertSmartSnapshot(drive_id, at, s).ok());
  }

  json Get(const std::string& target, int want = 200) {
    return dp::testing::GetApiJson(*store_, clock_, target, want);
  }
  static const json& Row(const json& overview, const std::string& name) {
    for (const json& d : overview["drives"])
      if (d["name"] == name) return d;
    static const json none;
    ADD_FAILURE() << "no row for " << name;
    return none;
  }

  TempDir tmp_;
  FakeClock clock_;
  std::unique_ptr<Store> store_;
};

// A missing alert (critical) keeps a gone drive "missing", not "failing";
// a retired drive says so.
TEST_F(OverviewTest, MissingAlertAndForgottenDrive) {
  Drive here = AddDrive("sda"), gone = AddDrive("sdf"), sold = AddDrive("sdh");
  KeepPresent({here.id});
  AddAlert(gone.id, "missing", "critical", "sdf has been missing for 2 days");
  ASSERT_TRUE(store_->ForgetDrive(sold.id, 1764460800, "sold").ok());
  json j = Get("/api/v1/overview");
  EXPECT_EQ(Row(j, "sdf")["status"], "missing");
  EXPECT_EQ(Row(j, "sdf")["reason"], "sdf has been missing for 2 days");
  EXPECT_EQ(Row(j, "sdh")["status"], "missing");
  EXPECT_EQ(Row(j, "sdh")["reason"], "retired 2025-11-30: sold");
}

// A detached drive with an older told warning and a critical "missing"
// alert shows the worst news: missing, not the warning.
TEST_F(OverviewTest, MissingOutranksAnOlderWarning) {
  Drive here = AddDrive("sda"), gone = AddDrive("sdf");
  KeepPresent({here.id});
  AddAlert(gone.id, "smart:temperature", "warning", "sdf: 58 °C");
  AddAlert(gone.id, "missing", "critical", "sdf has been missing for 2 days");
  json j = Get("/api/v1/overview");
  EXPECT_EQ(Row(j, "sdf")["status"], "missing");
  EXPECT_EQ(Row(j, "sdf")["reason"], "sdf has been missing for 2 days");
}

TEST_F(OverviewTest, EmptyStoreAnswersEmptyLists) {
  json j = Get("/api/v1/overview");
  EXPECT_EQ(j["drives"], json::array());
  EXPECT_EQ(j["pools"], json::array());
  EXPECT_EQ(j["alerts"]["open"], 0);
  EXPECT_EQ(Get("/api/v1/pools"), json::array());
}

TEST_F(OverviewTest, BadgesComeFromStoredAlertsAndSortWorstFirst) {
  Drive good = AddDrive("sda"), slow = AddDrive("sdb"), bad = AddDrive("sdc");
  Drive watch = AddDrive("sdd"), sleepy = AddDrive("sde"), lost = AddDrive("sdf");
  Drive failed_smart = AddDrive("sdg"), doubt = AddDrive("sdi");
  KeepPresent({good.id, slow.id, bad.id, watch.id, sleepy.id, failed_smart.id, doubt.id});
  for (int i = 0; i < 12; ++i) AddSeqRun(good.id, kT0 + i * kWeek, 200 + (i % 3));
  for (int i = 0; i < 10; ++i) AddSeqRun(slow.id, kT0 + i * kWeek, 200 + (i % 2));
  AddSeqRun(slow.id, kT0 + 10 * kWeek, 160);
  AddAlert(slow.id, "slowdown:seq:qd8-1m:mb_per_s", "warning", "sdb: seq 20% below baseline");
  AddAlert(bad.id, "smart:reallocated", "critical", "sdc: 120 reallocated sectors");
  AddAlert(watch.id, "smart:pending", "warning", "sdd: 8 pending sectors", "acknowledged");
  // Opened below the bar for telling: a watch, not an alarm.
  AddAlert(doubt.id, "slowdown:drive", "warning", "sdi: seq 6% below baseline", "open", 0);
  AddSmart(good.id, kT0, 35);
  AddSmart(failed_smart.id, kT0, 41, 0, false);
  dp::Run nap;
  nap.drive_id = sleepy.id;
  nap.test = "smart";
  nap.started_at = kT0;
  nap.outcome = RunOutcome::kOk;
  nap.reason = "asleep: not woken";
  ASSERT_TRUE(store_->InsertRun(nap).ok());

  json j = Get("/api/v1/overview");
  std::vector<std::string> order;
  for (const json& d : j["drives"]) order.push_back(d["name"].get<std::string>() + "=" +
                                                    d["status"].get<std::string>());
  EXPECT_EQ(order, (std::vector<std::string>{"sdc=failing", "sdg=failing", "sdf=missing",
                                             "sdb=slowing", "sdd=warning", "sdi=watching",
                                             "sde=asleep", "sda=healthy"}));
  EXPECT_EQ(Row(j, "sdc")["reason"], "sdc: 120 reallocated sectors");
  EXPECT_EQ(Row(j, "sdg")["reason"], "SMART overall health self-assessment: FAILED");
  EXPECT_EQ(Row(j, "sdb")["reason"], "sdb: seq 20% below baseline");
  EXPECT_EQ(Row(j, "sdb")["alerts"]["open"], 1);
  EXPECT_EQ(Row(j, "sdb")["alerts"]["kinds"], json::array({"slowdown"}));
  EXPECT_EQ(Row(j, "sdd")["alerts"]["acknowledged"], 1);
  EXPECT_EQ(Row(j, "sde")["reason"], "asleep: not woken");
  EXPECT_NE(Row(j, "sdf")["reason"].get<std::string>().find("not seen by discovery since"),
            std::string::npos);
  EXPECT_EQ(j["alerts"]["open"], 3);
  EXPECT_EQ(j["alerts"]["acknowledged"], 1);

  const json& a = Row(j, "sda");
  EXPECT_EQ(a["temperature_c"], 35);
  EXPECT_EQ(a["power_on_hours"], 20000);
  EXPECT_EQ(a["size_bytes"], 4000787030016ULL);
  ASSERT_TRUE(a["read"].is_object());
  EXPECT_EQ(a["read"]["test"], "seq");
  EXPECT_EQ(a["read"]["series"], "qd8-1m");
  EXPECT_NEAR(a["read"]["percent"].get<double>(), 100, 1.5);
  EXPECT_EQ(a["trend"].size(), 12u);
  // The slowed drive's figure is its newest run against the baseline before.
  EXPECT_NEAR(Row(j, "sdb")["read"]["percent"].get<double>(), 80, 1);
  EXPECT_TRUE(Row(j, "sdc")["read"].is_null());
  EXPECT_EQ(Row(j, "sdc")["trend"], json::array());
  EXPECT_TRUE(Row(j, "sdc")["temperature_c"].is_null());
}

TEST_F(OverviewTest, ReadFigureSkipsContendedRunsAndSaysWhenThereIsNoGoodOne) {
  Drive a = AddDrive("sda"), b = AddDrive("sdb"), z = AddDrive("sdz"), zero = AddDrive("sdy");
  for (int i = 0; i < 8; ++i) AddSeqRun(a.id, kT0 + i * kWeek, 150);
  AddSeqRun(a.id, kT0 + 8 * kWeek, 40, /*contended=*/true);
  for (int i = 0; i < 3; ++i) AddSeqRun(b.id, kT0 + i * kWeek, 150, /*contended=*/true);
  for (int i = 0; i < 8; ++i) AddSeqRun(z.id, kT0 + i * kWeek, 180, false, "zones");
  for (int i = 0; i < 8; ++i) AddSeqRun(zero.id, kT0 + i * kWeek, 0);
  json j = Get("/api/v1/overview");
  const json& ra = Row(j, "sda")["read"];
  EXPECT_EQ(ra["good"], true);
  EXPECT_DOUBLE_EQ(ra["value"].get<double>(), 150);
  EXPECT_EQ(Row(j, "sda")["trend"].size(), 9u);
  EXPECT_EQ(Row(j, "sda")["trend"][8], json::array({kT0 + 8 * kWeek, 40.0, 1}));
  EXPECT_EQ(Row(j, "sda")["trend"][7][2], 0);
  const json& rb = Row(j, "sdb")["read"];
  EXPECT_EQ(rb["good"], false);
  EXPECT_TRUE(rb["percent"].is_null());
  EXPECT_TRUE(rb["baseline_median"].is_null());
  // zones only: the outer zone is the headline.
  const json& rz = Row(j, "sdz")["read"];
  EXPECT_EQ(rz["test"], "zones");
  EXPECT_EQ(rz["series"], "outer");
  EXPECT_DOUBLE_EQ(rz["value"].get<double>(), 180);
  EXPECT_EQ(Row(j, "sdz")["trend"].size(), 8u);
  // 0 MB/s runs: the store keeps no zero rate, so there is no figure (and
  // no percentage of a zero baseline), not a 0% badge.
  EXPECT_TRUE(Row(j, "sdy")["read"].is_null());
  EXPECT_EQ(Row(j, "sdy")["status"], "healthy");
}

TEST_F(OverviewTest, PoolsHaveRolesCountersScanAndDriveNames) {
  Drive a = AddDrive("sda"), b = AddDrive("sdb"), log = AddDrive("nvme0n1");
  Pool p;
  p.name = "tank";
  p.state = "DEGRADED";
  p.scan.function = "resilver";
  p.scan.state = "in_progress";
  p.scan.percent = 42.5;
  p.scan.text = "resilver in progress since Sun";
  Vdev data{"raidz2-0", "raidz2", "data", "DEGRADED", {}};
  PoolMember m;
  m.path = "/dev/sda1";
  m.drive_id = a.id;
  m.state = "ONLINE";
  m.read_errors = 0;
  m.write_errors = 0;
  m.checksum_errors = 3;
  data.members.push_back(m);
  m.path = "/dev/sdb1";
  m.drive_id = b.id;
  m.state = "FAULTED";
  m.checksum_errors = 0;
  data.members.push_back(m);
  m.path = "/dev/disk/by-id/gone";
  m.drive_id = "";
  m.state = "UNAVAIL";
  m.read_errors.reset();
  data.members.push_back(m);
  Vdev slog{"nvme0n1", "disk", "log", "ONLINE", {}};
  m = PoolMember{};
  m.path = "/dev/nvme0n1";
  m.drive_id = log.id;
  m.state = "ONLINE";
  slog.members.push_back(m);
  p.vdevs = {data, slog};
  ASSERT_TRUE(store_->RecordPools({p}, kT0).ok());

  json pools = Get("/api/v1/pools");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0]["name"], "tank");
  EXPECT_EQ(pools[0]["scan"]["function"], "resilver");
  EXPECT_DOUBLE_EQ(pools[0]["scan"]["percent"].get<double>(), 42.5);
  EXPECT_EQ(pools[0]["scan"]["text"], "resilver in progress since Sun");
  ASSERT_EQ(pools[0]["vdevs"].size(), 2u);
  const json& members = pools[0]["vdevs"][0]["members"];
  EXPECT_EQ(members[0]["drive_name"], "sda");
  EXPECT_EQ(members[0]["checksum_errors"], 3);
  EXPECT_EQ(members[1]["state"], "FAULTED");
  EXPECT_TRUE(members[2]["drive_name"].is_null());
  EXPECT_TRUE(members[2]["read_errors"].is_null());
  EXPECT_EQ(pools[0]["vdevs"][1]["role"], "log");
  EXPECT_EQ(pools[0]["vdevs"][1]["members"][0]["drive_name"], "nvme0n1");

  json j = Get("/api/v1/overview");
  EXPECT_EQ(j["pools"], pools);
  ASSERT_EQ(Row(j, "nvme0n1")["pools"].size(), 1u);
  EXPECT_EQ(Row(j, "nvme0n1")["pools"][0]["role"], "log");
  EXPECT_EQ(Row(j, "sdb")["pools"][0]["vdev"], "raidz2-0");
  EXPECT_EQ(Row(j, "sdb")["pools"][0]["state"], "FAULTED");
}

// A real capture whose raw values are packed (HGST HUS724020ALE640): the
// drive's attributes carry smartctl's reading beside the 48-bit number, and
// the history's raw_shown is the number a chart of them draws.
TEST_F(OverviewTest, PackedRawValuesAreShownAsSmartctlShowsThem) {
  Drive a = AddDrive("sda");
  auto reading = ParseSmartctlOutput(
      dp::testing::ReadFile(dp::testing::FixturePath("smartctl/ata-hdd-hgst-HUS724020ALE640-crc-errors-exit64.json")));
  ASSERT_TRUE(reading.ok()) << reading.status().ToString();
  ASSERT_TRUE(store_->InsertSmartSnapshot(a.id, kT0, reading->snapshot).ok());
  ASSERT_TRUE(store_->InsertSmartSnapshot(a.id, kT0 + 3600, reading->snapshot).ok());

  json drive = Get("/api/v1/drives/sda");
  json temp;
  for (const json& attr : drive["smart"]["attributes"])
    if (attr["id"] == 194) temp = attr;
  ASSERT_TRUE(temp.is_object()) << drive["smart"].dump();
  EXPECT_EQ(temp["raw"], 176094511130u);
  EXPECT_EQ(temp["raw_string"], "26 (Min/Max 13/41)");
  EXPECT_EQ(temp["raw_shown"], 26);

  json h = Get("/api/v1/drives/sda/smart");
  json spin;
  for (const json& attr : h["attributes"])
    if (attr["id"] == 3) spin = attr;
  ASSERT_TRUE(spin.is_object()) << h.dump();
  EXPECT_EQ(spin["raw"], json::parse("[38682755495, 38682755495]"));
  EXPECT_EQ(spin["raw_shown"], json::parse("[423, 423]"));
}

TEST_F(OverviewTest, SmartHistoryIsSpreadOverTimeOldestFirst) {
  Drive a = AddDrive("sda");
  AddDrive("sdb");  // no SMART at all
  const int n = 600;  // 100 days every 4 h
  for (int i = 0; i < n; ++i) AddSmart(a.id, kT0 + i * 4 * 3600, 30 + i % 10, i / 100);
  const std::int64_t newest = kT0 + (n - 1) * 4 * 3600;

  json all = Get("/api/v1/drives/sda/smart?points=5000");
  EXPECT_EQ(all["at"].size(), static_cast<std::size_t>(n));

  json j = Get("/api/v1/drives/sda/smart?points=50");
  const json& at = j["at"];
  ASSERT_GE(at.size(), 40u);
  ASSERT_LE(at.size(), 51u);
  // The newest of each of 50 slices of ~2 days: the first is in the first slice.
  EXPECT_GE(at.front().get<std::int64_t>(), kT0);
  EXPECT_LT(at.front().get<std::int64_t>(), kT0 + 2 * 86400 + 1);
  EXPECT_EQ(at.back(), newest);
  for (std::size_t i = 1; i < at.size(); ++i)
    EXPECT_LT(at[i - 1].get<std::int64_t>(), at[i].get<std::int64_t>());
  // Every figure is an array aligned with `at`: entry i is snapshot i's.
  const json& f = j["figures"];
  for (const char* name : {"temperature_c", "power_on_hours", "health_passed",
                           "reallocated_sectors", "pending_sectors", "offline_uncorrectable",
                           "reported_uncorrectable", "command_timeouts", "udma_crc_errors",
                           "nvme_percentage_used", "nvme_media_errors", "nvme_available_spare"}) {
    ASSERT_TRUE(f.contains(name)) << name;
    EXPECT_EQ(f[name].size(), at.size()) << name;
  }
  for (std::size_t i = 0; i < at.size(); ++i) {
    const std::int64_t k = (at[i].get<std::int64_t>() - kT0) / (4 * 3600);
    EXPECT_EQ(f["temperature_c"][i], 30 + k % 10) << i;
    EXPECT_EQ(f["pending_sectors"][i], k / 100) << i;
    EXPECT_EQ(f["power_on_hours"][i], 20000 + k * 4) << i;
    EXPECT_EQ(f["health_passed"][i], true) << i;
  }
  EXPECT_EQ(f["pending_sectors"].back(), 5);
  EXPECT_TRUE(f["nvme_percentage_used"].back().is_null());
  EXPECT_TRUE(f["reallocated_sectors"].back().is_null());
  ASSERT_EQ(j["attributes"].size(), 2u);
  const json& pending = j["attributes"][0];
  EXPECT_EQ(pending["id"], 197);
  EXPECT_EQ(pending["name"], "Current_Pending_Sector");
  ASSERT_EQ(pending["value"].size(), at.size());
  ASSERT_EQ(pending["raw"].size(), at.size());
  EXPECT_EQ(pending["raw"].back(), 5);
  const json& temp = j["attributes"][1];
  EXPECT_EQ(temp["id"], 194);
  EXPECT_EQ(temp["name"], "Temperature_Celsius");
  for (std::size_t i = 0; i < at.size(); ++i) {
    EXPECT_EQ(pending["raw"][i], f["pending_sectors"][i]) << i;
    EXPECT_EQ(pending["value"][i], 200) << i;
    EXPECT_EQ(temp["raw"][i], f["temperature_c"][i]) << i;
    EXPECT_EQ(temp["value"][i], 150 - f["temperature_c"][i].get<int>()) << i;
  }

  // since: only the last day (6 snapshots).
  json day = Get("/api/v1/drives/sda/smart?since=" + std::to_string(newest - 86400 + 1));
  EXPECT_EQ(day["at"].size(), 6u);
  EXPECT_EQ(day["figures"]["temperature_c"].size(), 6u);
  EXPECT_EQ(day["attributes"][0]["raw"].size(), 6u);
  // A range far beyond the data and a drive with no SMART: empty, not an error.
  json beyond = Get("/api/v1/drives/sda/smart?since=99999999999");
  EXPECT_EQ(beyond["at"], json::array());
  EXPECT_EQ(beyond["figures"]["temperature_c"], json::array());
  EXPECT_EQ(beyond["attributes"], json::array());
  json none = Get("/api/v1/drives/sdb/smart");
  EXPECT_EQ(none["at"], json::array());
  EXPECT_EQ(none["figures"]["pending_sectors"], json::array());
  EXPECT_EQ(none["attributes"], json::array());

  Get("/api/v1/drives/sdq/smart", 404);
  Get("/api/v1/drives/sda/smart?points=1", 400);
  Get("/api/v1/drives/sda/smart?points=0", 400);
  Get("/api/v1/drives/sda/smart?points=5001", 400);
  Get("/api/v1/drives/sda/smart?points=100000", 400);
  Get("/api/v1/drives/sda/smart?points=99999999999999999999999", 400);
  Get("/api/v1/drives/sda/smart?points=-3", 400);
  Get("/api/v1/drives/sda/smart?since=yesterday", 400);
}

// An attribute a drive starts or stops reporting: its arrays stay aligned
// with the time axis, null where a snapshot does not have it.
TEST_F(OverviewTest, SmartHistoryAttributesAreAlignedWithNullWhereMissing) {
  Drive a = AddDrive("sda");
  for (int i = 0; i < 6; ++i) {
    SmartSnapshot s;
    s.protocol = "ATA";
    s.temperature_c = i == 2 ? std::nullopt : std::optional<int>(40 + i);
    auto attribute = [](int id, const char* name, std::optional<int> value, int raw) {
      SmartAttribute attr;
      attr.id = id;
      attr.name = name;
      attr.value = value;
      attr.raw = static_cast<std::uint64_t>(raw);
      return attr;
    };
    if (i < 4) s.attributes.push_back(attribute(5, "Reallocated_Sector_Ct", 100, i));  // gone later
    if (i >= 3)  // appears in the fourth, without a normalised value
      s.attributes.push_back(attribute(199, "UDMA_CRC_Error_Count", std::nullopt, 10 * i));
    ASSERT_TRUE(store_->InsertSmartSnapshot(a.id, kT0 + i * 3600, s).ok());
  }
  json j = Get("/api/v1/drives/sda/smart");
  ASSERT_EQ(j["at"].size(), 6u);
  EXPECT_EQ(j["figures"]["temperature_c"], json::parse("[40, 41, null, 43, 44, 45]"));
  ASSERT_EQ(j["attributes"].size(), 2u);
  EXPECT_EQ(j["attributes"][0]["id"], 5);
  EXPECT_EQ(j["attributes"][0]["name"], "Reallocated_Sector_Ct");
  EXPECT_EQ(j["attributes"][0]["raw"], json::parse("[0, 1, 2, 3, null, null]"));
  EXPECT_EQ(j["attributes"][0]["value"], json::parse("[100, 100, 100, 100, null, null]"));
  EXPECT_EQ(j["attributes"][1]["id"], 199);
  EXPECT_EQ(j["attributes"][1]["name"], "UDMA_CRC_Error_Count");
  EXPECT_EQ(j["attributes"][1]["raw"], json::parse("[null, null, null, 30, 40, 50]"));
  EXPECT_EQ(j["attributes"][1]["value"], json::parse("[null, null, null, null, null, null]"));
}

TEST_F(OverviewTest, AbsurdSmartValuesPassThroughAsNumbers) {
  Drive a = AddDrive("sda");
  AddSmart(a.id, kT0, -40);
  json j = Get("/api/v1/overview");
  EXPECT_EQ(Row(j, "sda")["temperature_c"], -40);
  EXPECT_EQ(Get("/api/v1/drives/sda/smart")["figures"]["temperature_c"][0], -40);
}

}  // namespace
}  // namespace dp::http
