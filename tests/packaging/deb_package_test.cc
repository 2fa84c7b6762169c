// The Debian package, end to end on this machine: cpack builds the .deb from
// this build tree; dpkg -i installs it (postinst writes the configuration and
// enables the unit); the installed unit passes systemd-analyze verify; the
// installed daemon starts on the packaged configuration (listen moved to a
// free loopback port, since systemd is usually not PID 1 in a container and
// the default port may be taken) and answers /api/v1/health and the web
// page; dpkg -r and dpkg --purge leave none of its files behind.
//
// Needs root, dpkg and cpack (skipped with a reason otherwise) and a machine
// where diskpulse is not installed already (skipped: never touch a real
// installation). Runs under a lock so parallel runs of the suite on one
// machine take turns with dpkg.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pwd.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <thread>

#include "support/capability.h"
#include "support/daemon_process.h"
#include "support/http_client.h"

namespace dp {
namespace {

namespace fs = std::filesystem;
using namespace dp::testing;

ProgramResult Sh(const std::string& cmd, std::chrono::milliseconds timeout = 120s) {
  return RunProgram({"/bin/sh", "-c", cmd + " 2>&1"}, timeout);
}

// dpkg refuses at once while apt or another dpkg holds its lock: wait a while.
ProgramResult Dpkg(const std::string& args) {
  ProgramResult r;
  for (int attempt = 0; attempt < 60; ++attempt) {
    r = Sh("dpkg " + args, 300s);
    if (r.exit_code == 0 || r.output.find("lock") == std::string::npos) break;
    std::this_thread::sleep_for(2s);
  }
  return r;
}

// The build tree: the folder above the daemon's that has CPackConfig.cmake.
std::string BuildDir() {
  for (fs::path p = fs::path(DP_DAEMON_BIN).parent_path(); !p.empty() && p != p.root_path();
       p = p.parent_path())
    if (fs::exists(p / "CPackConfig.cmake")) return p.string();
  return "";
}

class DebPackageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) DP_SKIP_WITHOUT("root", "installing a package needs root");
    for (const char* tool : {"dpkg", "dpkg-deb", "cpack"})
      if (Sh(std::string("command -v ") + tool).exit_code != 0)
        DP_SKIP_WITHOUT("packaging tools", tool << " is not installed");
    build_ = BuildDir();
    if (build_.empty())
      DP_SKIP_WITHOUT("CPack build tree", "no CPackConfig.cmake above " << DP_DAEMON_BIN);
    lock_ = ::open("/tmp/diskpulse-deb-package-test.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    ASSERT_GE(lock_, 0);
    ASSERT_EQ(::flock(lock_, LOCK_EX), 0);
    // Not a missing capability but a guard: the machine's own installation
    // is not ours to remove, so this stays a skip under CI=true too.
    if (Sh("dpkg-query -W -f='${Status}' diskpulse | grep -q 'ok installed'").exit_code == 0)
      GTEST_SKIP() << "diskpulse is installed on this machine; not touching it";
  }
  void TearDown() override {
    if (daemon_pid_ > 0) {
      ::kill(daemon_pid_, SIGKILL);
      ::waitpid(daemon_pid_, nullptr, 0);
    }
    if (installed_) Dpkg("--purge diskpulse");
    if (lock_ >= 0) ::close(lock_);  // releases the flock
  }

