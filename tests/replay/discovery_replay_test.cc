// Record/replay end to end: the replaying and recording runners, discovery
// of a recorded NAS into a Store (and its re-baseline after a firmware
// change), and the CLI with --replay and `record`.
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <thread>

#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "alert/alert_service.h"
#include "base/fake_clock.h"
#include "base/recording_command_runner.h"
#include "base/replay_command_runner.h"
#include "inventory/inventory.h"
#include "replay/nas_recording_util.h"
#include "watch/discovery.h"
#include "runs/smart_jobs.h"
#include "runs/store_alert_repository.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

namespace fs = std::filesystem;
using ::dp::testing::TempDir;

CommandSpec Spec(std::vector<std::string> argv) {
  CommandSpec s;
  s.argv = std::move(argv);
  return s;
}

TEST(ReplayCommandRunnerTest, AnswersInOrderAndRepeatsTheLast) {
  ReplayCommandRunner r;
  r.AddOutput({"zpool", "status"}, "one");
  r.AddOutput({"zpool", "status"}, "two", 1, "err");
  EXPECT_EQ(r.Run(Spec({"zpool", "status"}))->stdout_text, "one");
  auto second = r.Run(Spec({"/sbin/zpool", "status"}));  // argv[0] compared by basename
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->stdout_text, "two");
  EXPECT_EQ(second->exit_code, 1);
  EXPECT_EQ(second->stderr_text, "err");
  EXPECT_EQ(r.Run(Spec({"zpool", "status"}))->stdout_text, "two");
  auto missing = r.Run(Spec({"zpool", "list"}));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("zpool list: not in"), std::string::npos);
  EXPECT_EQ(r.calls().size(), 4u);
}

TEST(RecordingCommandRunnerTest, RecordsWhatReplays) {
  TempDir t;
  ReplayCommandRunner inner;
  inner.AddOutput({"smartctl", "-x", "-j", "/dev/sda"}, "{\"a\":1}\nline with 'quotes'\n", 64, "warn");
  inner.AddError({"smartctl", "-x", "-j", "/dev/sdb"}, Timeout("smartctl: no answer; killed"));
  inner.AddOutput({"tool", "arg with\nnewline", "back\\slash"}, "x");
  {
    RecordingCommandRunner rec(inner, t.Path("rec"));
    EXPECT_TRUE(rec.Run(Spec({"smartctl", "-x", "-j", "/dev/sda"})).ok());
    EXPECT_FALSE(rec.Run(Spec({"smartctl", "-x", "-j", "/dev/sdb"})).ok());
    EXPECT_TRUE(rec.Run(Spec({"tool", "arg with\nnewline", "back\\slash"})).ok());
    EXPECT_FALSE(rec.Run(Spec({"never", "recorded"})).ok());  // the inner error is recorded too
    EXPECT_EQ(rec.count(), 4);
    EXPECT_TRUE(rec.write_errors().empty());
  }
  auto replay = ReplayCommandRunner::Load(t.Path("rec"));
  ASSERT_TRUE(replay.ok()) << replay.status().ToString();
  auto a = (*replay)->Run(Spec({"smartctl", "-x", "-j", "/dev/sda"}));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->stdout_text, "{\"a\":1}\nline with 'quotes'\n");
  EXPECT_EQ(a->stderr_text, "warn");
  EXPECT_EQ(a->exit_code, 64);
  auto b = (*replay)->Run(Spec({"smartctl", "-x", "-j", "/dev/sdb"}));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), StatusCode::kTimeout);
  EXPECT_EQ(b.status().message(), "smartctl: no answer; killed");
  EXPECT_TRUE((*replay)->Run(Spec({"tool", "arg with\nnewline", "back\\slash"})).ok());
  EXPECT_EQ((*replay)->Run(Spec({"never", "recorded"})).status().code(), StatusCode::kNotFound);

  EXPECT_EQ(ReplayCommandRunner::Load(t.Path("nothing-here")).status().code(), StatusCode::kNotFound);
}

class NasReplayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = t_.Path("nas");
    fs::create_directories(dir_);
    testing::WriteNasRecording(dir_);
    auto replay = ReplayCommandRunner::Load(dir_);
    ASSERT_TRUE(replay.ok()) << replay.status().ToString();
    runner_ = std::move(replay).value();
    config_ = ConfigForReplay(Config{}, dir_);
    auto store = Store::Open(t_.Path("db.sqlite"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(store).value();
  }

  TempDir t_;
  std::string dir_;
  std::unique_ptr<ReplayCommandRunner> runner_;
  Config config_;
  std::unique_ptr<Store> store_;
  FakeClock clock_;
};

TEST_F(NasReplayTest, DiscoveryFillsTheStore) {
  auto report = RunDiscovery(config_, *runner_, *store_, clock_);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->Summary(), "5 drives, 2 pools; SMART: 3 read, 1 asleep, 1 failed");
  bool timeout_warned = false;
  for (const auto& w : report->warnings) {
    if (w.find("sdd: SMART: timeout") != std::string::npos) timeout_warned = true;
  }
  EXPECT_TRUE(timeout_warned);
  // The drive is marked with the reason (for the health endpoint), the others not.
  ASSERT_EQ(report->drive_problems.size(), 1u);
  ASSERT_EQ(report->drive_problems.count(testing::kSddId), 1u);
  EXPECT_EQ(report->drive_problems.at(testing::kSddId).rfind("SMART: ", 0), 0u);
  EXPECT_EQ(report->pools_problem, "");

  auto drives = store_->ListDrives();
  ASSERT_TRUE(drives.ok());
  ASSERT_EQ(drives->size(), 5u);
  std::set<std::string> ids;
  for (const auto& d : *drives) {
    ids.insert(d.id);
    EXPECT_TRUE(d.present);
  }
  EXPECT_EQ(ids, (std::set<std::string>{testing::kSdaId, testing::kSdbId, testing::kSdcId,
                                        testing::kSddId, testing::kNvmeId}));

  auto pools = store_->LatestPools();
  ASSERT_TRUE(pools.ok());
  ASSERT_EQ(pools->size(), 2u);
  const Pool& tank = (*pools)[0];
  EXPECT_EQ(tank.name, "tank");
  EXPECT_TRUE(tank.Busy());
  EXPECT_DOUBLE_EQ(*tank.scan.percent, 12.5);
  ASSERT_EQ(tank.vdevs.size(), 1u);
  ASSERT_EQ(tank.vdevs[0].members.size(), 3u);
  EXPECT_EQ(tank.vdevs[0].members[0].drive_id, testing::kSdaId);
  EXPECT_EQ(tank.vdevs[0].members[1].drive_id, testing::kSdbId);
  EXPECT_EQ(tank.vdevs[0].members[2].drive_id, testing::kSdcId);
  EXPECT_EQ(tank.vdevs[0].members[2].checksum_errors, 2u);
  const Pool& md0 = (*pools)[1];
  EXPECT_EQ(md0.kind, "md");
  EXPECT_EQ(md0.vdevs[0].members[0].drive_id, testing::kNvmeId);
  EXPECT_EQ(md0.vdevs[0].members[1].drive_id, testing::kSddId);

  auto sda = store_->LatestSmart(testing::kSdaId);
  ASSERT_TRUE(sda.ok());
  ASSERT_TRUE(sda->has_value());
  EXPECT_EQ((*sda)->temperature_c, 32);
  EXPECT_EQ((*sda)->power_on_hours, 1730u);
  auto nvme = store_->LatestSmart(testing::kNvmeId);
  ASSERT_TRUE(nvme.ok() && nvme->has_value());
  ASSERT_TRUE((*nvme)->nvme.has_value());
  EXPECT_EQ((*nvme)->nvme->media_errors, 7u);
  auto sdc = store_->LatestSmart(testing::kSdcId);  // asleep: nothing stored, not an error
  ASSERT_TRUE(sdc.ok());
  EXPECT_FALSE(sdc->has_value());
}

