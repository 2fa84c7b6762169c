// The database's volume turning read-only under the running daemon: an ext4
// file system on a loop device (backed by /dev/shm), mounted with
// errors=remount-ro and holding the database, is made to take an error
// through ext4's own trigger (/sys/fs/ext4/<dev>/trigger_fs_error), so the
// kernel remounts it read-only as it does after an I/O error of a failing
// boot stick. `mount -o remount,ro` cannot do this: it refuses (busy) while
// the daemon holds the database open for writing, and so would any real
// administrator's remount. The daemon must stay up and keep serving reads,
// say in /api/v1/health that writes fail and why, refuse a requested run
// with the reason, log the scheduled slots it cannot store, and stop cleanly.
// An ext4 that took an error cannot be remounted read-write while mounted
// (the kernel keeps it emergency read-only), so recovery is what an
// administrator does: stop the daemon, unmount, e2fsck, mount, start it
// again; nothing committed is lost, the file passes integrity_check, and the
// schedule runs again. Needs root, losetup, mkfs.ext4, e2fsck and ext4's
// trigger; skips with the reason otherwise.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>

#include "support/capability.h"
#include "support/daemon_process.h"
#include "support/eventually.h"
#include "support/http_client.h"
#include "support/loop_device.h"
#include "support/temp_dir.h"

namespace dp::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const char* const kToken = "readonly-test-token";

std::string Tool(const std::string& name) {
  for (const char* dir : {"/usr/sbin/", "/sbin/", "/usr/bin/"})
    if (fs::exists(std::string(dir) + name)) return std::string(dir) + name;
  return "";
}

// An ext4 file system on a loop device, mounted on `mount_point` with
// errors=remount-ro; unmounted (lazily, should the daemon still hold it)
// and detached on destruction, also when the test fails.
class Ext4Volume {
 public:
  static std::string Unavailable() {
    if (::geteuid() != 0) return "needs root (mount)";
    if (std::string why = LoopDevice::Unavailable(); !why.empty()) return why;
    if (Tool("mkfs.ext4").empty()) return "mkfs.ext4 not installed";
    if (Tool("e2fsck").empty()) return "e2fsck not installed";
    return "";
  }

  explicit Ext4Volume(const std::string& mount_point) : mount_point_(mount_point) {
    fs::create_directories(mount_point_);
    const std::string dir = fs::is_directory("/dev/shm") ? "/dev/shm" : "";
    auto loop = LoopDevice::Create(64ULL << 20, /*direct_io=*/false, dir);
    if (!loop.ok()) {
      error_ = loop.status().ToString();
      return;
    }
    loop_ = std::move(loop).value();
    auto made = RunProgram({Tool("mkfs.ext4"), "-q", "-F", loop_->path()}, 60s);
    if (made.exit_code != 0) {
      error_ = "mkfs.ext4: " + made.output;
      return;
    }
    if (!Mount()) return;
  }

  ~Ext4Volume() {
    if (mounted_) ::umount2(mount_point_.c_str(), MNT_DETACH);
  }

  const std::string& error() const { return error_; }
  std::string device() const { return loop_ ? loop_->path() : ""; }
  std::string trigger() const {
    return loop_ ? "/sys/fs/ext4/" + loop_->name() + "/trigger_fs_error" : "";
  }

  bool Mount() {
    if (::mount(loop_->path().c_str(), mount_point_.c_str(), "ext4", 0, "errors=remount-ro") != 0) {
      error_ = "mount " + loop_->path() + ": " + std::strerror(errno);
      return false;
    }
    mounted_ = true;
    return true;
  }
  bool Unmount() {
    if (::umount(mount_point_.c_str()) != 0) {
      error_ = "umount: " + std::string(std::strerror(errno));
      return false;
    }
    mounted_ = false;
    return true;
  }
  // Whether the kernel has it read-only now (/proc/mounts: "ro", or since
  // Linux 6.15 "rw,...,emergency_ro" for an ext4 that took an error).
  bool ReadOnly() const {
    std::ifstream in("/proc/mounts");
    std::string dev, at, type, options, rest;
    while (in >> dev >> at >> type >> options && std::getline(in, rest))
      if (at == mount_point_)
        return options == "ro" || options.rfind("ro,", 0) == 0 ||
               (options + ",").find(",emergency_ro,") != std::string::npos;
    return false;
  }

 private:
  std::string mount_point_;
  std::unique_ptr<LoopDevice> loop_;
  bool mounted_ = false;
  std::string error_;
};

// The ids of the runs with outcome ok, as the daemon serves them.
std::set<long long> OkRunIds(int port) {
  std::set<long long> ids;
  auto r = HttpGet(port, "/api/v1/runs?outcome=ok&limit=1000");
  if (r.status != 200) return ids;
  for (const auto& run : r.Json()) ids.insert(run.value("id", 0LL));
  return ids;
}

// Runs stored with outcome ok (and integrity_check), read from the file
// itself with the daemon stopped.
std::set<long long> OkRunIdsInFile(const std::string& path, std::string* integrity) {
  std::set<long long> ids;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    *integrity = std::string("cannot open: ") + sqlite3_errmsg(db);
    sqlite3_close(db);
    return ids;
  }
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT id FROM runs WHERE outcome = 'ok'", -1, &st, nullptr) ==
      SQLITE_OK)
    while (sqlite3_step(st) == SQLITE_ROW) ids.insert(sqlite3_column_int64(st, 0));
  sqlite3_finalize(st);
  if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, nullptr) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW)
      *integrity += reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return ids;
}

