// Store: opening, validation and migration of the database file.
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "base/log.h"
#include "store/migrations.h"
#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {
namespace {

constexpr int kBusyTimeoutMs = 10'000;

Status NotOurs(const std::string& path, const std::string& why) {
  return Corrupt(path + " is not a diskpulse database (not SQLite or corrupt): " + why);
}

std::string DirOf(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

// Checks what can be checked without SQLite touching anything: the directory,
// the file's type and its first bytes. Sets `exists` and `empty`.
Status Precheck(const std::string& path, bool& exists, bool& empty) {
  std::string dir = DirOf(path);
  struct stat st;
  if (stat(dir.c_str(), &st) != 0) {
    int err = errno;
    if (err == ENOENT)
      return NotFound("cannot open database " + path + ": directory " + dir + " does not exist");
    return ErrnoStatus(err, "cannot open database " + path + ": directory " + dir);
  }
  if (!S_ISDIR(st.st_mode))
    return InvalidArgument("cannot open database " + path + ": " + dir + " is not a directory");

  exists = stat(path.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) return ErrnoStatus(errno, "cannot open database " + path);
  empty = !exists || st.st_size == 0;
  if (exists) {
    if (S_ISDIR(st.st_mode))
      return InvalidArgument("cannot open database " + path + ": it is a directory");
    if (!S_ISREG(st.st_mode))
      return InvalidArgument("cannot open database " + path + ": not a regular file");
    if (access(path.c_str(), R_OK | W_OK) != 0)
      return ErrnoStatus(errno, "cannot open database " + path + " for reading and writing");
    if (!empty) {
      static const char kMagic[16] = "SQLite format 3";  // with its NUL: 16 bytes
      char head[16] = {};
      std::ifstream in(path, std::ios::binary);
      in.read(head, sizeof head);
      if (in.gcount() != sizeof head || std::memcmp(head, kMagic, sizeof head) != 0)
        return NotOurs(path, "the file does not start with the SQLite header");
    }
  }
  // SQLite creates PATH-wal, PATH-shm and PATH-journal beside the file.
  if (access(dir.c_str(), W_OK) != 0) {
    return ErrnoStatus(errno, "cannot use database " + path + ": directory " + dir +
                                  " is not writable (the database and its -wal/-shm files "
                                  "live there)");
  }
  return Status::Ok();
}

// Read-only checks of an existing database, before anything writes to it.
Status Validate(SqliteDb& db, const std::string& path, int latest) {
  // quick_check reads every page: a damaged file fails here, or is not
  // SQLite at all (SQLITE_NOTADB).
  std::string problems;
  {
    // SQLite's own words ("file is not a database", "database disk image is
    // malformed") say it best.
    auto why = [&db] { return std::string(sqlite3_errmsg(db.handle())); };
    auto check = db.Prepare("PRAGMA quick_check(20)");
    if (!check.ok()) return NotOurs(path, why());
    while (true) {
      auto row = check->Step();
      if (!row.ok()) return NotOurs(path, why());
      if (!*row) break;
      std::string line = check->Text(0);
      if (line == "ok") continue;
      if (!problems.empty()) problems += "; ";
      problems += line;
    }
  }
  if (!problems.empty()) return NotOurs(path, "quick_check found: " + problems);

  DP_ASSIGN_OR_RETURN(std::int64_t app_id, db.QueryInt("PRAGMA application_id"));
  DP_ASSIGN_OR_RETURN(std::int64_t version, db.QueryInt("PRAGMA user_version"));
  if (app_id != 0 && app_id != kDiskpulseApplicationId) {
    return InvalidArgument(path + " is an SQLite database of another application " +
                           "(application_id " + std::to_string(app_id) +
                           "), not a diskpulse database; refusing to touch it");
  }
  if (version > latest) {
    return FailedPrecondition(path + ": database schema version " + std::to_string(version) +
                              " is newer than this diskpulse (knows " + std::to_string(latest) +
                              "); upgrade diskpulse");
  }
  if (app_id == 0) {
    DP_ASSIGN_OR_RETURN(std::int64_t objects, db.QueryInt("SELECT count(*) FROM sqlite_schema"));
    if (objects > 0) {
      return InvalidArgument(path + " is an SQLite database of another application (it has " +
                             std::to_string(objects) +
                             " tables or indexes but no diskpulse schema); refusing to touch it");
    }
  }
  return Status::Ok();
}

}  // namespace

int Store::LatestSchemaVersion() { return SchemaMigrations().back().version; }

Store::Store(std::string path, std::unique_ptr<SqliteDb> db, StoreOptions options)
    : path_(std::move(path)), options_(options), db_(std::move(db)) {}

Store::~Store() {
  // Keeps the query planner's statistics fresh as the history grows (cheap;
  // SQLite decides what, if anything, to analyse).
  if (db_) (void)db_->Exec("PRAGMA optimize");
}

Result<std::unique_ptr<Store>> Store::Open(const std::string& path, StoreOptions options) {
  if (path.empty()) return InvalidArgument("database path is empty");
  bool exists = false, empty = true;
  DP_RETURN_IF_ERROR(Precheck(path, exists, empty));

  // NOMUTEX: Store's own mutex serialises every use of the connection.
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (exists ? 0 : SQLITE_OPEN_CREATE);
  DP_ASSIGN_OR_RETURN(std::unique_ptr<SqliteDb> db, SqliteDb::Open(path, flags));
  sqlite3_busy_timeout(db->handle(), kBusyTimeoutMs);

  const int latest = LatestSchemaVersion();
  if (!empty) DP_RETURN_IF_ERROR(Validate(*db, path, latest));

  // From here on the file is known to be ours (or new) and may be written.
  // A new file returns freed pages to the file system on each retention
  // pass (PRAGMA incremental_vacuum); only possible before the first table.
  if (empty) DP_RETURN_IF_ERROR(db->Exec("PRAGMA auto_vacuum = INCREMENTAL"));
  {
    DP_ASSIGN_OR_RETURN(Statement mode, db->Prepare("PRAGMA journal_mode = WAL"));
    DP_ASSIGN_OR_RETURN(bool row, mode.Step());
    std::string got = row ? mode.Text(0) : "";
    if (got != "wal")
      LogWarning(path + ": could not switch to WAL journal (got '" + got +
                 "'); continuing with it");
  }
  DP_RETURN_IF_ERROR(db->Exec("PRAGMA foreign_keys = ON"));
  // FULL: a committed run survives a power cut too ("nothing lost").
  DP_RETURN_IF_ERROR(db->Exec("PRAGMA synchronous = FULL"));
  DP_ASSIGN_OR_RETURN(std::int64_t fk, db->QueryInt("PRAGMA foreign_keys"));
  if (fk != 1) return Unsupported(path + ": this SQLite cannot enforce foreign keys");

  DP_RETURN_IF_ERROR(ApplyMigrations(*db, SchemaMigrations()));
  return std::unique_ptr<Store>(new Store(path, std::move(db), options));
}

Result<std::string> Store::QuickCheck() {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare("PRAGMA quick_check(20)"));
  std::string out;
  while (true) {
    DP_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    if (!out.empty()) out += '\n';
    out += st.Text(0);
  }
  return out;
}

int Store::SchemaVersion() {
  WatchedLock lock(mu_);
  auto v = db_->QueryInt("PRAGMA user_version");
  return v.ok() ? static_cast<int>(*v) : -1;
}

Status Store::WriteFailure() {
  WatchedLock lock(mu_);
  return db_->write_failure();
}

}  // namespace dp
