// The service files as shipped: the systemd unit passes `systemd-analyze
// verify` (pointed at the built daemon; skipped with a reason where
// systemd-analyze is missing), and the rc.d script runs the real daemon
// under a stub rc.subr (rc_subr_stub.sh) that does what rc.subr's
// run_rc_command would: not enabled, start (detached), status, reload
// (configuration checked first), stop, and a bad configuration refused.
#include <signal.h>

#include <filesystem>
#include <regex>

#include <gtest/gtest.h>

#include "support/daemon_process.h"
#include "support/http_client.h"

namespace dp {
namespace {

using namespace dp::testing;

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

bool Have(const std::string& tool) {
  return RunProgram({"/bin/sh", "-c", "command -v " + tool}).exit_code == 0;
}

TEST(SystemdUnit, IsNotifyWithWatchdog) {
  std::string unit = ReadFile(std::string(DP_SOURCE_DIR) + "/systemd/diskpulsed.service");
  EXPECT_NE(unit.find("\nType=notify\n"), std::string::npos);
  EXPECT_NE(unit.find("\nNotifyAccess=main\n"), std::string::npos);
  EXPECT_TRUE(std::regex_search(unit, std::regex("\nWatchdogSec=[1-9][0-9]*s\n")));
  EXPECT_NE(unit.find("ExecReload=/bin/kill -HUP $MAINPID"), std::string::npos);
}

// An appliance's read-only root: the whole file system read-only for the
// daemon but its state folder, where the installed default database lives
// (/var/lib/diskpulse/diskpulse.db); the run on a read-only prefix is
// tests/packaging/readonly_root_test.sh.
TEST(SystemdUnit, ReadOnlyRootWithAStateDirectory) {
  std::string unit = ReadFile(std::string(DP_SOURCE_DIR) + "/systemd/diskpulsed.service");
  EXPECT_NE(unit.find("\nProtectSystem=strict\n"), std::string::npos);
  EXPECT_NE(unit.find("\nStateDirectory=diskpulse\n"), std::string::npos);
  EXPECT_NE(unit.find("\nReadWritePaths=/var/lib/diskpulse\n"), std::string::npos);
  std::string example = ReadFile(std::string(DP_SOURCE_DIR) + "/config/diskpulse.json");
  EXPECT_NE(example.find("Default \"/var/lib/diskpulse/diskpulse.db\""), std::string::npos);
}

TEST(SystemdUnit, SystemdAnalyzeVerifyIsClean) {
  if (!Have("systemd-analyze")) GTEST_SKIP() << "systemd-analyze is not installed (package systemd)";
  TempDir tmp;
  std::string config = tmp.Write("diskpulse.json", DaemonProcess::DefaultConfig(tmp.path()).dump());
  std::string unit = ReadFile(std::string(DP_SOURCE_DIR) + "/systemd/diskpulsed.service");
  unit = Replace(unit, "/usr/local/sbin/diskpulsed", DP_DAEMON_BIN);
  unit = Replace(unit, "/usr/local/etc/diskpulse/diskpulse.json", config);
  std::string path = tmp.Write("diskpulsed.service", unit);
  auto r = RunProgram({"/bin/sh", "-c", "systemd-analyze verify '" + path + "' 2>&1"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "") << "systemd-analyze has remarks:\n" << r.output;
}

class RcdScriptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = tmp_.Write("diskpulse.json", DaemonProcess::DefaultConfig(tmp_.path()).dump());
    std::string script = ReadFile(std::string(DP_SOURCE_DIR) + "/rc.d/diskpulsed");
    ASSERT_NE(script.find(". /etc/rc.subr\n"), std::string::npos);
    script = Replace(script, ". /etc/rc.subr\n",
                     ". '" + std::string(DP_SOURCE_DIR) + "/tests/packaging/rc_subr_stub.sh'\n");
    script = Replace(script, "/usr/local/sbin/diskpulsed", DP_DAEMON_BIN);
    script_ = tmp_.Write("diskpulsed", script);
    pidfile_ = tmp_.Path("var/diskpulsed.pid");
    WriteRcConf("YES", config_);
  }
  void TearDown() override {
    std::string pid = ReadFile(pidfile_);
    if (!pid.empty()) ::kill(std::stoi(pid), SIGKILL);
  }
  void WriteRcConf(const std::string& enable, const std::string& config) {
    tmp_.Write("rc.conf", "diskpulsed_enable=\"" + enable + "\"\ndiskpulsed_config=\"" + config +
                              "\"\ndiskpulsed_pidfile=\"" + pidfile_ + "\"\n");
  }
  ProgramResult Rc(const std::string& directive) {
    return RunProgram({"/bin/sh", script_, directive}, 30s,
                      {"RC_CONF=" + tmp_.Path("rc.conf"), "RC_LOG=" + tmp_.Path("rc.log")});
  }
  std::string Log() { return ReadFile(tmp_.Path("rc.log")); }

