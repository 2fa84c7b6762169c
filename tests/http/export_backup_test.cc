// A drive's export (every series, SMART figures and attributes, alerts) as
// JSON and CSV, and the online backup of the database through the router
// over a real store (MetricsFleet); the backup taken while a writer thread
// keeps adding runs with their points, as the scheduler does.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <thread>

#include "http/api.h"
#include "http/metrics_fleet_util.h"
#include "http/openapi_record_util.h"
#include "store/store.h"

namespace dp::http {
namespace {

using dp::testing::MetricsFleet;
using dp::testing::RouteAndRecord;
using nlohmann::json;

constexpr const char* kToken = "backup-token";
constexpr std::string_view kMagic{"SQLite format 3\0", 16};

class ExportBackupTest : public ::testing::Test {
 protected:
  Response Call(Method method, const std::string& target, bool token = false) {
    ApiContext ctx = fleet_.Context();
    ctx.api_token = kToken;
    auto router = BuildApiRouter(ctx);
    Request req = Request::Make(method, target);
    if (token) req.headers = {{"Authorization", std::string("Bearer ") + kToken}};
    return RouteAndRecord(*router, req);
  }
  MetricsFleet fleet_;
};

TEST_F(ExportBackupTest, JsonHasEverySeriesSmartAndAlerts) {
  Response r = Call(Method::kGet, "/api/v1/drives/sda/export?format=json");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.Header("Content-Disposition")->find(".json"), std::string::npos);
  json j = json::parse(r.body);
  EXPECT_EQ(j["drive"]["id"], fleet_.sda.id);
  // Every figure of every run: seq throughput of each day (the drop to 160
  // included) and the seek run's access time, oldest first.
  int seq_mb = 0;
  bool seek = false, dropped = false;
  std::int64_t last_at = 0;
  for (const json& m : j["measurements"]) {
    EXPECT_GE(m["at"].get<std::int64_t>(), last_at);
    last_at = m["at"];
    if (m["test"] == "seq" && m["metric"] == "mb_per_s") {
      ++seq_mb;
      dropped |= m["value"] == 160.0;
    }
    seek |= m["test"] == "seek" && m["metric"] == "access_ms" && m["value"] == 14.5;
  }
  EXPECT_EQ(seq_mb, 8);
  EXPECT_TRUE(dropped);
  EXPECT_TRUE(seek);
  ASSERT_EQ(j["smart"].size(), 1u);
  EXPECT_EQ(j["smart"][0]["temperature_c"], 38);
  EXPECT_EQ(j["smart"][0]["reallocated_sectors"], 8);
  EXPECT_EQ(j["smart"][0]["udma_crc_errors"], 3);
  ASSERT_EQ(j["alerts"].size(), 2u);
  EXPECT_EQ(j["alerts"][0]["condition"], "slowdown:seq:qd8-1m:mb_per_s");
  EXPECT_EQ(j["alerts"][1]["state"], "resolved");
  // Another drive's figures stay out.
  for (const json& m : j["measurements"]) EXPECT_NE(m["test"], "random");
}

TEST_F(ExportBackupTest, CsvIsOneLongTable) {
  Alert odd;
  odd.drive_id = fleet_.sda.id;
  odd.condition = "smart:temperature";
  odd.severity = "warning";
  odd.summary = "sda: \"hot\", 61 C";
  odd.opened_at = odd.updated_at = 1700000000 + 9 * 86400;
  ASSERT_TRUE(fleet_.store().InsertAlert(odd).ok());
  Response r = Call(Method::kGet, "/api/v1/drives/" + fleet_.sda.id + "/export?format=csv");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.content_type, "text/csv; charset=utf-8");
  EXPECT_EQ(r.body.rfind("record,at,run_id,test,metric,unit,zone,stroke,variant,block_size,"
                         "queue_depth,value,flags,text\r\n", 0), 0u) << r.body;
  EXPECT_NE(r.body.find(",seek,access_ms,ms,,full,,0,0,14.5,,\r\n"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("smart,1700000000,,,temperature_c,,,,,,,38,,\r\n"), std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find(",smart:temperature,,,,,,,,warning open,\"sda: \"\"hot\"\", 61 C\"\r\n"),
            std::string::npos)
      << r.body;
  // Every line has the header's 14 fields (quoted commas aside).
  std::size_t rows = 0;
  for (std::size_t at = 0; at < r.body.size();) {
    std::size_t end = r.body.find("\r\n", at);
    std::string line = r.body.substr(at, end - at);
    int fields = 1;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      else if (c == ',' && !quoted) ++fields;
    }
    EXPECT_EQ(fields, 14) << line;
    ++rows;
    at = end + 2;
  }
  EXPECT_GT(rows, 10u);
}

