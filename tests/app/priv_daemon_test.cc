// Privilege separation end to end: the real diskpulsed started as root with
// "user": "nobody" runs an @every seq schedule on a loop device. The main
// process runs as nobody (who cannot open the device), its root child — the
// privileged helper — opens it and runs the (stand-in) zpool, a run
// completes ok, and the helper leaves with the daemon.
#include <gtest/gtest.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/capability.h"
#include "support/daemon_process.h"
#include "support/eventually.h"
#include "support/http_client.h"
#include "support/loop_device.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using dp::testing::DaemonProcess;
using dp::testing::Eventually;
using dp::testing::HttpGet;
using dp::testing::LoopDevice;
using dp::testing::ReadFile;
using dp::testing::TempDir;
using json = nlohmann::json;

// The value of a "Name:\t..." line of /proc/PID/status ("" if none).
std::string StatusField(pid_t pid, const std::string& name) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(name + ":", 0) == 0) return line.substr(name.size() + 1);
  return "";
}

// Real, effective, saved and file-system uid of a process.
std::vector<long> Uids(pid_t pid) {
  std::istringstream in(StatusField(pid, "Uid"));
  std::vector<long> uids;
  for (long u; in >> u;) uids.push_back(u);
  return uids;
}

std::vector<pid_t> Children(pid_t parent) {
  std::vector<pid_t> out;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    pid_t pid = std::stoi(name);
    std::string ppid = StatusField(pid, "PPid");
    if (!ppid.empty() && std::stol(ppid) == parent) out.push_back(pid);
  }
  return out;
}

// The children's command lines, for a failure message.
std::string ChildCommands(pid_t parent) {
  std::string out;
  for (pid_t child : Children(parent)) {
    std::string cmd = ReadFile("/proc/" + std::to_string(child) + "/cmdline");
    std::replace(cmd.begin(), cmd.end(), '\0', ' ');
    out += std::to_string(child) + ": " + cmd + "\n";
  }
  return out;
}


