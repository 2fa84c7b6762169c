// smartctl and zpool hanging inside a discovery pass of the real daemon. The
// drive is a real loop device found in the real /sys (inventory.include);
// SMART and ZFS cannot run on it here, so tools.smartctl and tools.zpool are
// stand-in scripts that replay real captures from tests/fixtures and hang
// (a `sleep` child of the script, so the whole process group must be
// killed) while a marker file exists. The daemon must kill them at
// tools.timeout_seconds, keep serving meanwhile, mark the drive and the
// pools with the reason in /api/v1/health (the pools' last record stays),
// and the next pass, asked for with SIGHUP, must read both again and clear
// the marks.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
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
using Steady = std::chrono::steady_clock;

// A hang long enough never to end by itself, and a number no other process
// here sleeps, so the test can see that none is left behind.
const char* const kHangSeconds = "86317";

int CountRows(const std::string& db_path, const std::string& sql) {
  sqlite3* db = nullptr;
  int n = -1;
  if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_busy_timeout(db, 10000);
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
      n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return n;
}

// Processes running `sleep kHangSeconds` (left over from a killed tool).
int LeftoverSleeps() {
  int n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    std::ifstream in(e.path() / "cmdline");
    std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (cmd.find(std::string("sleep") + '\0' + kHangSeconds) != std::string::npos) ++n;
  }
  return n;
}

std::string StandIn(const TempDir& dir, const std::string& name, const std::string& body) {
  std::string path = dir.Write(name, "#!/bin/sh\n" + body);
  ::chmod(path.c_str(), 0755);
  return path;
}

TEST(HungToolE2eTest, DiscoveryKillsAHungSmartctlAndZpoolMarksThemAndTheNextPassIsFine) {
  if (std::string why = LoopDevice::Unavailable(); !why.empty())
    DP_SKIP_WITHOUT("loop devices", why);
  auto loop = LoopDevice::Create(64ULL << 20, /*direct_io=*/false);
  ASSERT_TRUE(loop.ok()) << loop.status().ToString();
  const std::string drive_id = "path-" + (*loop)->path();

  TempDir dir;
  const std::string hang = dir.Path("hang");
  const std::string smart_capture = FixturePath("smartctl/ata-hdd-WDC-WD140EDFZ-14tb-healthy.json");
  const std::string pools_capture = FixturePath("zpool/json-three-pools-json-int-trimmed.json");
  // smartctl: the capture for any question; zpool: the capture for `status
  // -j`, nothing for the rest (the ZFS latency sampler's iostat: a warning).
  const std::string smartctl = StandIn(
      dir, "fake-smartctl",
      "if [ -e '" + hang + "' ]; then sleep " + kHangSeconds + "; fi\ncat '" + smart_capture +
          "'\n");
  const std::string zpool = StandIn(
      dir, "fake-zpool",
      "if [ -e '" + hang + "' ]; then sleep " + kHangSeconds + "; fi\n"
      "if [ \"$1 $2\" = 'status -j' ]; then cat '" + pools_capture + "'; exit 0; fi\nexit 1\n");
  // Only the loop device: this machine's own disks are left out.
  json others = json::array();
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/sys/block", ec))
    if (e.path().filename() != (*loop)->name()) others.push_back(e.path().filename().string());
  const json patch = {
      {"log_level", "info"},
      {"inventory",
       {{"include", json::array({(*loop)->name()})},
        {"exclude", others},
        {"sysfs_root", "/sys"},
        {"dev_root", "/dev"},
        {"udev_data_dir", "/run/udev/data"},
        {"proc_root", "/proc"}}},
      {"tools", {{"smartctl", smartctl}, {"zpool", zpool}, {"timeout_seconds", 2}}},
  };
  auto started = DaemonProcess::Start(dir, patch);
  ASSERT_TRUE(started.ok()) << started.status().message();
  DaemonProcess& daemon = **started;
  const std::string db_path = dir.Path("var/diskpulse.db");
  const std::string snapshots =
      "SELECT COUNT(*) FROM smart_snapshots WHERE drive_id = '" + drive_id + "'";

  auto discovery = [&] {
    json h = HttpGet(daemon.port(), "/api/v1/health").Json();
    return h.is_object() && h.contains("discovery") ? h["discovery"] : json::object();
  };
  auto passes = [&] { return discovery().value("passes", 0); };

  // The first pass reads both.
  ASSERT_TRUE(Eventually([&] { return passes() >= 1; }, 15s)) << daemon.Output();
  ASSERT_EQ(CountRows(db_path, snapshots), 1) << daemon.Output();
  ASSERT_GT(CountRows(db_path, "SELECT COUNT(*) FROM pools"), 0) << daemon.Output();
  json d = discovery();
  EXPECT_TRUE(d["drives"].empty()) << d.dump();
  EXPECT_TRUE(d["pools"].is_null()) << d.dump();

  // Both tools hang in the next pass.
  std::ofstream(hang) << "hang\n";
  daemon.Signal(SIGHUP);
  const auto t0 = Steady::now();
  // Meanwhile the daemon answers at once.
  ASSERT_TRUE(Eventually([&] { return LeftoverSleeps() > 0; }, 10s)) << daemon.Output();
  const auto h0 = Steady::now();
  EXPECT_EQ(HttpGet(daemon.port(), "/api/v1/health").status, 200);
  EXPECT_LT(Steady::now() - h0, 1s);
  ASSERT_TRUE(Eventually([&] { return passes() >= 2; }, 15s)) << daemon.Output();
  // zpool then smartctl, each killed at its 2 s.
  EXPECT_GE(Steady::now() - t0, 3s);
  d = discovery();
  ASSERT_TRUE(d["drives"].contains(drive_id)) << d.dump() << "\n" << daemon.Output();
  const std::string smart_why = d["drives"][drive_id].get<std::string>();
  EXPECT_NE(smart_why.find("no answer after 2 s; killed"), std::string::npos) << smart_why;
  EXPECT_NE(smart_why.find(smartctl), std::string::npos) << smart_why;
  ASSERT_TRUE(d["pools"].is_string()) << d.dump();
  EXPECT_NE(d["pools"].get<std::string>().find("killed"), std::string::npos) << d.dump();
  EXPECT_TRUE(d["error"].is_null()) << d.dump();
  EXPECT_EQ(LeftoverSleeps(), 0) << "a killed tool left its child running";
  // Nothing new was read, nothing known was dropped.
  EXPECT_EQ(CountRows(db_path, snapshots), 1);
  auto pools = HttpGet(daemon.port(), "/api/v1/pools");
  EXPECT_EQ(pools.status, 200);
  EXPECT_NE(pools.body.find("zpool-nvme"), std::string::npos) << pools.body;
  EXPECT_TRUE(daemon.WaitForOutput("SMART: ", 5s)) << daemon.Output();

  // The tools answer again: the next pass reads both and clears the marks.
  fs::remove(hang);
  daemon.Signal(SIGHUP);
  ASSERT_TRUE(Eventually([&] { return passes() >= 3; }, 15s)) << daemon.Output();
  d = discovery();
  EXPECT_TRUE(d["drives"].empty()) << d.dump();
  EXPECT_TRUE(d["pools"].is_null()) << d.dump();
  EXPECT_EQ(CountRows(db_path, snapshots), 2) << daemon.Output();

  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.WaitExit(20s), 0) << daemon.Output();
}

}  // namespace
}  // namespace dp::testing
