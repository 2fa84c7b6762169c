// Store: an online copy of the database (SQLite's backup API) into memory,
// handed out as the bytes of a database file.
#include <sqlite3.h>

#include <chrono>
#include <memory>
#include <thread>

#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {

Result<std::string> Store::BackupBytes(int pages_per_step) {
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(":memory:", &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  std::unique_ptr<sqlite3, int (*)(sqlite3*)> copy(raw, sqlite3_close_v2);
  if (rc != SQLITE_OK) return Internal("backup: cannot open an in-memory database");

  sqlite3_backup* backup = nullptr;
  {
    WatchedLock lock(mu_);
    backup = sqlite3_backup_init(copy.get(), "main", db_->handle(), "main");
    if (!backup) return Internal(std::string("backup: ") + sqlite3_errmsg(copy.get()));
  }
  // Writes through the store's own connection between steps are applied to
  // the copy by SQLite itself, so releasing the lock keeps the copy
  // consistent and lets runs, SMART reads and alerts go on meanwhile. A
  // writer that never pauses can add pages as fast as the copy takes them
  // (and a modified page already copied is copied again), so after a bounded
  // time the rest is taken in one step under the lock: writers wait for it
  // once instead of the backup never finishing.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (true) {
    {
      WatchedLock lock(mu_);
      const bool late = std::chrono::steady_clock::now() >= deadline;
      rc = sqlite3_backup_step(backup, late ? -1 : pages_per_step);
    }
    if (rc == SQLITE_DONE) break;
    if (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
      std::this_thread::yield();
      continue;
    }
    break;
  }
  int finished;
  {
    WatchedLock lock(mu_);
    finished = sqlite3_backup_finish(backup);
  }
  if (rc != SQLITE_DONE || finished != SQLITE_OK)
    return Internal(std::string("backup of ") + path_ + ": " + sqlite3_errstr(rc == SQLITE_DONE ? finished : rc));

  sqlite3_int64 size = 0;
  unsigned char* bytes = sqlite3_serialize(copy.get(), "main", &size, 0);
  if (!bytes) return Internal("backup: cannot serialise the copy (out of memory?)");
  std::string out(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size));
  sqlite3_free(bytes);
  return out;
}

}  // namespace dp
