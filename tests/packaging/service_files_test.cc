// The service files as shipped: the systemd unit passes `systemd-analyze
// verify` (pointed at the built daemon; skipped with a reason where
// systemd-analyze is missing), and the rc.d script runs the real daemon
// under a stub rc.subr (rc_subr_stub.sh) that does what rc.subr's
// run_rc_command would: not enabled, start (detached), status, reload
// (configuration checked first), stop, and a bad configuration refused.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <map>
#include <regex>

#include "support/capability.h"
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

// The shipped unit pointed at the built daemon and a configuration in tmp;
// its path (the text in `unit`).
std::string UnitForThisBuild(const TempDir& tmp, std::string& unit) {
  std::string config = tmp.Write("diskpulse.json", DaemonProcess::DefaultConfig(tmp.path()).dump());
  unit = ReadFile(std::string(DP_SOURCE_DIR) + "/systemd/diskpulsed.service");
  unit = Replace(unit, "/usr/local/sbin/diskpulsed", DP_DAEMON_BIN);
  unit = Replace(unit, "/usr/local/etc/diskpulse/diskpulse.json", config);
  return tmp.Write("diskpulsed.service", unit);
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
  EXPECT_NE(unit.find("\nProtectSystem=full\n"), std::string::npos);
  EXPECT_NE(unit.find("\nStateDirectory=diskpulse\n"), std::string::npos);
  EXPECT_NE(unit.find("\nReadWritePaths=/var/lib/diskpulse\n"), std::string::npos);
  std::string example = ReadFile(std::string(DP_SOURCE_DIR) + "/config/diskpulse.json");
  EXPECT_NE(example.find("Default \"/var/lib/diskpulse/diskpulse.db\""), std::string::npos);
}

TEST(SystemdUnit, SystemdAnalyzeVerifyIsClean) {
  if (!Have("systemd-analyze"))
    DP_SKIP_WITHOUT("systemd-analyze", "systemd-analyze is not installed (package systemd)");
  TempDir tmp;
  std::string unit;
  std::string path = UnitForThisBuild(tmp, unit);
  auto r = RunProgram({"/bin/sh", "-c", "systemd-analyze verify '" + path + "' 2>&1"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "") << "systemd-analyze has remarks:\n" << r.output;
}

// The unit as systemd reads it lets the two documented features that write or
// gain a group outside the state folder work: a mail command that hands the
// message to a set-gid helper (postdrop, Exim) needs the service to be free
// to gain privileges on exec, and pool-write's scratch file and the mail
// spool need their folders writable. systemd does not run as PID 1 where
// these tests run (no systemd-run), so `systemd-analyze security --offline`
// reads the shipped unit and says what it enforces; skipped without it.
TEST(SystemdUnit, MailHelperAndScratchDirectoryAreNotBlocked) {
  if (!Have("systemd-analyze"))
    DP_SKIP_WITHOUT("systemd-analyze", "systemd-analyze is not installed (package systemd)");
  TempDir tmp;
  std::string unit;
  std::string path = UnitForThisBuild(tmp, unit);
  auto r = RunProgram({"/usr/bin/systemd-analyze", "security", "--offline=yes", "--json=short", path});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto start = r.output.find('[');
  ASSERT_NE(start, std::string::npos) << r.output;
  nlohmann::json checks = nlohmann::json::parse(r.output.substr(start), nullptr, false);
  ASSERT_TRUE(checks.is_array()) << r.output;
  std::map<std::string, nlohmann::json> by_field;
  for (const auto& c : checks) by_field[c.value("json_field", "")] = c;

  // A set-gid exec keeps its group only without no_new_privs.
  ASSERT_TRUE(by_field.count("NoNewPrivileges")) << r.output;
  EXPECT_EQ(by_field["NoNewPrivileges"]["set"], false)
      << "NoNewPrivileges is in force: a set-gid mail helper (postdrop) would fail";

  // What ProtectSystem makes read-only, as systemd reports the unit's mode.
  ASSERT_TRUE(by_field.count("ProtectSystem")) << r.output;
  const std::string mode = by_field["ProtectSystem"].value("description", "");
  std::vector<std::string> read_only;
  std::vector<std::string> writable = {"/var/lib/diskpulse"};  // the unit's state folder
  if (mode.find("strict") != std::string::npos) read_only = {"/"};
  else if (mode.find("very limited") != std::string::npos) read_only = {"/usr", "/boot", "/efi", "/etc"};
  else if (mode.find("limited") != std::string::npos) read_only = {"/usr", "/boot", "/efi"};
  std::smatch m;
  for (std::string rest = unit; std::regex_search(rest, m, std::regex("\nReadWritePaths=([^\n]*)"));
       rest = m.suffix())
    writable.push_back(m[1]);
  EXPECT_EQ(unit.find("ReadOnlyPaths="), std::string::npos);
  EXPECT_EQ(unit.find("InaccessiblePaths="), std::string::npos);
  auto under = [](const std::string& p, const std::string& dir) {
    return dir == "/" || p == dir || p.rfind(dir + "/", 0) == 0;
  };
  auto is_writable = [&](const std::string& p) {
    for (const auto& w : writable)
      if (under(p, w)) return true;
    for (const auto& ro : read_only)
      if (under(p, ro)) return false;
    return true;
  };
  // pool-write's scratch folders where pools are mounted (Linux ZFS at /POOL,
  // TrueNAS SCALE and OpenMediaVault under /mnt and /srv), and the spools of
  // Postfix's postdrop and Exim.
  for (const char* p : {"/tank/diskpulse", "/mnt/tank/diskpulse", "/srv/dev-disk-by-uuid-1/scratch",
                        "/var/spool/postfix/maildrop", "/var/spool/exim4/input"})
    EXPECT_TRUE(is_writable(p)) << p << " is read-only under the unit (" << mode << ")";
  // The system itself stays read-only.
  for (const char* p : {"/usr/sbin", "/etc/diskpulse"})
    EXPECT_FALSE(is_writable(p)) << p << " is writable under the unit (" << mode << ")";
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