  // Starts `argv` with stdout and stderr to log; returns its pid.
  pid_t Spawn(const std::vector<std::string>& argv, const std::string& log) {
    pid_t pid = ::fork();
    if (pid == 0) {
      int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    return pid;
  }

  std::string build_;
  int lock_ = -1;
  bool installed_ = false;
  pid_t daemon_pid_ = -1;
  TempDir tmp_;
};

TEST_F(DebPackageTest, BuildsInstallsStartsAndPurgesCleanly) {
  // 1. Build the package from this tree.
  auto pack = Sh("cpack -G DEB --config '" + build_ + "/CPackConfig.cmake' -B '" +
                     tmp_.path().string() + "'",
                 600s);
  ASSERT_EQ(pack.exit_code, 0) << pack.output;
  std::string deb;
  for (const auto& e : fs::directory_iterator(tmp_.path()))
    if (e.path().extension() == ".deb") deb = e.path().string();
  ASSERT_FALSE(deb.empty()) << pack.output;
  auto contents = Sh("dpkg-deb -c '" + deb + "'");
  for (const char* path : {"./usr/sbin/diskpulsed", "./usr/bin/diskpulse",
                           "./etc/diskpulse/diskpulse.json.example",
                           "./usr/lib/systemd/system/diskpulsed.service",
                           "./usr/share/diskpulse/webui/index.html"})
    EXPECT_NE(contents.output.find(path), std::string::npos) << path << "\n" << contents.output;
  EXPECT_EQ(contents.output.find("/usr/local"), std::string::npos) << contents.output;
  EXPECT_EQ(contents.output.find("./usr/etc"), std::string::npos) << contents.output;
  EXPECT_EQ(contents.output.find("rc.d"), std::string::npos) << contents.output;
  auto depends = Sh("dpkg-deb -f '" + deb + "' Depends");
  EXPECT_NE(depends.output.find("libsqlite3"), std::string::npos) << depends.output;

  // 2. Install: configuration written, unit enabled.
  auto install = Dpkg("-i '" + deb + "'");
  installed_ = true;
  ASSERT_EQ(install.exit_code, 0) << install.output;
  auto files = Sh("dpkg -L diskpulse");
  ASSERT_EQ(files.exit_code, 0);
  EXPECT_TRUE(fs::exists("/etc/diskpulse/diskpulse.json"));
  // It holds the tokens: root's, readable by the daemon's group only.
  auto mode = Sh("stat -c '%a %U:%G' /etc/diskpulse/diskpulse.json");
  EXPECT_EQ(mode.output, "640 root:diskpulse\n");
  EXPECT_TRUE(fs::is_symlink("/etc/systemd/system/multi-user.target.wants/diskpulsed.service"))
      << "the unit is not enabled";
  std::string unit = ReadFile("/usr/lib/systemd/system/diskpulsed.service");
  EXPECT_NE(unit.find("ExecStart=/usr/sbin/diskpulsed -c /etc/diskpulse/diskpulse.json --foreground"),
            std::string::npos)
      << unit;
  EXPECT_NE(unit.find("ReadWritePaths=/var/lib/diskpulse"), std::string::npos);
  if (Sh("command -v systemd-analyze").exit_code == 0) {
    auto verify = Sh("systemd-analyze verify /usr/lib/systemd/system/diskpulsed.service");
    EXPECT_EQ(verify.exit_code, 0) << verify.output;
    EXPECT_EQ(verify.output, "") << verify.output;
  }
  auto check = Sh("/usr/sbin/diskpulsed --check-config -c /etc/diskpulse/diskpulse.json");
  EXPECT_EQ(check.output, "configuration OK\n");

  // 3. Start the installed daemon on the packaged configuration (as the unit
  //    would, in the foreground), listening on a free loopback port.
  std::string packaged = ReadFile("/etc/diskpulse/diskpulse.json");
  EXPECT_NE(packaged.find("\"/var/lib/diskpulse/diskpulse.db\""), std::string::npos);
  EXPECT_NE(packaged.find("\"/usr/share/diskpulse/webui\""), std::string::npos);
  std::string config = std::regex_replace(packaged, std::regex("\"listen\": *\"[^\"]*\""),
                                          "\"listen\": \"127.0.0.1:0\"");
  ASSERT_NE(config, packaged) << "no listen key in the packaged configuration";
  std::string config_path = tmp_.Write("diskpulse.json", config);
  std::string log = tmp_.Path("daemon.log");
  daemon_pid_ = Spawn({"/usr/sbin/diskpulsed", "-c", config_path, "--foreground"}, log);
  std::smatch m;
  std::string out;
  for (int i = 0; i < 300; ++i) {
    out = ReadFile(log);
    if (std::regex_search(out, m, std::regex("listening on http://127.0.0.1:([0-9]+)/"))) break;
    std::this_thread::sleep_for(50ms);
  }
  ASSERT_FALSE(m.empty()) << out;
  int port = std::stoi(m[1]);
  auto health = HttpGet(port, "/api/v1/health");
  EXPECT_EQ(health.status, 200) << health.body;
  EXPECT_EQ(health.Json()["db"], "ok");
  EXPECT_EQ(HttpGet(port, "/").status, 200) << "the packaged web page";
  EXPECT_TRUE(fs::exists("/var/lib/diskpulse/diskpulse.db"));
  // Unprivileged by default: postinst made a system user and the packaged
  // configuration names it, so the serving process is not root.
  struct passwd* pw = ::getpwnam("diskpulse");
  ASSERT_NE(pw, nullptr) << "postinst created no diskpulse user";
  EXPECT_LT(pw->pw_uid, 1000u) << "not a system user";
  EXPECT_NE(packaged.find("\"user\": \"diskpulse\""), std::string::npos) << packaged;
  std::string proc = ReadFile("/proc/" + std::to_string(daemon_pid_) + "/status");
  std::smatch uid;
  ASSERT_TRUE(std::regex_search(proc, uid, std::regex("\nUid:\t([0-9]+)\t([0-9]+)"))) << proc;
  EXPECT_EQ(std::stoul(uid[2]), pw->pw_uid) << "the daemon still runs as root";
  struct stat db_stat {};
  ASSERT_EQ(::stat("/var/lib/diskpulse/diskpulse.db", &db_stat), 0);
  EXPECT_EQ(db_stat.st_uid, pw->pw_uid);
  ::kill(daemon_pid_, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(daemon_pid_, &status, 0), daemon_pid_);
  daemon_pid_ = -1;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << ReadFile(log);

  // 4. Remove, then purge: nothing of it is left.
  auto remove = Dpkg("-r diskpulse");
  EXPECT_EQ(remove.exit_code, 0) << remove.output;
  EXPECT_FALSE(fs::exists("/usr/sbin/diskpulsed"));
  auto purge = Dpkg("--purge diskpulse");
  EXPECT_EQ(purge.exit_code, 0) << purge.output;
  installed_ = false;
  std::istringstream listed(files.output);
  std::string path;
  while (std::getline(listed, path)) {
    if (path.empty() || path == "/." || fs::is_directory(path)) continue;  // shared folders stay
    EXPECT_FALSE(fs::exists(fs::symlink_status(path))) << path << " is left after purge";
  }
  for (const char* left : {"/etc/diskpulse", "/var/lib/diskpulse", "/usr/share/diskpulse",
                           "/etc/systemd/system/multi-user.target.wants/diskpulsed.service",
                           "/etc/systemd/system/diskpulsed.service",
                           "/var/lib/systemd/deb-systemd-helper-enabled/diskpulsed.service",
                           "/var/lib/systemd/deb-systemd-helper-masked/diskpulsed.service"})
    EXPECT_FALSE(fs::exists(fs::symlink_status(left))) << left << " is left after purge";
  EXPECT_NE(Sh("dpkg-query -W -f='${Status}' diskpulse | grep -q 'ok installed'").exit_code, 0);
}

}  // namespace
}  // namespace dp
