// ReadSmart and the self-test functions through real processes (stand-in
// `smartctl` shell scripts) and through the ReplayCommandRunner.
#include "smart/smart_reader.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdlib>

#include <gtest/gtest.h>

#include "base/replay_command_runner.h"
#include "smart/self_test.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using ::dp::testing::FixturePath;
using ::dp::testing::ReadFile;
using ::dp::testing::TempDir;

std::string Script(const TempDir& t, const std::string& name, const std::string& body) {
  std::string path = t.Write(name, "#!/bin/sh\n" + body);
  chmod(path.c_str(), 0755);
  return path;
}

TEST(SmartReaderTest, StandInSmartctlOutputAndExitBitmask) {
  TempDir t;
  std::string fixture = FixturePath("smartctl/ata-hdd-hgst-HUS724020ALE640-crc-errors-exit64.json");
  SmartctlOptions o;
  o.smartctl = Script(t, "smartctl", "cat '" + fixture + "'\nexit 64\n");
  PosixCommandRunner runner;
  auto r = ReadSmart(runner, o, "/dev/sdz");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->asleep);
  EXPECT_EQ(r->snapshot.smartctl_exit_status, 64);  // a non-zero exit is data
  EXPECT_EQ(r->snapshot.udma_crc_errors, 12u);
}

TEST(SmartReaderTest, HangingSmartctlTimesOutAndIsKilled) {
  TempDir t;
  SmartctlOptions o;
  o.smartctl = Script(t, "smartctl", "sleep 30\n");
  o.timeout = std::chrono::milliseconds(300);
  PosixCommandRunner runner;
  auto start = std::chrono::steady_clock::now();
  auto r = ReadSmart(runner, o, "/dev/sdz");
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kTimeout);
  EXPECT_NE(r.status().message().find("killed"), std::string::npos);
  EXPECT_LT(took, std::chrono::seconds(10));
}

TEST(SmartReaderTest, MissingSmartctlSaysWhatToInstall) {
  TempDir t;  // an empty PATH: no smartctl anywhere
  const char* old = std::getenv("PATH");
  std::string saved = old ? old : "";
  setenv("PATH", t.path().c_str(), 1);
  PosixCommandRunner runner;
  auto r = ReadSmart(runner, SmartctlOptions{}, "/dev/sda");
  setenv("PATH", saved.c_str(), 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(r.status().message(), "smartctl not found: install smartmontools");

  SmartctlOptions custom;
  custom.smartctl = t.Path("sbin/smartctl");
  auto c = ReadSmart(runner, custom, "/dev/sda");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(c.status().message().rfind("smartctl not found: install smartmontools", 0), 0u);
}

TEST(SmartReaderTest, OldSmartctlComplainingOnStderr) {
  TempDir t;
  SmartctlOptions o;
  o.smartctl = Script(t, "smartctl",
                      "echo 'smartctl 6.6 2016-05-31 r4324 [x86_64-linux-4.9.0] (local build)' >&2\n"
                      "echo '=======> UNRECOGNIZED OPTION: j' >&2\nexit 1\n");
  PosixCommandRunner runner;
  auto r = ReadSmart(runner, o, "/dev/sda");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(r.status().message().find("smartctl 6.6"), std::string::npos);
  EXPECT_NE(r.status().message().find("7.0 or newer"), std::string::npos);
}

TEST(SmartReaderTest, ArgvNeverWakesTheDisk) {
  SmartctlOptions o;
  EXPECT_EQ(SmartctlReadArgv(o, "/dev/sda"),
            (std::vector<std::string>{"smartctl", "-x", "-j", "-n", "standby", "/dev/sda"}));
  o.device_type = "sat";
  EXPECT_EQ(SmartctlReadArgv(o, "/dev/sdb"),
            (std::vector<std::string>{"smartctl", "-x", "-j", "-n", "standby", "-d", "sat", "/dev/sdb"}));
}

Pool BusyPool(const std::string& drive_id) {
  Pool p;
  p.name = "tank";
  p.scan.function = "resilver";
  p.scan.state = "in_progress";
  p.scan.percent = 52;
  Vdev v;
  v.name = "mirror-0";
  PoolMember m;
  m.path = "sda1";
  m.drive_id = drive_id;
  v.members.push_back(m);
  p.vdevs.push_back(v);
  return p;
}

TEST(SelfTestTest, RefusedOnAMemberOfABusyPool) {
  ReplayCommandRunner runner;  // nothing recorded: smartctl must not even be asked
  auto r = StartSelfTest(runner, SmartctlOptions{}, "/dev/sda", SelfTestKind::kLong, "wwn-5000cca264eb01d7",
                         {BusyPool("wwn-5000cca264eb01d7")});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("pool tank is resilvering (52.0% done)"), std::string::npos);
  EXPECT_TRUE(runner.calls().empty());
  // A pool that finished its scrub does not hold the drive.
  Pool done = BusyPool("wwn-5000cca264eb01d7");
  done.scan.state = "finished";
  EXPECT_TRUE(CheckSelfTestAllowed("wwn-5000cca264eb01d7", {done}).ok());
  EXPECT_TRUE(CheckSelfTestAllowed("other", {BusyPool("wwn-5000cca264eb01d7")}).ok());
}

