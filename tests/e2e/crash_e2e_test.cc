// Crashes: the real diskpulsed, a loop device as its drive and a `seq` test
// every 2 s, killed with SIGKILL at random moments (during runs, measurement
// writes, evaluation, start-up discovery and retention) and restarted. After
// each kill: PRAGMA integrity_check is ok, no run that had finished (and no
// measurement of it) is lost or changed, and on the next start every run the
// kill interrupted is recorded as interrupted; at the end the schedule still
// runs. Also SIGSTOP then SIGCONT: the daemon sees its clock jump and carries
// on.
//
// Bounded for the suite (DP_CRASH_KILLS, default 6; DP_STOP_SECONDS, default
// 5); benchmarks/crash.sh runs 50 kills and a 10-minute stop and prints the figures.
// Needs root and losetup; skips otherwise.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "support/capability.h"
#include "support/daemon_process.h"
#include "support/eventually.h"
#include "support/http_client.h"
#include "support/loop_daemon.h"
#include "support/loop_device.h"
#include "support/temp_dir.h"

namespace dp::testing {
namespace {

using Steady = std::chrono::steady_clock;
using nlohmann::json;

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

// A plain sqlite3 connection to the daemon's database (the test's own, so
// nothing of the store's is involved in checking the store's work).
class Db {
 public:
  explicit Db(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
      ADD_FAILURE() << "cannot open " << path;
    sqlite3_busy_timeout(db_, 10000);
  }
  ~Db() { sqlite3_close(db_); }
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  // Rows as strings, columns joined by '|'.
  std::vector<std::string> Rows(const std::string& sql) {
    std::vector<std::string> out;
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db_);
      return out;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
      std::string row;
      for (int c = 0; c < sqlite3_column_count(st); ++c) {
        if (c) row += '|';
        auto* t = sqlite3_column_text(st, c);
        row += t ? reinterpret_cast<const char*>(t) : "NULL";
      }
      out.push_back(row);
    }
    sqlite3_finalize(st);
    return out;
  }

 private:
  sqlite3* db_ = nullptr;
};

// What the database holds at one moment: each run's state, and for
// finished runs their whole row and measurement count.
struct Picture {
  std::map<std::string, std::string> finished;  // id -> "row|measurements"
  std::set<std::string> unfinished;             // ids queued, deferred or running
  std::string integrity;
};

Picture Take(const std::string& path) {
  Picture p;
  Db db(path);
  auto check = db.Rows("PRAGMA integrity_check");
  for (const auto& line : check) p.integrity += line;
  for (const auto& row : db.Rows(
           "SELECT runs.id, outcome, test, started_at, ifnull(ended_at, ''), reason, "
           "  (SELECT count(*) FROM measurements m WHERE m.run_id = runs.id) FROM runs")) {
    const std::string id = row.substr(0, row.find('|'));
    const std::string rest = row.substr(id.size() + 1);
    const std::string outcome = rest.substr(0, rest.find('|'));
    if (outcome == "queued" || outcome == "deferred" || outcome == "running")
      p.unfinished.insert(id);
    else
      p.finished[id] = rest;
  }
  return p;
}

class CrashE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why = LoopDevice::Unavailable();
    if (!why.empty()) DP_SKIP_WITHOUT("loop devices", why);
    auto loop = LoopDevice::Create(64ULL << 20, /*direct_io=*/true);
    ASSERT_TRUE(loop.ok()) << loop.status().ToString();
    loop_ = std::move(loop).value();
    db_path_ = dir_.Path("var/diskpulse.db");
  }

  json Patch() const {
    LoopTargetOptions o;
    o.name = "crash-a";
    o.max_bytes = 64ULL << 20;
    o.busy_above = 0.9;
    return LoopTargetConfig(*loop_, o);
  }

  // Runs that finished ok after `since` (unix seconds).
  int OkRunsSince(std::int64_t since) {
    Db db(db_path_);
    auto rows = db.Rows("SELECT count(*) FROM runs WHERE outcome = 'ok' AND started_at >= " +
                        std::to_string(since));
    return rows.empty() ? 0 : std::atoi(rows[0].c_str());
  }

  TempDir dir_;
  std::unique_ptr<LoopDevice> loop_;
  std::unique_ptr<DaemonProcess> daemon_;
  std::string db_path_;
};

