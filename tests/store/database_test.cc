// Opening, validating and migrating the database file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "store/migrations.h"
#include "store/sqlite_db.h"
#include "store/store.h"
#include "store/store_test_util.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using ::dp::testing::RawDb;
using ::dp::testing::ReadFile;
using ::dp::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(StoreOpenTest, FreshDatabaseIsCreatedWithSchemaWalAndForeignKeys) {
  TempDir dir;
  std::string path = dir.Path("diskpulse.db");
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->SchemaVersion(), Store::LatestSchemaVersion());
  EXPECT_GE(Store::LatestSchemaVersion(), 1);
  auto check = (*store)->QuickCheck();
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(*check, "ok");

  RawDb raw(path);
  EXPECT_EQ(raw.Text("PRAGMA journal_mode"), "wal");
  EXPECT_EQ(raw.Int("PRAGMA application_id"), kDiskpulseApplicationId);
  EXPECT_EQ(raw.Int("PRAGMA user_version"), Store::LatestSchemaVersion());
  for (const char* table :
       {"drives", "pools", "vdevs", "pool_members", "smart_snapshots", "runs", "bench_points",
        "measurements", "latency_histograms", "alerts", "scheduler_state"}) {
    EXPECT_EQ(raw.Int(std::string("SELECT count(*) FROM sqlite_schema WHERE type = 'table' "
                                  "AND name = '") +
                      table + "'"),
              1)
        << table;
  }
  // Foreign keys are enforced on the store's connection.
  dp::Run orphan = testing::MakeRun("wwn-nope", "seq", 100);
  auto id = (*store)->InsertRun(orphan);
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(id.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(id.status().message(), HasSubstr("unknown drive 'wwn-nope'"));
}

TEST(StoreOpenTest, ReopenKeepsDataAndVersion) {
  TempDir dir;
  std::string path = dir.Path("diskpulse.db");
  {
    auto store = Store::Open(path);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->UpsertDrive(testing::MakeDrive("wwn-1", "sda"), 10).ok());
    ASSERT_TRUE((*store)->SetSchedulerState("k", "v").ok());
  }
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->SchemaVersion(), Store::LatestSchemaVersion());
  auto d = (*store)->GetDrive("wwn-1");
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE(d->has_value());
  EXPECT_EQ((*d)->name, "sda");
  EXPECT_EQ(*(*store)->GetSchedulerState("k"), std::optional<std::string>("v"));
}

TEST(StoreOpenTest, EmptyFileIsInitialised) {
  TempDir dir;
  std::string path = dir.Write("empty.db", "");
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->SchemaVersion(), Store::LatestSchemaVersion());
}

TEST(StoreOpenTest, MissingDirectoryIsAClearErrorNamingIt) {
  TempDir dir;
  std::string missing = dir.Path("no/such/dir");
  auto store = Store::Open(missing + "/diskpulse.db");
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(store.status().message(), HasSubstr("directory " + missing + " does not exist"));
  EXPECT_FALSE(std::filesystem::exists(missing));  // not created behind the daemon's back
}

TEST(StoreOpenTest, DirectoryAsDatabasePathIsRefused) {
  TempDir dir;
  auto store = Store::Open(dir.path().string());
  ASSERT_FALSE(store.ok());
  EXPECT_THAT(store.status().message(), HasSubstr("it is a directory"));
}

// Runs Store::Open(path) as an unprivileged user when we are root (root
// ignores directory permissions) and returns the status message, or "OK".
std::string OpenAsUnprivileged(const std::string& path) {
  if (geteuid() != 0) {
    auto s = Store::Open(path);
    return s.ok() ? "OK" : s.status().ToString();
  }
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string msg;
    if (setgid(65534) != 0 || setuid(65534) != 0) {
      msg = "setuid failed";
    } else {
      auto s = Store::Open(path);
      msg = s.ok() ? "OK" : s.status().ToString();
    }
    (void)!write(fds[1], msg.data(), msg.size());
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buf[512];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return out;
}

TEST(StoreOpenTest, UnwritableDirectoryIsAClearError) {
  TempDir dir;
  std::string ro = dir.Path("ro");
  std::filesystem::create_directory(ro);
  // World-traversable but not writable, so only the write check can fail.
  chmod(dir.path().c_str(), 0755);
  chmod(ro.c_str(), 0555);
  std::string msg = OpenAsUnprivileged(ro + "/diskpulse.db");
  chmod(ro.c_str(), 0755);
  EXPECT_THAT(msg, StartsWith("permission denied"));
  EXPECT_THAT(msg, HasSubstr("directory " + ro + " is not writable"));
  EXPECT_FALSE(std::filesystem::exists(ro + "/diskpulse.db"));
}

