// SqliteDb, Statement, Transaction: a thin layer over one sqlite3 connection
// for the store's own use (not part of the store's public API). SqliteDb keeps
// each prepared statement once, keyed by its SQL text, so a query is compiled
// once per connection; values are always bound, never spliced into SQL.
//
// Not thread-safe: Store holds its mutex around every use.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "base/result.h"
#include "base/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace dp {

class SqliteDb;

// A bound, cached statement. Resets itself (and clears its bindings) when it
// goes out of scope, so the next Prepare of the same SQL starts fresh. The
// cache holds one sqlite3_stmt per SQL text: keep at most one Statement of a
// given SQL alive at a time.
// Parameters and columns are numbered as in SQLite: parameters from 1,
// columns from 0.
class Statement {
 public:
  Statement(SqliteDb* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  Statement(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& operator=(Statement&&) = delete;
  ~Statement();

  Statement& Bind(int i, std::int64_t v);
  Statement& Bind(int i, int v) { return Bind(i, static_cast<std::int64_t>(v)); }
  Statement& Bind(int i, std::uint32_t v) { return Bind(i, static_cast<std::int64_t>(v)); }
  Statement& Bind(int i, std::uint64_t v) { return Bind(i, static_cast<std::int64_t>(v)); }
  Statement& Bind(int i, bool v) { return Bind(i, static_cast<std::int64_t>(v ? 1 : 0)); }
  Statement& Bind(int i, double v);
  Statement& Bind(int i, std::string_view v);
  Statement& Bind(int i, const std::string& v) { return Bind(i, std::string_view(v)); }
  Statement& Bind(int i, const char* v) { return Bind(i, std::string_view(v)); }
  Statement& BindBlob(int i, std::string_view bytes);
  Statement& BindNull(int i);
  // NULL when v is nullopt.
  template <typename T>
  Statement& Bind(int i, const std::optional<T>& v) {
    return v ? Bind(i, *v) : BindNull(i);
  }
  // NULL when v is "" (text columns where "" means "none").
  Statement& BindTextOrNull(int i, std::string_view v) {
    return v.empty() ? BindNull(i) : Bind(i, v);
  }

  // Advances: true when a row is ready, false when done.
  Result<bool> Step();
  // Steps to the end, for statements that return no rows.
  Status Run();
  // For INSERT ... RETURNING id: steps to the end and returns the id.
  Result<std::int64_t> RunReturningId();
  // Calls fn(statement) for every remaining row.
  template <typename Fn>
  Status ForEachRow(Fn fn) {
    while (true) {
      DP_ASSIGN_OR_RETURN(bool row, Step());
      if (!row) return Status::Ok();
      fn(static_cast<const Statement&>(*this));
    }
  }
  // read(statement) of the next row; nullopt when there is none.
  template <typename T, typename Fn>
  Result<std::optional<T>> OptionalRow(Fn read) {
    DP_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return std::optional<T>();
    return std::optional<T>(read(static_cast<const Statement&>(*this)));
  }

  bool IsNull(int col) const;
  bool IsBlob(int col) const;
  std::int64_t Int(int col) const;
  double Double(int col) const;
  std::string Text(int col) const;  // "" for NULL
  std::string Blob(int col) const;
  std::optional<std::int64_t> OptInt(int col) const;
  std::optional<std::uint64_t> OptUInt(int col) const;
  std::optional<double> OptDouble(int col) const;
  std::optional<std::string> OptText(int col) const;

 private:
  SqliteDb* db_;
  sqlite3_stmt* stmt_;
  int bind_error_ = 0;  // first failed bind, reported by Step
};

class SqliteDb {
 public:
  // flags: SQLITE_OPEN_* values. A failure names path.
  static Result<std::unique_ptr<SqliteDb>> Open(const std::string& path, int flags);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  // Runs SQL that binds no values (schema, pragmas, BEGIN/COMMIT).
  Status Exec(const std::string& sql);
  // A cached statement for sql (compiled on first use).
  Result<Statement> Prepare(const std::string& sql);
  // A single integer (e.g. PRAGMA user_version); error if no row.
  Result<std::int64_t> QueryInt(const std::string& sql);

  std::int64_t LastInsertId() const;
  int Changes() const;
  // True when the last failed call broke a FOREIGN KEY constraint.
  bool LastErrorWasForeignKey() const;

  // A Status for a failed SQLite call: the code mapped onto ours, the
  // message "what: <sqlite message>".
  Status Error(int rc, std::string_view what) const;

  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }

  // The newest failure of a write for a reason of the file or its volume
  // (I/O error, read-only, full, corrupt, cannot open); Ok after a write
  // (a statement that changes the database, or a COMMIT) succeeds again.
  const Status& write_failure() const { return write_failure_; }
  // Called by Statement::Step and Exec with each outcome of a write.
  void NoteWrite(const Status& outcome);

 private:
  SqliteDb(std::string path, sqlite3* db) : path_(std::move(path)), db_(db) {}
  std::string path_;
  sqlite3* db_;
  Status write_failure_;
  std::unordered_map<std::string, sqlite3_stmt*> cache_;
};

// BEGIN IMMEDIATE on construction (check status()); ROLLBACK on destruction
// unless Commit() succeeded.
class Transaction {
 public:
  explicit Transaction(SqliteDb& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  const Status& status() const { return begin_; }
  Status Commit();

 private:
  SqliteDb& db_;
  Status begin_;
  bool open_ = false;
};

}  // namespace dp
