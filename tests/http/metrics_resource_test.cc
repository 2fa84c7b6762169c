// GET /metrics over a real store (MetricsFleet): names and units by the
// Prometheus conventions, SMART absent (not 0) where a drive reports nothing,
// detection state equal to what the history endpoint shows, counters, label
// escaping, promtool's own lint, and a locked database (diskpulse_db_up 0).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "http/metrics_fleet_util.h"
#include "model/condition.h"
#include "support/capability.h"

namespace dp::http {
namespace {

using dp::testing::MetricsFleet;
using dp::testing::SampleValue;

class MetricsResourceTest : public ::testing::Test {
 protected:
  std::string Id(const Drive& d) { return "drive=\"" + d.id + "\""; }
  MetricsFleet fleet_;
};

TEST_F(MetricsResourceTest, PromtoolFindsNothingToLint) {
  std::string text = fleet_.Scrape();
  std::string file = fleet_.tmp().Write("metrics.prom", text);
  auto r = dp::testing::RunPromtool({"check", "metrics"}, file);
  if (!r)
    DP_SKIP_WITHOUT("promtool",
                    "promtool is not installed (Debian package prometheus; scripts/setup.sh)");
  EXPECT_EQ(r->first, 0) << r->second << "\n" << text;
  EXPECT_EQ(r->second, "") << text;
}

TEST_F(MetricsResourceTest, FiguresAreInBaseUnits) {
  std::string t = fleet_.Scrape();
  const std::string seq = Id(fleet_.sda) + ",test=\"seq\",series=\"qd8-1m\"";
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_read_bytes_per_second{" + seq + "}"), 160e6) << t;
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_read_latency_p99_seconds{" + seq + "}"), 0.005);
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_access_time_seconds{" + Id(fleet_.sda) +
                               ",test=\"seek\",series=\"full\"}"),
            0.0145);
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_read_operations_per_second{" + Id(fleet_.nvme) +
                               ",test=\"random\",series=\"qd32-4k\"}"),
            95000);
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_last_run_timestamp_seconds{" + Id(fleet_.sda) +
                               ",test=\"seq\"}"),
            1700000000 + 7 * 86400);
  EXPECT_EQ(t.find("mb_per_second"), std::string::npos);
  EXPECT_EQ(t.find("_ms{"), std::string::npos);
}

TEST_F(MetricsResourceTest, SmartSeriesOnlyWhereTheDriveReportsThem) {
  std::string t = fleet_.Scrape();
  const std::string sda = "{" + Id(fleet_.sda) + "}";
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_smart_healthy" + sda), 1);
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_temperature_celsius" + sda), 38);
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_power_on_seconds" + sda), 21000.0 * 3600);
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_reallocated_sectors" + sda), 8);
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_pending_sectors" + sda), 0);  // a real 0
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_offline_uncorrectable_sectors" + sda), 0);
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_crc_errors" + sda), 3);
  EXPECT_FALSE(SampleValue(t, "diskpulse_drive_nvme_percentage_used_ratio" + sda));
  EXPECT_FALSE(SampleValue(t, "diskpulse_drive_command_timeouts" + sda));  // not reported

  const std::string nv = "{" + Id(fleet_.nvme) + "}";
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_nvme_percentage_used_ratio" + nv), 0.07);
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_nvme_available_spare_ratio" + nv), 1);
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_media_errors" + nv), 0);
  EXPECT_FALSE(SampleValue(t, "diskpulse_drive_reallocated_sectors" + nv));

  // The drive without any snapshot has no SMART series at all.
  for (const char* name : {"smart_healthy", "smart_timestamp_seconds", "temperature_celsius",
                           "power_on_seconds", "reallocated_sectors", "pending_sectors",
                           "crc_errors", "media_errors"})
    EXPECT_FALSE(SampleValue(t, std::string("diskpulse_drive_") + name + "{" + Id(fleet_.gone) +
                                    "}"))
        << name;
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_present{" + Id(fleet_.gone) + "}"), 0);
}