TEST_F(CrashE2eTest, KillNineAtRandomMomentsLosesNothing) {
  const int kills = EnvInt("DP_CRASH_KILLS", 6);
  const unsigned seed = static_cast<unsigned>(EnvInt("DP_CRASH_SEED", 20261201));
  std::mt19937 rng(seed);
  // 0.05 .. 4 s after the daemon is up: start-up discovery, the first run's
  // reads, its measurement writes and evaluation, the 2 s gaps between runs.
  std::uniform_int_distribution<int> delay_ms(50, 4000);

  Picture before;  // as the last kill left it
  int interrupted_recorded = 0, finished_checked = 0;
  for (int k = 0; k <= kills; ++k) {
    auto d = DaemonProcess::Start(dir_, Patch(), std::chrono::seconds(30));
    ASSERT_TRUE(d.ok()) << "start " << k << ": " << d.status().ToString();
    daemon_ = std::move(d).value();

    if (k > 0) {
      // Every run the kill interrupted is closed as interrupted, and every
      // finished run is exactly as it was.
      for (const std::string& id : before.unfinished) {
        std::string got;
        ASSERT_TRUE(Eventually(
            [&] {
              Picture now = Take(db_path_);
              auto it = now.finished.find(id);
              if (it == now.finished.end()) return false;
              got = it->second;
              return true;
            },
            std::chrono::seconds(20)))
            << "run " << id << " still unfinished after restart " << k << "\n"
            << daemon_->Output();
        EXPECT_NE(got.find("interrupted: the daemon stopped"), std::string::npos)
            << "run " << id << ": " << got;
        ++interrupted_recorded;
      }
      Picture now = Take(db_path_);
      for (const auto& [id, row] : before.finished) {
        auto it = now.finished.find(id);
        ASSERT_NE(it, now.finished.end()) << "finished run " << id << " lost after kill " << k;
        EXPECT_EQ(it->second, row) << "finished run " << id << " changed after kill " << k;
        ++finished_checked;
      }
    }
    if (k == kills) break;

    const int ms = delay_ms(rng);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    daemon_->Signal(SIGKILL);
    ASSERT_TRUE(daemon_->WaitExit(std::chrono::seconds(10)).has_value());
    daemon_.reset();
    before = Take(db_path_);
    ASSERT_EQ(before.integrity, "ok") << "after kill " << k + 1 << " at " << ms << " ms";
  }

  // The schedule goes on after the last restart.
  const std::int64_t restarted =
      std::chrono::duration_cast<std::chrono::seconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count();
  EXPECT_TRUE(Eventually([&] { return OkRunsSince(restarted - 1) >= 2; },
                         std::chrono::seconds(60)))
      << daemon_->Output();
  Picture end = Take(db_path_);
  EXPECT_EQ(end.integrity, "ok");
  int ok_runs = 0;
  for (const auto& [id, row] : end.finished)
    if (row.rfind("ok|", 0) == 0) ++ok_runs;
  std::cout << "crash: " << kills << " kills (seed " << seed << "), integrity_check ok after "
            << "each, " << finished_checked << " finished-run checks unchanged, "
            << interrupted_recorded << " interrupted runs recorded as interrupted, " << ok_runs
            << " ok runs in all, schedule resumed\n";
  daemon_->Signal(SIGTERM);
  EXPECT_EQ(daemon_->WaitExit(std::chrono::seconds(20)), 0);
}

TEST_F(CrashE2eTest, StoppedThenContinuedCarriesOn) {
  const int stop_seconds = EnvInt("DP_STOP_SECONDS", 5);
  auto d = DaemonProcess::Start(dir_, Patch(), std::chrono::seconds(30));
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  daemon_ = std::move(d).value();
  ASSERT_TRUE(Eventually([&] { return OkRunsSince(0) >= 1; }, std::chrono::seconds(60)))
      << daemon_->Output();

  daemon_->Signal(SIGSTOP);
  std::this_thread::sleep_for(std::chrono::seconds(stop_seconds));
  const std::int64_t continued =
      std::chrono::duration_cast<std::chrono::seconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count();
  daemon_->Signal(SIGCONT);

  // It answers at once, then goes on with its schedule; a run caught by the
  // stop finishes (its time budget simply ran out while stopped).
  EXPECT_TRUE(Eventually([&] { return HttpGet(daemon_->port(), "/api/v1/health").status == 200; },
                         std::chrono::seconds(10)));
  EXPECT_TRUE(Eventually([&] { return OkRunsSince(continued) >= 2; }, std::chrono::seconds(60)))
      << daemon_->Output();
  // The missed slots are not made up for in a burst: @every counts from the
  // last run, and runs of one drive never overlap.
  Db db(db_path_);
  auto rows = db.Rows("SELECT started_at, ifnull(ended_at, started_at) FROM runs "
                      "WHERE outcome <> 'cancelled' ORDER BY started_at, id");
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const std::int64_t prev_end = std::atoll(rows[i - 1].substr(rows[i - 1].find('|') + 1).c_str());
    const std::int64_t start = std::atoll(rows[i].c_str());
    EXPECT_GE(start, prev_end) << "runs overlap: " << rows[i - 1] << " and " << rows[i];
  }
  Picture p = Take(db_path_);
  EXPECT_EQ(p.integrity, "ok");
  std::cout << "stop: SIGSTOP " << stop_seconds << " s, then SIGCONT: health answered, "
            << OkRunsSince(continued) << " ok runs since, " << rows.size() << " runs in all\n";
  daemon_->Signal(SIGTERM);
  EXPECT_EQ(daemon_->WaitExit(std::chrono::seconds(20)), 0);
}

}  // namespace
}  // namespace dp::testing