  TempDir tmp_;
  std::string config_, script_, pidfile_;
};

TEST_F(RcdScriptTest, ParsesAsPosixShell) {
  auto r = RunProgram({"/bin/sh", "-n", std::string(DP_SOURCE_DIR) + "/rc.d/diskpulsed"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST_F(RcdScriptTest, NotEnabledDoesNothing) {
  WriteRcConf("NO", config_);
  auto r = Rc("start");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Set diskpulsed_enable to YES"), std::string::npos) << r.output;
  EXPECT_NE(Log().find("not enabled"), std::string::npos) << Log();
  EXPECT_FALSE(std::filesystem::exists(pidfile_));
}

TEST_F(RcdScriptTest, StartStatusReloadStop) {
  auto start = Rc("start");
  ASSERT_EQ(start.exit_code, 0) << start.output << Log();
  EXPECT_NE(Log().find("precmd diskpulsed_configtest"), std::string::npos) << Log();
  EXPECT_NE(Log().find("exec " + std::string(DP_DAEMON_BIN) + " -c " + config_ + " --pidfile " +
                       pidfile_),
            std::string::npos)
      << Log();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(start.output, m, std::regex("listening on http://127.0.0.1:([0-9]+)/")))
      << start.output;
  int port = std::stoi(m[1]);
  // Detached: the pidfile names the daemon, which answers.
  for (int i = 0; i < 100 && ReadFile(pidfile_).empty(); ++i)
    std::this_thread::sleep_for(50ms);
  EXPECT_EQ(HttpGet(port, "/api/v1/health").status, 200);

  auto status = Rc("status");
  EXPECT_EQ(status.exit_code, 0);
  EXPECT_NE(status.output.find("diskpulsed is running as pid"), std::string::npos) << status.output;

  auto reload = Rc("reload");
  EXPECT_EQ(reload.exit_code, 0) << reload.output;
  std::string pid = ReadFile(pidfile_);
  while (!pid.empty() && pid.back() == '\n') pid.pop_back();
  EXPECT_NE(Log().find("kill -HUP " + pid), std::string::npos) << Log();
  EXPECT_EQ(HttpGet(port, "/api/v1/health").status, 200) << "serving after the reload";

  auto stop = Rc("stop");
  EXPECT_EQ(stop.exit_code, 0) << stop.output;
  EXPECT_FALSE(std::filesystem::exists(pidfile_));
  EXPECT_FALSE(HttpGet(port, "/api/v1/health").received);
  EXPECT_NE(Rc("status").exit_code, 0);
}

TEST_F(RcdScriptTest, BadConfigurationIsRefusedBeforeStarting) {
  std::string bad = tmp_.Write("bad.json", "{\n  \"listen\": \"127.0.0.1:0\",\n  \"no_such_key\": 1\n}\n");
  WriteRcConf("YES", bad);
  auto test = Rc("configtest");
  EXPECT_EQ(test.exit_code, 1) << test.output;
  EXPECT_NE(test.output.find(bad + ":3:"), std::string::npos) << test.output;
  auto start = Rc("start");
  EXPECT_NE(start.exit_code, 0) << start.output;
  EXPECT_NE(Log().find("precmd failed"), std::string::npos) << Log();
  EXPECT_FALSE(std::filesystem::exists(pidfile_));

  WriteRcConf("YES", tmp_.Path("absent.json"));
  auto missing = Rc("start");
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.output.find("absent.json is not readable"), std::string::npos) << missing.output;
}

}  // namespace
}  // namespace dp
