// The wall clock jumping under a running daemon: the real diskpulsed with a
// regular file as its target and a `seq` test every 2 s, its wall clock moved
// by libfaketime (read from a file it re-reads at every call; the monotonic
// clock is left real, as when an administrator or a bad NTP source steps the
// time), first back a day and then forward a month. It must keep serving,
// keep running its schedule after each jump (a run whose last time lies in
// the future must not wait a day for it; a month of missed slots is not made
// up in a burst), keep its runs' rows in order of id, and stop cleanly with a
// whole database. Skips without Debian's libfaketime (scripts/setup.sh
// installs it for the test command).
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "support/capability.h"
#include "support/daemon_process.h"
#include "support/eventually.h"
#include "support/http_client.h"
#include "support/temp_dir.h"

namespace dp::testing {
namespace {

using nlohmann::json;
using Steady = std::chrono::steady_clock;

const char* const kFaketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1";

// Finished runs: started_at of each, by id.
std::vector<long long> RunStarts(const std::string& path, std::string* integrity = nullptr) {
  std::vector<long long> out;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) return out;
  sqlite3_busy_timeout(db, 10000);
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT started_at FROM runs WHERE outcome = 'ok' ORDER BY id", -1,
                         &st, nullptr) == SQLITE_OK)
    while (sqlite3_step(st) == SQLITE_ROW) out.push_back(sqlite3_column_int64(st, 0));
  sqlite3_finalize(st);
  if (integrity != nullptr &&
      sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, nullptr) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW)
      *integrity += reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return out;
}

long long RealNow() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Sets the environment the daemon is started with, and takes it back.
class FakedClockEnv {
 public:
  explicit FakedClockEnv(const std::string& offset_file) {
    ::setenv("LD_PRELOAD", kFaketime, 1);
    ::setenv("FAKETIME_TIMESTAMP_FILE", offset_file.c_str(), 1);
    ::setenv("FAKETIME_NO_CACHE", "1", 1);
    ::setenv("DONT_FAKE_MONOTONIC", "1", 1);
    // A daemon built with AddressSanitizer (scripts/sanitize.sh) refuses to
    // start when a preloaded library comes before its runtime. libfaketime
    // replaces only the time calls, which ASan does not intercept, so the
    // order does not matter here. Other builds ignore the variable.
    const char* asan = std::getenv("ASAN_OPTIONS");
    had_asan_ = asan != nullptr;
    if (asan) asan_ = asan;
    ::setenv("ASAN_OPTIONS",
             ((asan_.empty() ? "" : asan_ + ":") + "verify_asan_link_order=0").c_str(), 1);
  }
  ~FakedClockEnv() {
    for (const char* v : {"LD_PRELOAD", "FAKETIME_TIMESTAMP_FILE", "FAKETIME_NO_CACHE",
                          "DONT_FAKE_MONOTONIC"})
      ::unsetenv(v);
    if (had_asan_)
      ::setenv("ASAN_OPTIONS", asan_.c_str(), 1);
    else
      ::unsetenv("ASAN_OPTIONS");
  }

 private:
  bool had_asan_ = false;
  std::string asan_;
};

TEST(ClockJumpE2eTest, BackADayThenForwardAMonthTheScheduleGoesOn) {
  if (!std::filesystem::exists(kFaketime))
    DP_SKIP_WITHOUT("libfaketime", "libfaketime is not installed (" << kFaketime << ")");
  TempDir dir;
  const std::string db_path = dir.Path("var/diskpulse.db");
  const std::string offset = dir.Path("faketime");
  auto set_offset = [&](const std::string& o) { std::ofstream(offset) << o << "\n"; };
  set_offset("+0");
  // Discovery of the stand-in host (no drives of its own) must succeed for
  // the target to be taken in.
  std::filesystem::create_directories(dir.Path("host/sys/block"));
  {
    std::ofstream f(dir.Path("target.img"), std::ios::binary);
    const std::string mib(1 << 20, '\x5a');
    for (int i = 0; i < 16; ++i) f << mib;
  }
  const json patch = {
      {"log_level", "info"},
      {"targets", json::array({{{"path", dir.Path("target.img")}, {"name", "file"}}})},
      {"bench", {{"max_seconds", 1}, {"max_bytes", 16 << 20}}},
      // The file lives on this machine's busy root disk: never defer for
      // that, and retry at once should anything else defer a run.
      {"scheduler", {{"retry_every", "1s"}, {"busy_above", 1.0}}},
      {"schedules", json::array({{{"name", "often"}, {"tests", {"seq"}}, {"when", "@every 2s"}}})},
  };
  std::unique_ptr<DaemonProcess> daemon;
  {
    FakedClockEnv env(offset);
    auto d = DaemonProcess::Start(dir, patch);
    ASSERT_TRUE(d.ok()) << d.status().message();
    daemon = std::move(d).value();
  }
  ASSERT_TRUE(Eventually([&] { return RunStarts(db_path).size() >= 2; }, std::chrono::seconds(30)))
      << daemon->Output();

  // Back a day: the last run now lies a day in the future.
  set_offset("-1d");
  std::size_t before = RunStarts(db_path).size();
  ASSERT_TRUE(Eventually([&] { return RunStarts(db_path).size() >= before + 2; },
                         std::chrono::seconds(30)))
      << "no run after the clock went back a day\n"
      << daemon->Output();
  auto starts = RunStarts(db_path);
  // The fake reached the daemon: its newest run is dated about a day back,
  // and the scheduler saw the jump (rather than waiting a day for the slot).
  EXPECT_LT(starts.back(), RealNow() - 23 * 3600);
  EXPECT_TRUE(daemon->WaitForOutput("the clock went back", std::chrono::seconds(5)))
      << daemon->Output();
  EXPECT_EQ(HttpGet(daemon->port(), "/api/v1/health").status, 200);

  // Forward a month: slots missed over 31 days are not made up in a burst.
  set_offset("+30d");
  before = RunStarts(db_path).size();
  ASSERT_TRUE(Eventually([&] { return RunStarts(db_path).size() >= before + 2; },
                         std::chrono::seconds(30)))
      << "no run after the clock went forward a month\n"
      << daemon->Output();
  const auto t0 = Steady::now();
  const std::size_t at_t0 = RunStarts(db_path).size();
  std::this_thread::sleep_for(std::chrono::seconds(6));
  const double secs = std::chrono::duration<double>(Steady::now() - t0).count();
  const std::size_t in_window = RunStarts(db_path).size() - at_t0;
  // @every 2s: about one run per 2 s (each takes up to 1 s), never hundreds.
  EXPECT_LE(in_window, static_cast<std::size_t>(secs / 2) + 2) << daemon->Output();
  starts = RunStarts(db_path);
  EXPECT_GT(starts.back(), RealNow() + 29 * 86400);
  EXPECT_EQ(HttpGet(daemon->port(), "/api/v1/health").status, 200);

  daemon->Signal(SIGTERM);
  EXPECT_EQ(daemon->WaitExit(std::chrono::seconds(20)), 0) << daemon->Output();
  std::string integrity;
  RunStarts(db_path, &integrity);
  EXPECT_EQ(integrity, "ok");
}

}  // namespace
}  // namespace dp::testing