TEST_F(NasReplayTest, VanishedDriveIsMarkedMissingNotDeleted) {
  ASSERT_TRUE(RunDiscovery(config_, *runner_, *store_, clock_).ok());
  fs::remove(fs::path(dir_) / "sys/block/sdd");  // the disk is pulled
  clock_.Advance(std::chrono::hours(1));
  auto second = RunDiscovery(config_, *runner_, *store_, clock_, {.read_smart = false});
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(second->drives.size(), 4u);
  auto drives = store_->ListDrives();
  ASSERT_TRUE(drives.ok());
  ASSERT_EQ(drives->size(), 5u);
  for (const auto& d : *drives) {
    EXPECT_EQ(d.present, d.id != testing::kSddId) << d.id;
  }
  // md0's member sdd1 no longer maps to a present drive: reported, not guessed.
  bool warned = false;
  for (const auto& w : second->warnings) warned |= w == "pool md0: member sdd1 maps to no known drive";
  EXPECT_TRUE(warned);
}

TEST_F(NasReplayTest, HungZpoolDoesNotHideTheDrives) {
  ReplayCommandRunner hung;
  hung.AddError({"zpool", "status", "-j", "--json-int", "-P"},
                Timeout("zpool status -j --json-int -P: no answer after 60.00 s; killed"));
  auto inv = ReadInventory(config_, hung);
  ASSERT_TRUE(inv.ok()) << inv.status().ToString();
  EXPECT_EQ(inv->drives.size(), 5u);
  EXPECT_EQ(inv->pools_status.code(), StatusCode::kTimeout);
  // Discovery saves the drives and leaves the last recorded pools alone.
  ASSERT_TRUE(RunDiscovery(config_, *runner_, *store_, clock_, {.read_smart = false}).ok());
  auto report = RunDiscovery(config_, hung, *store_, clock_, {.read_smart = false});
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->pools.empty());
  EXPECT_NE(report->pools_problem.find("no answer after 60.00 s; killed"), std::string::npos)
      << report->pools_problem;
  EXPECT_EQ(store_->LatestPools()->size(), 2u);
}

TEST_F(NasReplayTest, SelfTestsHonourBusyPools) {
  ASSERT_TRUE(RunDiscovery(config_, *runner_, *store_, clock_).ok());
  auto drives = store_->ListDrives();
  ASSERT_TRUE(drives.ok());
  const Drive* sda = nullptr;
  const Drive* nvme = nullptr;
  for (const auto& d : *drives) {
    if (d.id == testing::kSdaId) sda = &d;
    if (d.id == testing::kNvmeId) nvme = &d;
  }
  ASSERT_NE(sda, nullptr);
  ASSERT_NE(nvme, nullptr);
  auto refused = StartDriveSelfTest(config_, *runner_, *store_, *sda, SelfTestKind::kShort);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find("pool tank is scrubbing (12.5% done)"), std::string::npos);
  auto started = StartDriveSelfTest(config_, *runner_, *store_, *nvme, SelfTestKind::kShort);
  ASSERT_TRUE(started.ok()) << started.status().ToString();
  EXPECT_TRUE(started->started);
}