TEST(StoreOpenTest, NewerSchemaIsRefusedAndLeftUntouched) {
  TempDir dir;
  std::string path = dir.Path("diskpulse.db");
  ASSERT_TRUE(Store::Open(path).ok());
  const int newer = Store::LatestSchemaVersion() + 1;
  {
    RawDb raw(path);
    raw.Exec("PRAGMA user_version = " + std::to_string(newer));
    raw.Exec("PRAGMA journal_mode = DELETE");  // everything in the main file
  }
  std::string before = ReadFile(path);
  auto store = Store::Open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(store.status().message(),
              HasSubstr("database schema version " + std::to_string(newer) +
                        " is newer than this diskpulse (knows " +
                        std::to_string(Store::LatestSchemaVersion()) + "); upgrade diskpulse"));
  EXPECT_THAT(store.status().message(), StartsWith(path));
  EXPECT_EQ(ReadFile(path), before);
}

TEST(StoreOpenTest, NonSqliteTextFileIsRefusedAndLeftUntouched) {
  TempDir dir;
  const std::string text = "{\"this\": \"is a config file, not a database\"}\n";
  std::string path = dir.Write("diskpulse.db", text);
  auto store = Store::Open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(store.status().message(),
            path +
                " is not a diskpulse database (not SQLite or corrupt): the file does not "
                "start with the SQLite header");
  EXPECT_EQ(ReadFile(path), text);
  EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
}

// A real diskpulse database with data, then damaged at `offset`.
std::string MakeDamagedDatabase(const TempDir& dir, std::size_t offset, std::size_t length) {
  std::string path = dir.Path("diskpulse.db");
  {
    auto store = Store::Open(path);
    EXPECT_TRUE(store.ok());
    for (int i = 0; i < 50; ++i) {
      EXPECT_TRUE(
          (*store)
              ->UpsertDrive(
                  testing::MakeDrive("wwn-" + std::to_string(i), "sd" + std::to_string(i)), i)
              .ok());
    }
  }
  {
    RawDb raw(path);
    raw.Exec("PRAGMA journal_mode = DELETE");
  }
  std::string bytes = ReadFile(path);
  EXPECT_GT(bytes.size(), offset + length);
  for (std::size_t i = offset; i < offset + length && i < bytes.size(); ++i)
    bytes[i] = static_cast<char>(0xA5 ^ (i * 7));
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  return path;
}

TEST(StoreOpenTest, CorruptPagesAreRefusedAndLeftUntouched) {
  TempDir dir;
  // Page 2 onwards (default page size 4096): table b-tree pages.
  std::string path = MakeDamagedDatabase(dir, 4096, 4096 * 2);
  std::string before = ReadFile(path);
  auto store = Store::Open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kCorrupt);
  EXPECT_THAT(store.status().message(),
              StartsWith(path + " is not a diskpulse database (not SQLite or corrupt): "));
  EXPECT_EQ(ReadFile(path), before);
}

TEST(StoreOpenTest, CorruptHeaderIsRefusedAndLeftUntouched) {
  TempDir dir;
  // Bytes 16..99: page size, format numbers, schema cookie... after the magic.
  std::string path = MakeDamagedDatabase(dir, 16, 84);
  std::string before = ReadFile(path);
  auto store = Store::Open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kCorrupt) << store.status().ToString();
  EXPECT_THAT(store.status().message(), HasSubstr("is not a diskpulse database"));
  EXPECT_EQ(ReadFile(path), before);
}

TEST(StoreOpenTest, AnotherApplicationsSqliteDatabaseIsRefused) {
  TempDir dir;
  std::string path = dir.Path("other.db");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)", nullptr, nullptr,
                 nullptr);
    sqlite3_close(db);
  }
  std::string before = ReadFile(path);
  auto store = Store::Open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_THAT(store.status().message(), HasSubstr("SQLite database of another application"));
  EXPECT_EQ(ReadFile(path), before);

  RawDb raw(path);
  raw.Exec("PRAGMA application_id = 1234");
  raw.Exec("DROP TABLE photos");
  auto again = Store::Open(path);
  ASSERT_FALSE(again.ok());
  EXPECT_THAT(again.status().message(), HasSubstr("application_id 1234"));
}

// --- Migrations, with the real first schema and made-up later ones.

std::unique_ptr<SqliteDb> OpenRaw(const std::string& path) {
  auto db = SqliteDb::Open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  EXPECT_TRUE(db.ok());
  return std::move(db).value();
}