TEST(PrivDaemonTest, UnprivilegedDaemonTestsADeviceThroughTheRootHelper) {
  if (::geteuid() != 0) DP_SKIP_WITHOUT("root", "needs root (the daemon must start as root)");
  struct passwd* pw = ::getpwnam("nobody");
  if (!pw) DP_SKIP_WITHOUT("user nobody", "no user 'nobody' here");
  const uid_t nobody = pw->pw_uid;
  std::string why = LoopDevice::Unavailable();
  if (!why.empty()) DP_SKIP_WITHOUT("loop devices", why);
  auto loop = LoopDevice::Create(64ULL << 20);
  ASSERT_TRUE(loop.ok()) << loop.status().ToString();
  // Not vacuous: nobody could not open the device by itself.
  struct stat st {};
  ASSERT_EQ(::stat((*loop)->path().c_str(), &st), 0);
  ASSERT_EQ(st.st_mode & S_IROTH, 0u) << (*loop)->path() << " is world-readable";

  TempDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);  // nobody reaches var/ inside
  // A stand-in zpool that says who ran it and what it inherited.
  const std::string marker = dir.Path("zpool-uid");
  const std::string fds = dir.Path("zpool-fds");
  std::string zpool =
      dir.Write("fake-zpool", "#!/bin/sh\nid -u > '" + marker +
                                  "'\nfor f in /proc/$$/fd/*; do readlink \"$f\"; done > '" + fds +
                                  "'\necho 'no pools available' >&2\nexit 1\n");
  ASSERT_EQ(::chmod(zpool.c_str(), 0755), 0);

  json patch = {
      {"user", "nobody"},
      {"targets", json::array({{{"path", (*loop)->path()}, {"name", "bench-a"}}})},
      {"inventory",
       {{"include", json::array({(*loop)->name()})},
        {"sysfs_root", "/sys"},
        {"dev_root", "/dev"},
        {"udev_data_dir", "/run/udev/data"},
        {"proc_root", "/proc"}}},
      {"tools", {{"zpool", zpool}}},
      {"bench", {{"engine", "pread"}, {"max_seconds", 1}, {"max_bytes", 1ULL << 30}}},
      {"schedules", json::array({{{"name", "privsep"},
                                  {"tests", {"seq"}},
                                  {"when", "@every 2s"},
                                  {"drives", {"bench-a"}}}})},
      {"scheduler", {{"retry_every", "1s"}, {"defer_window", "1h"}}},
  };
  auto daemon = DaemonProcess::Start(dir, patch);
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  const pid_t pid = (*daemon)->pid();
  const int port = (*daemon)->port();

  json ok_runs;
  bool ran = Eventually(
      [&] {
        auto r = HttpGet(port, "/api/v1/runs?test=seq&outcome=ok");
        if (!r.received || r.status != 200) return false;
        ok_runs = r.Json();
        return ok_runs.is_array() && !ok_runs.empty();
      },
      std::chrono::seconds(45));
  ASSERT_TRUE(ran) << (*daemon)->Output();
  EXPECT_EQ(ok_runs[0]["outcome"], "ok");

  // The daemon runs as nobody, all four uids; its one root child is the helper.
  EXPECT_EQ(Uids(pid), std::vector<long>(4, static_cast<long>(nobody)));
  std::vector<pid_t> helpers;
  for (pid_t child : Children(pid))
    if (Uids(child) == std::vector<long>(4, 0L)) helpers.push_back(child);
  ASSERT_EQ(helpers.size(), 1u) << (*daemon)->Output();
  const pid_t helper = helpers[0];

  std::string out = (*daemon)->Output();
  EXPECT_NE(out.find("privileged helper running as root (pid " + std::to_string(helper)),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("privileged helper: opened " + (*loop)->path() + " read-only"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("running as user nobody"), std::string::npos);
  // Discovery's zpool went through the helper and ran as root, without the
  // helper's socket (or any of the daemon's) among its descriptors.
  EXPECT_TRUE(Eventually([&] { return ReadFile(marker) == "0\n"; }, std::chrono::seconds(10)))
      << ReadFile(marker);
  EXPECT_EQ(ReadFile(fds).find("socket:"), std::string::npos) << ReadFile(fds);
  // The helper keeps stdio and its socket, nothing of the daemon's.
  std::vector<std::string> helper_fds;
  for (const auto& e :
       std::filesystem::directory_iterator("/proc/" + std::to_string(helper) + "/fd"))
    helper_fds.push_back(e.path().filename().string() + " -> " +
                         std::filesystem::read_symlink(e.path()).string());
  std::sort(helper_fds.begin(), helper_fds.end());
  ASSERT_EQ(helper_fds.size(), 4u) << ::testing::PrintToString(helper_fds);
  EXPECT_EQ(helper_fds[3].rfind("3 -> socket:", 0), 0u) << helper_fds[3];

  (*daemon)->Signal(SIGTERM);
  auto code = (*daemon)->WaitExit(std::chrono::seconds(20));
  ASSERT_TRUE(code.has_value()) << (*daemon)->Output();
  EXPECT_EQ(*code, 0) << (*daemon)->Output();
  // The helper does not outlive the daemon.
  EXPECT_TRUE(Eventually([&] { return ::kill(helper, 0) != 0 && errno == ESRCH; },
                         std::chrono::seconds(10)));
}

// Without `user` nothing changes: no helper, the daemon keeps its uid.
TEST(PrivDaemonTest, WithoutUserThereIsNoHelper) {
  TempDir dir;
  auto daemon = DaemonProcess::Start(dir);
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  // A tool discovery runs at start is a child for a moment; a helper would
  // stay for the daemon's life.
  const pid_t pid = (*daemon)->pid();
  EXPECT_TRUE(Eventually([&] { return Children(pid).empty(); }, std::chrono::seconds(10)))
      << ChildCommands(pid);
  EXPECT_EQ((*daemon)->Output().find("privileged helper"), std::string::npos);
  EXPECT_EQ(Uids(pid).at(0), static_cast<long>(::getuid()));
}

}  // namespace
}  // namespace dp