TEST(ReadOnlyDbE2eTest, TheVolumeGoesReadOnlyTheDaemonSaysWhyAndRecoversAfterRepair) {
  if (std::string why = Ext4Volume::Unavailable(); !why.empty())
    DP_SKIP_WITHOUT("ext4 volume on a loop device", why);
  TempDir dir;
  const std::string vol_path = dir.Path("vol");
  Ext4Volume vol(vol_path);
  ASSERT_EQ(vol.error(), "");
  if (!fs::exists(vol.trigger()))
    DP_SKIP_WITHOUT("ext4 error injection", "this kernel's ext4 has no " << vol.trigger());
  const std::string db_path = vol_path + "/diskpulse.db";

  std::filesystem::create_directories(dir.Path("host/sys/block"));
  std::filesystem::create_directories(dir.Path("var"));  // the pidfile's
  {
    std::ofstream f(dir.Path("target.img"), std::ios::binary);
    const std::string mib(1 << 20, '\x5a');
    for (int i = 0; i < 16; ++i) f << mib;
  }
  const json patch = {
      {"database", db_path},
      {"api_token", kToken},
      {"log_level", "info"},
      {"targets", json::array({{{"path", dir.Path("target.img")}, {"name", "file"}}})},
      {"bench", {{"max_seconds", 1}, {"max_bytes", 16 << 20}}},
      {"scheduler", {{"retry_every", "1s"}, {"busy_above", 1.0}}},
      {"schedules", json::array({{{"name", "often"}, {"tests", {"seq"}}, {"when", "@every 2s"}}})},
  };
  std::set<long long> before;
  {
    auto started = DaemonProcess::Start(dir, patch);
    ASSERT_TRUE(started.ok()) << started.status().message();
    DaemonProcess& daemon = **started;
    ASSERT_TRUE(Eventually([&] { return OkRunIds(daemon.port()).size() >= 2; }, 30s))
        << daemon.Output();
    ASSERT_EQ(HttpGet(daemon.port(), "/api/v1/health").status, 200);

    // The kernel takes the volume read-only under the open database.
    {
      std::ofstream t(vol.trigger());
      t << "diskpulse test: the database volume fails\n";
    }
    ASSERT_TRUE(Eventually([&] { return vol.ReadOnly(); }, 5s)) << "the volume stayed writable";
    before = OkRunIds(daemon.port());

    // Health says the database cannot be written, and why.
    HttpResult health;
    ASSERT_TRUE(Eventually(
        [&] {
          health = HttpGet(daemon.port(), "/api/v1/health");
          return health.status == 503;
        },
        20s))
        << health.status << " " << health.body << "\n" << daemon.Output();
    const json h = health.Json();
    EXPECT_EQ(h.value("status", ""), "error");
    const std::string db = h.value("db", "");
    EXPECT_NE(db.find("writes fail"), std::string::npos) << db;
    EXPECT_NE(db.find(db_path), std::string::npos) << db;
    EXPECT_NE(db.find("Read-only file system"), std::string::npos) << db;

    // A requested run is refused with the reason, not accepted and lost.
    auto posted = HttpRequest(daemon.port(), "POST", "/api/v1/runs",
                              R"({"drive": "file", "test": "seq", "force": true})",
                              {{"Authorization", std::string("Bearer ") + kToken},
                               {"Content-Type", "application/json"}});
    EXPECT_GE(posted.status, 500) << posted.body;
    EXPECT_NE(posted.body.find("Read-only file system"), std::string::npos) << posted.body;
    // The schedule's slots cannot be stored either, and the log says so.
    EXPECT_TRUE(daemon.WaitForOutput("cannot store the run of", 15s)) << daemon.Output();

    // Still up and serving what is stored.
    std::this_thread::sleep_for(3s);
    EXPECT_TRUE(daemon.Running()) << daemon.Output();
    EXPECT_EQ(HttpGet(daemon.port(), "/api/v1/runs?outcome=ok&limit=1000").status, 200);
    const std::set<long long> served = OkRunIds(daemon.port());
    for (long long id : before) EXPECT_TRUE(served.count(id)) << "run " << id << " not served";
    EXPECT_EQ(HttpGet(daemon.port(), "/api/v1/health").status, 503);

    daemon.Signal(SIGTERM);
    EXPECT_EQ(daemon.WaitExit(20s), 0) << daemon.Output();
  }

  // The administrator's repair: unmount, check, mount again.
  ASSERT_TRUE(vol.Unmount()) << vol.error();
  auto fsck = RunProgram({Tool("e2fsck"), "-f", "-y", vol.device()}, 60s);
  EXPECT_LE(fsck.exit_code, 1) << fsck.output;  // 0 clean, 1 errors corrected
  ASSERT_TRUE(vol.Mount()) << vol.error();
  std::string integrity;
  std::set<long long> in_file = OkRunIdsInFile(db_path, &integrity);
  EXPECT_EQ(integrity, "ok");
  for (long long id : before) EXPECT_TRUE(in_file.count(id)) << "run " << id << " was lost";

  // Started again on the repaired volume it is healthy and runs on.
  auto again = DaemonProcess::Start(dir, patch);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(HttpGet((*again)->port(), "/api/v1/health").status, 200);
  ASSERT_TRUE(Eventually([&] { return OkRunIds((*again)->port()).size() >= in_file.size() + 1; },
                         30s))
      << (*again)->Output();
  (*again)->Signal(SIGTERM);
  EXPECT_EQ((*again)->WaitExit(20s), 0) << (*again)->Output();
  integrity.clear();
  OkRunIdsInFile(db_path, &integrity);
  EXPECT_EQ(integrity, "ok");
}

}  // namespace
}  // namespace dp::testing