TEST_F(ExportBackupTest, BadFormatAndUnknownDrive) {
  EXPECT_EQ(Call(Method::kGet, "/api/v1/drives/sda/export?format=xml").status, 400);
  EXPECT_EQ(Call(Method::kGet, "/api/v1/drives/nope/export?format=csv").status, 404);
}

TEST_F(ExportBackupTest, BackupNeedsTheTokenAndIsADatabase) {
  EXPECT_EQ(Call(Method::kPost, "/api/v1/backup").status, 401);
  Response r = Call(Method::kPost, "/api/v1/backup", true);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.content_type, "application/vnd.sqlite3");
  ASSERT_EQ(r.body.compare(0, kMagic.size(), kMagic), 0);
  const std::string copy = fleet_.tmp().Path("copy.db");
  std::ofstream(copy, std::ios::binary) << r.body;
  auto store = Store::Open(copy);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  auto drives = (*store)->ListDrives();
  ASSERT_TRUE(drives.ok());
  EXPECT_EQ(drives->size(), 3u);
}

// The copy goes a page at a time with the store free between pages: a writer
// adding runs (each run, then its points, as the scheduler stores them) keeps
// going while it is taken, and the copy is one consistent moment: every run
// in it has all its points except at most the newest, whose points may not
// have been written yet at that moment.
TEST_F(ExportBackupTest, OnlineBackupWhileRunsAreWritten) {
  Store& store = fleet_.store();
  // Enough pages that the copy takes many steps.
  for (int i = 0; i < 300; ++i)
    fleet_.AddRun(fleet_.sda, "seq", RunOutcome::kOk, 1600000000 + i, {});
  std::atomic<bool> stop{false};
  std::atomic<int> written{0};
  std::thread writer([&] {
    for (int i = 0; !stop; ++i) {
      BenchPoint p;
      p.test = "random";
      p.block_size = 4096;
      p.queue_depth = 1;
      p.iops = 100 + i;
      std::vector<BenchPoint> points(4, p);
      for (int k = 0; k < 4; ++k) points[k].queue_depth = 1u << k;
      if (fleet_.AddRun(fleet_.nvme, "random", RunOutcome::kOk, 1800000000 + i, points) > 0)
        ++written;
    }
  });
  while (written < 3) std::this_thread::yield();
  const int before = written;
  auto bytes = store.BackupBytes(1);
  const int after = written;
  stop = true;
  writer.join();
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_GT(after, before) << "no run was written while the backup was taken";

  const std::string copy = fleet_.tmp().Path("online.db");
  std::ofstream(copy, std::ios::binary) << *bytes;
  auto restored = Store::Open(copy);
  ASSERT_TRUE(restored.ok()) << restored.status().ToString();
  auto check = (*restored)->QuickCheck();
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(*check, "ok");
  RunFilter filter;
  filter.drive_id = fleet_.nvme.id;
  filter.test = "random";
  filter.limit = 0;
  auto runs = (*restored)->ListRuns(filter);  // newest first
  ASSERT_TRUE(runs.ok());
  EXPECT_GE(static_cast<int>(runs->size()), before);
  int incomplete = 0;
  for (std::size_t i = 0; i < runs->size(); ++i) {
    auto points = (*restored)->RunPoints((*runs)[i].id);
    ASSERT_TRUE(points.ok());
    if ((*runs)[i].started_at == 1700000000 + 86400) continue;  // the fleet's own run
    if (points->size() != 4u) {
      ++incomplete;
      EXPECT_EQ(i, 0u) << "run " << (*runs)[i].id << " has " << points->size() << " points";
    }
  }
  EXPECT_LE(incomplete, 1);
}

}  // namespace
}  // namespace dp::http