TEST(MigrationsTest, UpgradeFromOlderVersionKeepsData) {
  TempDir dir;
  std::string path = dir.Path("diskpulse.db");
  std::vector<Migration> v1 = {SchemaMigrations().front()};
  ASSERT_EQ(v1[0].version, 1);
  {
    auto db = OpenRaw(path);
    ASSERT_TRUE(ApplyMigrations(*db, v1).ok());
    ASSERT_TRUE(db->Exec("INSERT INTO drives (id, name, first_seen, last_seen) "
                         "VALUES ('wwn-a', 'sda', 1, 1)")
                    .ok());
  }
  std::vector<Migration> v2 = v1;
  v2.push_back({2, "drive notes", "ALTER TABLE drives ADD COLUMN notes TEXT NOT NULL DEFAULT ''"});
  auto db = OpenRaw(path);
  ASSERT_TRUE(ApplyMigrations(*db, v2).ok());
  EXPECT_EQ(*db->QueryInt("PRAGMA user_version"), 2);
  EXPECT_EQ(*db->QueryInt("SELECT count(*) FROM drives WHERE id = 'wwn-a' AND notes = ''"), 1);
  // Applying again is a no-op.
  ASSERT_TRUE(ApplyMigrations(*db, v2).ok());
  EXPECT_EQ(*db->QueryInt("PRAGMA user_version"), 2);
}

TEST(MigrationsTest, FailedMigrationRollsBackWholly) {
  TempDir dir;
  std::string path = dir.Path("diskpulse.db");
  auto db = OpenRaw(path);
  std::vector<Migration> list = {SchemaMigrations().front()};
  list.push_back({2, "broken", "CREATE TABLE half_done (x); INSERT INTO no_such_table VALUES (1)"});
  Status s = ApplyMigrations(*db, list);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("schema migration 2 (broken) failed; the database stays "
                                     "at version 1"));
  EXPECT_EQ(*db->QueryInt("PRAGMA user_version"), 1);
  EXPECT_EQ(*db->QueryInt("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'"), 0);
}

TEST(MigrationsTest, StoreOpenUpgradesAVersionOneDatabaseMadeByHand) {
  // The database an earlier diskpulse left: the first schema, some data.
  TempDir dir;
  std::string path = dir.Path("diskpulse.db");
  {
    auto db = OpenRaw(path);
    ASSERT_TRUE(ApplyMigrations(*db, {SchemaMigrations().front()}).ok());
    ASSERT_TRUE(db->Exec("INSERT INTO drives (id, name, first_seen, last_seen) "
                         "VALUES ('wwn-old', 'sdb', 5, 6)")
                    .ok());
  }
  auto store = Store::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  EXPECT_EQ((*store)->SchemaVersion(), Store::LatestSchemaVersion());
  auto d = (*store)->GetDrive("wwn-old");
  ASSERT_TRUE(d.ok() && d->has_value());
  EXPECT_EQ((*d)->first_seen, 5);
  EXPECT_EQ((*d)->last_seen, 6);
  EXPECT_EQ((*d)->controller, "");  // added by migration 2, with its default
  Drive updated = **d;
  updated.controller = "0000:03:00.0";
  ASSERT_TRUE((*store)->UpsertDrive(updated, 7).ok());
  EXPECT_EQ((*(*store)->GetDrive("wwn-old"))->controller, "0000:03:00.0");
}

TEST(MigrationsTest, MigrationVersionsAreConsecutive) {
  const auto& all = SchemaMigrations();
  ASSERT_FALSE(all.empty());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].version, static_cast<int>(i) + 1);
  EXPECT_EQ(Store::LatestSchemaVersion(), all.back().version);
}

TEST(StoreConcurrencyTest, ManyThreadsShareOneStore) {
  testing::TempDir dir;
  auto opened = Store::Open(dir.Path("diskpulse.db"));
  ASSERT_TRUE(opened.ok());
  Store& store = **opened;
  ASSERT_TRUE(store.UpsertDrive(testing::MakeDrive("wwn-t", "sdt"), 1).ok());
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        auto id = store.InsertRun(testing::MakeRun("wwn-t", "seq", t * 1000 + i));
        BenchPoint p;
        p.test = "seq";
        p.mb_per_s = 100.0 + i;
        if (!id.ok() || !store.AddMeasurements(*id, {p}).ok()) ++failures;
        if (!store.ListRuns(RunFilter()).ok()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  RunFilter all;
  all.limit = 0;
  auto runs = store.ListRuns(all);
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(runs->size(), 100u);
  HistoryQuery q;
  q.drive_id = "wwn-t";
  q.test = "seq";
  q.metric = "mb_per_s";
  q.limit = 0;
  auto h = store.History(q);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->size(), 100u);
}

}  // namespace
}  // namespace dp