TEST_F(MetricsResourceTest, BaselineIsTheOneTheHistoryEndpointShows) {
  std::string t = fleet_.Scrape();
  auto history = nlohmann::json::parse(
      BuildApiRouter(fleet_.Context())
          ->Route(Request::Make(Method::kGet,
                                "/api/v1/drives/sda/history?test=seq&metric=mb_per_s"))
          .body);
  ASSERT_EQ(history["series"].size(), 1u) << history.dump();
  const auto& b = history["series"][0]["baseline"];
  ASSERT_TRUE(b.is_object()) << history.dump();
  const std::string l = Id(fleet_.sda) + ",test=\"seq\",series=\"qd8-1m\"";
  auto base = SampleValue(t, "diskpulse_drive_baseline_read_bytes_per_second{" + l + "}");
  ASSERT_TRUE(base) << t;
  EXPECT_DOUBLE_EQ(*base, b["median"].get<double>() * 1e6);
  EXPECT_DOUBLE_EQ(*SampleValue(t, "diskpulse_drive_baseline_low_read_bytes_per_second{" + l + "}"),
                   b["low"].get<double>() * 1e6);
  EXPECT_DOUBLE_EQ(
      *SampleValue(t, "diskpulse_drive_baseline_high_read_bytes_per_second{" + l + "}"),
      b["high"].get<double>() * 1e6);
  const std::string ml = l + ",metric=\"mb_per_s\"";
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_baseline_ready{" + ml + "}"), 1);
  auto ratio = SampleValue(t, "diskpulse_drive_baseline_ratio{" + ml + "}");
  ASSERT_TRUE(ratio);
  EXPECT_DOUBLE_EQ(*ratio, 160 / b["median"].get<double>());
  EXPECT_LT(*ratio, 0.85);
  // A single run is no baseline yet: not ready.
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_baseline_ready{" + Id(fleet_.nvme) +
                               ",test=\"random\",series=\"qd32-4k\",metric=\"iops\"}"),
            0);
}

// The zones' combined series (the geometric mean of the zones, which
// detection judges beside them) has its baseline gauges too, equal to the
// history endpoint's.
TEST_F(MetricsResourceTest, ZonesCombinedSeriesHasItsBaseline) {
  const double level[] = {250, 200, 120};
  const char* name[] = {"outer", "middle", "inner"};
  for (int i = 0; i < 6; ++i) {
    std::vector<BenchPoint> zones;
    for (int z = 0; z < 3; ++z) {
      BenchPoint p;
      p.test = "zones";
      p.zone = name[z];
      p.block_size = 1 << 20;
      p.queue_depth = 1;
      p.bytes = 1 << 28;
      p.seconds = 1;
      p.mb_per_s = level[z] * (i % 2 ? 1.02 : 0.98);
      zones.push_back(p);
    }
    ASSERT_GT(fleet_.AddRun(fleet_.sda, "zones", RunOutcome::kOk, 1700000000 + i * 86400 + 900,
                            zones),
              0);
  }
  std::string t = fleet_.Scrape();
  auto history = nlohmann::json::parse(
      BuildApiRouter(fleet_.Context())
          ->Route(Request::Make(Method::kGet,
                                "/api/v1/drives/sda/history?test=zones&metric=mb_per_s"))
          .body);
  ASSERT_EQ(history["series"].size(), 4u) << history.dump();
  const auto& b = history["series"][3]["baseline"];
  ASSERT_EQ(history["series"][3]["key"], "combined");
  const std::string l = Id(fleet_.sda) + ",test=\"zones\",series=\"combined\"";
  auto base = SampleValue(t, "diskpulse_drive_baseline_read_bytes_per_second{" + l + "}");
  ASSERT_TRUE(base) << t;
  EXPECT_DOUBLE_EQ(*base, b["median"].get<double>() * 1e6);
  auto ratio = SampleValue(t, "diskpulse_drive_baseline_ratio{" + l + ",metric=\"mb_per_s\"}");
  ASSERT_TRUE(ratio) << t;
  EXPECT_NEAR(*ratio, std::cbrt(250.0 * 200 * 120) * 1.02 / b["median"].get<double>(), 1e-9);
}