TEST(SelfTestTest, StartPollAndFinish) {
  ReplayCommandRunner runner;
  std::vector<std::string> start = {"smartctl", "-j", "-n", "standby", "-t", "short", "/dev/sda"};
  runner.AddOutput(start, R"js({"smartctl":{"version":[7,3],"exit_status":0},
      "device":{"name":"/dev/sda","type":"sat","protocol":"ATA"}})js");
  std::vector<std::string> poll = {"smartctl", "-j", "-n", "standby", "-c", "-l", "selftest", "/dev/sda"};
  // Polled twice: first running (0xF9 = 90% remaining), then done. Hand-made
  // in smartctl's -c -l selftest JSON shape.
  runner.AddOutput(poll, R"js({"smartctl":{"exit_status":0},"device":{"protocol":"ATA"},
      "ata_smart_data":{"self_test":{"status":{"value":249,"string":"in progress, 90% remaining",
        "remaining_percent":90},"polling_minutes":{"short":2,"extended":1479}}},
      "ata_smart_self_test_log":{"standard":{"table":[]}}})js");
  runner.AddOutput(poll, R"js({"smartctl":{"exit_status":0},"device":{"protocol":"ATA"},
      "ata_smart_data":{"self_test":{"status":{"value":0,"string":"completed without error","passed":true}}},
      "ata_smart_self_test_log":{"standard":{"table":[{"type":{"value":1,"string":"Short offline"},
        "status":{"value":0,"string":"Completed without error","passed":true},"lifetime_hours":1731}]}}})js");
  auto s = StartSelfTest(runner, SmartctlOptions{}, "/dev/sda", SelfTestKind::kShort, "d1", {});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE(s->started);
  auto p1 = PollSelfTest(runner, SmartctlOptions{}, "/dev/sda");
  ASSERT_TRUE(p1.ok()) << p1.status().ToString();
  EXPECT_TRUE(p1->running);
  EXPECT_EQ(p1->remaining_percent, 90);
  EXPECT_EQ(p1->short_test_minutes, 2);
  auto p2 = PollSelfTest(runner, SmartctlOptions{}, "/dev/sda");
  ASSERT_TRUE(p2.ok());
  EXPECT_FALSE(p2->running);
  ASSERT_EQ(p2->log.size(), 1u);
  EXPECT_EQ(p2->log[0].type, "short");
  EXPECT_EQ(p2->log[0].passed, true);
  EXPECT_EQ(p2->log[0].lifetime_hours, 1731u);
}

TEST(SelfTestTest, AlreadyRunningOrAsleep) {
  ReplayCommandRunner runner;
  std::vector<std::string> argv = {"smartctl", "-j", "-n", "standby", "-t", "long", "/dev/sdb"};
  runner.AddOutput(argv, R"js({"smartctl":{"exit_status":4},"device":{"protocol":"ATA"}})js", 4);
  auto r = StartSelfTest(runner, SmartctlOptions{}, "/dev/sdb", SelfTestKind::kLong, "d2", {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("could not start a long self-test"), std::string::npos);

  std::vector<std::string> sleepy = {"smartctl", "-j", "-n", "standby", "-t", "short", "/dev/sdc"};
  runner.AddOutput(sleepy, R"js({"smartctl":{"exit_status":2,"messages":[
      {"string":"Device is in STANDBY mode, exit(2)","severity":"information"}]}})js", 2);
  auto a = StartSelfTest(runner, SmartctlOptions{}, "/dev/sdc", SelfTestKind::kShort, "d3", {});
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_FALSE(a->started);
  EXPECT_TRUE(a->asleep);
}

TEST(SelfTestTest, ScsiSelfTestLogFromFixture) {
  auto p = ParseSelfTestProgress(ReadFile(FixturePath("smartctl/scsi-sas-seagate-14tb-anonymised-spc5.json")));
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE(p->running);
  ASSERT_EQ(p->log.size(), 4u);
  EXPECT_EQ(p->log[1].lifetime_hours, 66u);
  EXPECT_EQ(p->extended_test_minutes, 1340);
}

}  // namespace
}  // namespace dp