TEST_F(NasReplayTest, DiscoveryServiceRunsAtStart) {
  config_.inventory.interval_seconds = 3600;
  DiscoveryService service(config_, *runner_, *store_, clock_);
  service.Start();
  for (int i = 0; i < 500 && service.passes() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  service.Stop();
  EXPECT_EQ(service.passes(), 1);
  EXPECT_TRUE(service.last_status().ok()) << service.last_status().ToString();
  EXPECT_EQ(store_->ListDrives()->size(), 5u);
}

// --- the CLI binary --------------------------------------------------------

struct Ran {
  int exit_code = -1;
  std::string out;
};

Ran RunCli(const std::string& args) {
  Ran r;
  std::string cmd = std::string(DP_CLI_BIN) + " " + args + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST_F(NasReplayTest, CliDrivesPoolsAndSmartFromTheRecording) {
  Ran drives = RunCli("drives --json --replay " + dir_);
  ASSERT_EQ(drives.exit_code, 0) << drives.out;
  auto dj = nlohmann::json::parse(drives.out, nullptr, false);
  ASSERT_TRUE(dj.is_object()) << drives.out;
  ASSERT_EQ(dj["drives"].size(), 5u);
  EXPECT_EQ(dj["drives"][0]["name"], "nvme0n1");
  EXPECT_EQ(dj["drives"][0]["pool"], "md0 md0");
  EXPECT_EQ(dj["drives"][1]["id"], testing::kSdaId);
  EXPECT_EQ(dj["drives"][1]["pool"], "tank raidz1-0");
  EXPECT_EQ(dj["drives"][1]["rotation_rpm"], 5400);

  Ran pools = RunCli("pools --json --replay " + dir_);
  EXPECT_EQ(pools.exit_code, 0) << pools.out;
  auto pj = nlohmann::json::parse(pools.out, nullptr, false);
  ASSERT_TRUE(pj.is_object()) << pools.out;
  EXPECT_EQ(pj["pools"][0]["scan"]["state"], "in_progress");
  EXPECT_EQ(pj["pools"][0]["vdevs"][0]["members"][1]["drive_id"], testing::kSdbId);

  Ran smart = RunCli("smart /dev/sda --json --replay " + dir_);
  ASSERT_EQ(smart.exit_code, 0) << smart.out;
  auto sj = nlohmann::json::parse(smart.out, nullptr, false);
  ASSERT_TRUE(sj.is_object()) << smart.out;
  EXPECT_EQ(sj["temperature_c"], 32);
  EXPECT_EQ(sj["wwn"], "5000cca264eb01d7");
  EXPECT_TRUE(sj["reported_uncorrectable"].is_null());

  Ran asleep = RunCli("smart /dev/sdc --replay " + dir_);
  EXPECT_EQ(asleep.exit_code, 0);
  EXPECT_NE(asleep.out.find("skipped: asleep"), std::string::npos);

  EXPECT_EQ(RunCli("smart /dev/sdq --replay " + dir_).exit_code, 2);  // not in the recording
  EXPECT_EQ(RunCli("smart /dev/sdd --replay " + dir_).exit_code, 2);  // it hung when recorded
}

TEST(CliFromFileTest, PoolsAndSmartFromPastedOutput) {
  using ::dp::testing::FixturePath;
  Ran failing = RunCli("smart --from-file " +
                       FixturePath("smartctl/usb-jmicron-hdd-hitachi-HDS721050DLE630-failing.json") + " --json");
  EXPECT_EQ(failing.exit_code, 1);  // health FAILED
  auto j = nlohmann::json::parse(failing.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << failing.out;
  EXPECT_EQ(j["health_passed"], false);
  EXPECT_EQ(j["reallocated_sectors"], 1975);
  EXPECT_EQ(j["attributes"][4]["when_failed"], "now");

  Ran error = RunCli("smart --from-file " + FixturePath("smartctl/error-nvme-permission-denied-exit2.json"));
  EXPECT_EQ(error.exit_code, 2);

  // A packed raw value reads as smartctl prints it, beside its 48-bit number.
  const std::string hgst = FixturePath("smartctl/ata-hdd-hgst-HUS724020ALE640-crc-errors-exit64.json");
  Ran text = RunCli("smart --from-file " + hgst);
  EXPECT_NE(text.out.find("RAW48"), std::string::npos) << text.out;
  EXPECT_TRUE(std::regex_search(text.out, std::regex(R"(194 +Temperature_Celsius .*26 \(Min/Max 13/41\) +176094511130)")))
      << text.out;
  EXPECT_TRUE(std::regex_search(text.out, std::regex(R"(Spin_Up_Time .*423 \(Average 428\) +38682755495)")))
      << text.out;
  auto hj = nlohmann::json::parse(RunCli("smart --from-file " + hgst + " --json").out, nullptr, false);
  ASSERT_TRUE(hj.is_object());
  bool seen = false;
  for (const auto& a : hj["attributes"])
    if (a["id"] == 194) {
      seen = true;
      EXPECT_EQ(a["raw_string"], "26 (Min/Max 13/41)");
      EXPECT_EQ(a["raw_shown"], 26);
    }
  EXPECT_TRUE(seen);

  Ran degraded = RunCli("pools --json --from-file " + FixturePath("zpool/linux-mirror-degraded-removed.txt"));
  EXPECT_EQ(degraded.exit_code, 1);  // not ONLINE
  auto pj = nlohmann::json::parse(degraded.out, nullptr, false);
  ASSERT_TRUE(pj.is_object()) << degraded.out;
  EXPECT_EQ(pj["pools"][0]["state"], "DEGRADED");
  EXPECT_EQ(pj["pools"][0]["vdevs"][0]["members"][0]["state"], "REMOVED");
  EXPECT_TRUE(pj["pools"][0]["scan"]["percent"].is_null());

  Ran ok = RunCli("pools --from-file " + FixturePath("zpool/json-three-pools-json-int-trimmed.json"));
  EXPECT_EQ(ok.exit_code, 0);
  EXPECT_NE(ok.out.find("zpool-nvme (zfs)  ONLINE  scrub finished"), std::string::npos) << ok.out;

  EXPECT_EQ(RunCli("pools --from-file /nonexistent/file").exit_code, 2);
  EXPECT_EQ(RunCli("smart").exit_code, 2);
}

// `diskpulse record` against stand-in tools and a test sysfs tree, then
// `--replay` of what it recorded gives what the live run gave.
TEST(RecordCommandTest, RecordThenReplayMatchesLive) {
  TempDir t;
  std::string nas = t.Path("nas");
  fs::create_directories(nas);
  testing::WriteNasRecording(nas);  // its file trees serve as the "live" machine here
  auto script = [&](const std::string& name, const std::string& body) {
    std::string p = t.Write("bin/" + name, "#!/bin/sh\n" + body);
    chmod(p.c_str(), 0755);
    return p;
  };
  std::string zpool = script("zpool",
                             "if [ \"$2\" = \"-j\" ]; then echo \"invalid option 'j'\" >&2; exit 2; fi\n"
                             "cat '" + nas + "/commands/0002/stdout'\n");
  std::string smartctl = script("smartctl",
                                "for a; do dev=$a; done\n"
                                "case $dev in\n"
                                "  /dev/sda) cat '" + nas + "/commands/0004/stdout' ;;\n"
                                "  /dev/nvme0n1) cat '" + nas + "/commands/0003/stdout' ;;\n"
                                "  *) echo '{\"smartctl\":{\"exit_status\":2,\"messages\":[{\"string\":"
                                "\"Smartctl open device: '$dev' failed: No such device\",\"severity\":\"error\"}]}}'; exit 2 ;;\n"
                                "esac\n");
  std::string config = t.Write(
      "diskpulse.json",
      nlohmann::json({{"tools", {{"zpool", zpool}, {"smartctl", smartctl}}},
                      {"inventory",
                       {{"sysfs_root", nas + "/sys"}, {"dev_root", nas + "/dev"},
                        {"udev_data_dir", nas + "/udev"}, {"proc_root", nas + "/proc"}}}})
          .dump());
  Ran live = RunCli("drives --json -c " + config);
  ASSERT_EQ(live.exit_code, 0);

  std::string rec = t.Path("rec");
  Ran record = RunCli("record " + rec + " -c " + config);
  EXPECT_EQ(record.exit_code, 1) << record.out;  // sdb/sdc/sdd could not be opened: noted
  EXPECT_NE(record.out.find("(5 drives, 2 pools, 2 SMART reports)"), std::string::npos) << record.out;
  EXPECT_TRUE(fs::exists(rec + "/README.txt"));
  EXPECT_TRUE(fs::exists(rec + "/proc/mdstat"));

  Ran replayed = RunCli("drives --json --replay " + rec);
  ASSERT_EQ(replayed.exit_code, 0);
  auto a = nlohmann::json::parse(live.out, nullptr, false);
  auto b = nlohmann::json::parse(replayed.out, nullptr, false);
  ASSERT_TRUE(a.is_object() && b.is_object()) << live.out << replayed.out;
  ASSERT_EQ(a["drives"].size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    a["drives"][i].erase("dev_path");  // the tree each was read from differs
    b["drives"][i].erase("dev_path");
  }
  EXPECT_EQ(a["drives"], b["drives"]);
  Ran smart = RunCli("smart /dev/nvme0n1 --json --replay " + rec);
  ASSERT_EQ(smart.exit_code, 0);
  auto sj = nlohmann::json::parse(smart.out, nullptr, false);
  ASSERT_TRUE(sj.is_object()) << smart.out;
  EXPECT_EQ(sj["nvme"]["media_errors"], 7);

  EXPECT_EQ(RunCli("record " + rec + " -c " + config).exit_code, 2);  // not empty: refused
}

// Discovery re-baselines a drive whose firmware version changed, as
// after a firmware update: sda's udev
// revision is rewritten between passes, as a firmware update and a reboot would.
class FirmwareRebaselineTest : public NasReplayTest {
 protected:
  // sda's udev record with the given revision line ("" = none).
  void SetSdaRevision(const std::string& revision) {
    std::ofstream(fs::path(dir_) / "udev/b8:0", std::ios::trunc)
        << "E:ID_BUS=ata\nE:ID_MODEL_ENC=WDC\\x20WD140EDFZ-11A0VA0\nE:ID_SERIAL_SHORT=9RK1XXXX\n"
           "E:ID_WWN=0x5000cca264eb01d7\n"
        << (revision.empty() ? "" : "E:ID_REVISION=" + revision + "\n")
        << "E:ID_ATA_ROTATION_RATE_RPM=5400\n";
  }

  // A pass as the daemon makes it: with its alert service (none: a pass
  // without one, which only reports a firmware change).
  Result<DiscoveryReport> Pass(bool with_alerts = true) {
    clock_.Advance(std::chrono::hours(1));
    return RunDiscovery(config_, *runner_, *store_, clock_,
                        {.read_smart = false, .alerts = with_alerts ? &Alerts() : nullptr});
  }
  AlertService& Alerts() {
    if (!alerts_) {
      repo_ = std::make_unique<StoreAlertRepository>(*store_);
      alerts_ = std::make_unique<AlertService>(*repo_, nullptr, clock_, AlertServiceOptions{});
    }
    return *alerts_;
  }

  std::string SdaFirmware() { return (*store_->GetDrive(testing::kSdaId))->firmware; }

  // An open seq slowdown alert of the drive, as stored now.
  Result<std::int64_t> OpenSlowdown(const std::string& drive_id) {
    Alert slow;
    slow.drive_id = drive_id;
    slow.condition = "slowdown:seq:qd8-1m:mb_per_s";
    slow.severity = "warning";
    slow.opened_at = slow.updated_at = ToUnixSeconds(clock_.Now());
    return store_->InsertAlert(slow);
  }

  std::unique_ptr<StoreAlertRepository> repo_;
  std::unique_ptr<AlertService> alerts_;
};

TEST_F(FirmwareRebaselineTest, ChangedFirmwareRecordsAMarkAndResolvesSlowdowns) {
  auto first = Pass();
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->rebaselined.empty());  // first sighting: nothing to compare with
  ASSERT_EQ(SdaFirmware(), "81.00A81");
  EXPECT_TRUE(store_->ListRebaselines(testing::kSdaId, 0)->empty());

  // sda is slow before the update; sdb has a slowdown too (not updated).
  auto sda_alert = OpenSlowdown(testing::kSdaId);
  ASSERT_TRUE(sda_alert.ok());
  auto sdb_alert = OpenSlowdown(testing::kSdbId);
  ASSERT_TRUE(sdb_alert.ok());

  SetSdaRevision("83.00A83");
  auto second = Pass();
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  ASSERT_EQ(second->rebaselined.size(), 1u);
  EXPECT_EQ(second->rebaselined[0].drive_id, testing::kSdaId);
  EXPECT_EQ(second->rebaselined[0].reason, "firmware changed from 81.00A81 to 83.00A83");
  EXPECT_NE(second->Summary().find("1 drive re-baselined (firmware changed)"), std::string::npos)
      << second->Summary();
  EXPECT_EQ(SdaFirmware(), "83.00A83");

  auto mark = store_->LatestRebaseline(testing::kSdaId, "seq");
  ASSERT_TRUE(mark.ok() && mark->has_value());
  EXPECT_EQ((*mark)->test, "");  // every test
  EXPECT_EQ((*mark)->at, ToUnixSeconds(clock_.Now()));
  EXPECT_EQ((*mark)->who, "discovery");
  EXPECT_EQ((*mark)->reason, "firmware changed from 81.00A81 to 83.00A83");

  auto a = store_->GetAlert(*sda_alert);
  EXPECT_EQ((*a)->state, "resolved");
  EXPECT_EQ((*a)->resolution, "re-baselined: firmware changed from 81.00A81 to 83.00A83");
  EXPECT_EQ((*store_->GetAlert(*sdb_alert))->state, "open");  // other drives untouched
  EXPECT_TRUE(store_->ListRebaselines(testing::kSdbId, 0)->empty());

  // Same firmware again: no new mark.
  auto third = Pass();
  ASSERT_TRUE(third.ok());
  EXPECT_TRUE(third->rebaselined.empty());
  EXPECT_EQ(store_->ListRebaselines(testing::kSdaId, 0)->size(), 1u);
}

TEST_F(FirmwareRebaselineTest, WithoutAnAlertServiceTheChangeIsOnlyReported) {
  ASSERT_TRUE(Pass().ok());
  auto sda_alert = OpenSlowdown(testing::kSdaId);
  ASSERT_TRUE(sda_alert.ok());

  SetSdaRevision("83.00A83");
  auto pass = Pass(/*with_alerts=*/false);
  ASSERT_TRUE(pass.ok()) << pass.status().ToString();
  EXPECT_TRUE(pass->rebaselined.empty());
  bool warned = false;
  for (const auto& w : pass->warnings)
    warned = warned || w == std::string(testing::kSdaId) +
                                ": firmware changed from 81.00A81 to 83.00A83; not re-baselined: "
                                "no alert service in this pass";
  EXPECT_TRUE(warned) << ::testing::PrintToString(pass->warnings);
  EXPECT_TRUE(store_->ListRebaselines(testing::kSdaId, 0)->empty());
  EXPECT_EQ((*store_->GetAlert(*sda_alert))->state, "open");
}

TEST_F(FirmwareRebaselineTest, UnreadableOrShortenedVersionIsNotAChange) {
  ASSERT_TRUE(Pass().ok());
  // No revision this pass (udev without it, no sysfs rev): the known one stays.
  SetSdaRevision("");
  auto blind = Pass();
  ASSERT_TRUE(blind.ok()) << blind.status().ToString();
  EXPECT_TRUE(blind->rebaselined.empty());
  EXPECT_EQ(SdaFirmware(), "81.00A81");
  // Linux's 4-character SCSI rev of the same ATA firmware: the same version.
  SetSdaRevision("0A81");
  auto shortened = Pass();
  ASSERT_TRUE(shortened.ok());
  EXPECT_TRUE(shortened->rebaselined.empty());
  EXPECT_EQ(SdaFirmware(), "81.00A81");  // the whole version is kept
  EXPECT_TRUE(store_->ListRebaselines(testing::kSdaId, 0)->empty());
}

}  // namespace
}  // namespace dp