// An open alert of every kind the detectors raise is counted on its drive,
// the vdev-wide environment one included (it is filed under one member).
TEST_F(MetricsResourceTest, EveryAlertKindIsReportedPerDrive) {
  for (ConditionKind kind_kind : kConditionKinds) {
    const std::string_view kind = ConditionKindName(kind_kind);
    Alert a;
    a.drive_id = fleet_.nvme.id;
    a.condition = std::string(kind) + ":tank/raidz2-0:seq:qd8-1m:mb_per_s";
    a.severity = "warning";
    a.summary = "open";
    a.evidence_json = "{}";
    a.opened_at = a.updated_at = 1700000000;
    a.notify_count = 1;
    ASSERT_TRUE(fleet_.store().InsertAlert(a).ok());
  }
  const std::string t = fleet_.Scrape();
  for (ConditionKind kind_kind : kConditionKinds) {
    const std::string_view kind = ConditionKindName(kind_kind);
    EXPECT_EQ(SampleValue(t, "diskpulse_drive_alerts_active{" + Id(fleet_.nvme) + ",kind=\"" +
                                 std::string(kind) + "\"}"),
              1)
        << kind;
    EXPECT_EQ(SampleValue(t, "diskpulse_drive_alerts_active{" + Id(fleet_.sda) + ",kind=\"" +
                                 std::string(kind) + "\"}"),
              kind == "slowdown" ? 1 : 0)
        << kind;
  }
  EXPECT_EQ(SampleValue(t, "diskpulse_alerts_opened_total{kind=\"environment\"}"), 1);
}

// Every active alert is a series of its own with its standing, whatever it
// is about: a pool's, a scrub's and the box's too (they have no drive, so
// no per-drive count can carry them). A watch is there as "watching" and
// is not counted on its drive as an alarm.
TEST_F(MetricsResourceTest, EveryAlertIsASeriesWithItsStandingAndPlace) {
  struct Case {
    std::string drive, condition, severity, evidence;
    int notified;
  };
  const std::vector<Case> cases = {
      {"", "scrub:tank:overdue", "warning", "{}", 1},
      {"", "pool:tank:state", "critical", "{}", 1},
      {"", "environment:box", "warning",
       R"({"condition":"environment:tank/raidz2-0:seq:qd8-1m:mb_per_s"})", 1},
      {fleet_.nvme.id, "trend:drive", "warning", "{}", 0},
  };
  for (const Case& c : cases) {
    Alert a;
    a.drive_id = c.drive;
    a.condition = c.condition;
    a.severity = c.severity;
    a.summary = "open";
    a.evidence_json = c.evidence;
    a.opened_at = a.updated_at = 1700000000;
    a.notify_count = c.notified;
    ASSERT_TRUE(fleet_.store().InsertAlert(a).ok());
  }
  const std::string t = fleet_.Scrape();
  EXPECT_EQ(SampleValue(t, R"(diskpulse_alert{kind="scrub",condition="scrub:tank:overdue",)"
                           R"(severity="warning",state="notified",drive="",pool="tank",vdev=""})"),
            1)
      << t;
  EXPECT_EQ(SampleValue(t, R"(diskpulse_alert{kind="pool",condition="pool:tank:state",)"
                           R"(severity="critical",state="notified",drive="",pool="tank",vdev=""})"),
            1);
  EXPECT_EQ(SampleValue(t, R"(diskpulse_alert{kind="environment",condition="environment:box",)"
                           R"(severity="warning",state="notified",drive="",pool="tank",)"
                           R"(vdev="tank/raidz2-0"})"),
            1);
  EXPECT_EQ(SampleValue(t, R"(diskpulse_alert{kind="trend",condition="trend:drive",)"
                           R"(severity="warning",state="watching",drive=")" +
                               fleet_.nvme.id + R"(",pool="",vdev=""})"),
            1);
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_alerts_active{" + Id(fleet_.nvme) + ",kind=\"trend\"}"),
            0);
  EXPECT_EQ(SampleValue(t, "diskpulse_alerts_active{severity=\"warning\",state=\"watching\"}"),
            1);
}

TEST_F(MetricsResourceTest, CountersAndAlertsByKind) {
  std::string t = fleet_.Scrape();
  EXPECT_EQ(SampleValue(t, "diskpulse_runs_total{outcome=\"ok\"}"), 11);
  EXPECT_EQ(SampleValue(t, "diskpulse_runs_total{outcome=\"failed\"}"), 1);
  EXPECT_EQ(SampleValue(t, "diskpulse_runs_total{outcome=\"cancelled\"}"), 0);
  EXPECT_EQ(SampleValue(t, "diskpulse_runs{state=\"queued\"}"), 1);
  EXPECT_EQ(SampleValue(t, "diskpulse_alerts_opened_total{kind=\"slowdown\"}"), 1);
  EXPECT_EQ(SampleValue(t, "diskpulse_alerts_opened_total{kind=\"smart\"}"), 1);
  EXPECT_EQ(SampleValue(t, "diskpulse_alerts_active{severity=\"warning\",state=\"notified\"}"),
            1);
  EXPECT_EQ(SampleValue(t, "diskpulse_alerts_active{severity=\"warning\",state=\"watching\"}"),
            0);
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_alerts_active{" + Id(fleet_.sda) +
                               ",kind=\"slowdown\"}"),
            1);
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_alerts_active{" + Id(fleet_.sda) + ",kind=\"smart\"}"),
            0);  // resolved
  EXPECT_EQ(SampleValue(t, "diskpulse_notifications_sent_total{sink=\"webhook-0\"}"), 1);
  EXPECT_EQ(SampleValue(t, "diskpulse_notifications_failed_total{sink=\"webhook-0\"}"), 0);
  EXPECT_EQ(SampleValue(t, R"(diskpulse_notifications_failed_total{sink="mail \"ops\""})"), 1);
  EXPECT_EQ(SampleValue(t, "diskpulse_db_up"), 1);
  // Counters are typed as such, with the _total suffix.
  EXPECT_NE(t.find("# TYPE diskpulse_runs_total counter\n"), std::string::npos);
  EXPECT_NE(t.find("# TYPE diskpulse_alerts_opened_total counter\n"), std::string::npos);
}

TEST_F(MetricsResourceTest, IdentityOnlyInInfoWithEscapedValues) {
  std::string t = fleet_.Scrape();
  EXPECT_EQ(SampleValue(t, "diskpulse_drive_info{" + Id(fleet_.sda) +
                               ",name=\"sda\",dev_path=\"/dev/sda\",model=\"ST4000VN008-2DR166\","
                               "serial=\"ZDH1ABCD\",firmware=\"SC60\",transport=\"sata\"}"),
            1)
      << t;
  EXPECT_NE(t.find(R"(model="Odd \"Model\" \\ with\nnewline")"), std::string::npos) << t;
  // Names, models and serials are on diskpulse_drive_info only; every other
  // per-drive series carries the stable id.
  std::istringstream lines(t);
  std::string line;
  int info = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("diskpulse_drive_info{", 0) == 0) {
      ++info;
      continue;
    }
    for (const char* label : {"name=", "model=", "serial=", "dev_path="})
      EXPECT_EQ(line.find(label), std::string::npos) << line;
  }
  EXPECT_EQ(info, 3);
}

// Another process holds the database's locks (the WAL read slots and the
// recovery lock of its -shm file, as a process stuck in recovery would): the
// scrape still answers, after one busy wait, with the process series and
// diskpulse_db_up 0; once the lock goes, everything is back.
TEST_F(MetricsResourceTest, LockedDatabaseAnswersWithDbUpZero) {
  std::string shm = fleet_.db_path() + "-shm";
  ASSERT_TRUE(std::filesystem::exists(shm));
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t holder = ::fork();
  if (holder == 0) {
    int fd = ::open(shm.c_str(), O_RDWR);
    struct flock lock = {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    lock.l_start = 122;  // WAL_RECOVER_LOCK and the five WAL_READ_LOCKs
    lock.l_len = 6;
    char ok = (fd >= 0 && ::fcntl(fd, F_SETLK, &lock) == 0) ? 'y' : 'n';
    (void)!::write(ready[1], &ok, 1);
    ::pause();
    ::_exit(0);
  }
  char ok = 0;
  ASSERT_EQ(::read(ready[0], &ok, 1), 1);
  ::close(ready[0]);
  ::close(ready[1]);
  std::string t;
  if (ok == 'y') t = fleet_.Scrape();
  ::kill(holder, SIGKILL);
  ::waitpid(holder, nullptr, 0);
  ASSERT_EQ(ok, 'y') << "could not lock " << shm;
  EXPECT_EQ(SampleValue(t, "diskpulse_db_up"), 0) << t;
  EXPECT_EQ(SampleValue(t, "diskpulse_up"), 1);
  EXPECT_EQ(SampleValue(t, "diskpulse_notifications_sent_total{sink=\"webhook-0\"}"), 1);
  EXPECT_EQ(t.find("diskpulse_drive_"), std::string::npos) << t;

  std::string after = fleet_.Scrape();
  EXPECT_EQ(SampleValue(after, "diskpulse_db_up"), 1) << after;
  EXPECT_TRUE(SampleValue(after, "diskpulse_drive_present{" + Id(fleet_.sda) + "}"));
}

}  // namespace
}  // namespace dp::http
