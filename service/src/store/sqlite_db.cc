#include "store/sqlite_db.h"

#include <sqlite3.h>

#include <cstring>

namespace dp {
namespace {

// The errno behind the newest failed file operation. sqlite3_system_errno
// holds the errno seen when the error reached the API, which later calls
// (a rollback) may have overwritten with 0; the files keep their own: the
// database's, then the WAL's or journal's, where a write in WAL mode fails.
int LastFileErrno(sqlite3* db) {
  if (int err = sqlite3_system_errno(db); err != 0) return err;
  int err = 0;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_LAST_ERRNO, &err) == SQLITE_OK && err != 0)
    return err;
  sqlite3_file* journal = nullptr;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &journal) == SQLITE_OK &&
      journal != nullptr && journal->pMethods != nullptr &&
      journal->pMethods->xFileControl(journal, SQLITE_FCNTL_LAST_ERRNO, &err) == SQLITE_OK)
    return err;
  return 0;
}

}  // namespace

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(other.stmt_), bind_error_(other.bind_error_) {
  other.stmt_ = nullptr;
}

Statement::~Statement() {
  if (!stmt_) return;
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

Statement& Statement::Bind(int i, std::int64_t v) {
  int rc = sqlite3_bind_int64(stmt_, i, v);
  if (rc != SQLITE_OK && !bind_error_) bind_error_ = rc;
  return *this;
}

Statement& Statement::Bind(int i, double v) {
  int rc = sqlite3_bind_double(stmt_, i, v);
  if (rc != SQLITE_OK && !bind_error_) bind_error_ = rc;
  return *this;
}

Statement& Statement::Bind(int i, std::string_view v) {
  int rc = sqlite3_bind_text64(stmt_, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK && !bind_error_) bind_error_ = rc;
  return *this;
}

Statement& Statement::BindBlob(int i, std::string_view bytes) {
  int rc = sqlite3_bind_blob64(stmt_, i, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK && !bind_error_) bind_error_ = rc;
  return *this;
}

Statement& Statement::BindNull(int i) {
  int rc = sqlite3_bind_null(stmt_, i);
  if (rc != SQLITE_OK && !bind_error_) bind_error_ = rc;
  return *this;
}

Result<bool> Statement::Step() {
  if (bind_error_) {
    return db_->Error(bind_error_, std::string("binding parameters of: ") + sqlite3_sql(stmt_));
  }
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  const bool writes = sqlite3_stmt_readonly(stmt_) == 0;
  if (rc == SQLITE_DONE) {
    if (writes) db_->NoteWrite(Status::Ok());
    return false;
  }
  Status failed = db_->Error(rc, "sqlite");
  if (writes) db_->NoteWrite(failed);
  return failed;
}

Status Statement::Run() {
  while (true) {
    DP_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return Status::Ok();
  }
}

Result<std::int64_t> Statement::RunReturningId() {
  DP_ASSIGN_OR_RETURN(bool row, Step());
  if (!row) return Internal(std::string("no id returned by: ") + sqlite3_sql(stmt_));
  std::int64_t id = Int(0);
  DP_RETURN_IF_ERROR(Run());
  return id;
}

bool Statement::IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

bool Statement::IsBlob(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_BLOB; }

std::int64_t Statement::Int(int col) const { return sqlite3_column_int64(stmt_, col); }

double Statement::Double(int col) const { return sqlite3_column_double(stmt_, col); }

std::string Statement::Text(int col) const {
  const unsigned char* p = sqlite3_column_text(stmt_, col);
  if (!p) return "";
  return std::string(reinterpret_cast<const char*>(p),
                     static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)));
}

std::string Statement::Blob(int col) const {
  const void* p = sqlite3_column_blob(stmt_, col);
  if (!p) return "";
  return std::string(static_cast<const char*>(p),
                     static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)));
}

std::optional<std::int64_t> Statement::OptInt(int col) const {
  if (IsNull(col)) return std::nullopt;
  return Int(col);
}

std::optional<std::uint64_t> Statement::OptUInt(int col) const {
  if (IsNull(col)) return std::nullopt;
  return static_cast<std::uint64_t>(Int(col));
}

std::optional<double> Statement::OptDouble(int col) const {
  if (IsNull(col)) return std::nullopt;
  return Double(col);
}

std::optional<std::string> Statement::OptText(int col) const {
  if (IsNull(col)) return std::nullopt;
  return Text(col);
}

Result<std::unique_ptr<SqliteDb>> SqliteDb::Open(const std::string& path, int flags) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_EXRESCODE, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    if (int err = db ? sqlite3_system_errno(db) : 0) msg += std::string(" (") + strerror(err) + ")";
    sqlite3_close(db);
    Status s = SqliteDb(path, nullptr).Error(rc, "");
    return Status(s.code(), path + ": cannot open database: " + msg);
  }
  sqlite3_extended_result_codes(db, 1);
  return std::unique_ptr<SqliteDb>(new SqliteDb(path, db));
}

SqliteDb::~SqliteDb() {
  for (auto& [sql, stmt] : cache_) sqlite3_finalize(stmt);
  if (db_) sqlite3_close(db_);
}

Status SqliteDb::Exec(const std::string& sql) {
  char* err = nullptr;
  int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
  // Exec runs schema changes, pragmas and transaction control: a COMMIT that
  // succeeds proves writing works, any failure of the file counts.
  if (rc == SQLITE_OK) {
    if (sql == "COMMIT") NoteWrite(Status::Ok());
    return Status::Ok();
  }
  std::string msg = err ? err : sqlite3_errstr(rc);
  sqlite3_free(err);
  Status s = Error(rc, "");
  Status failed(s.code(), path_ + ": " + msg);
  NoteWrite(failed);
  return failed;
}

void SqliteDb::NoteWrite(const Status& outcome) {
  switch (outcome.code()) {
    case StatusCode::kOk:
      write_failure_ = Status::Ok();
      break;
    // What Error() maps the file's and volume's own failures to; busy,
    // constraint and argument errors say nothing about the volume.
    case StatusCode::kIoError:
    case StatusCode::kPermissionDenied:
    case StatusCode::kResourceExhausted:
    case StatusCode::kCorrupt:
      write_failure_ = outcome;
      break;
    default:
      break;
  }
}

Result<Statement> SqliteDb::Prepare(const std::string& sql) {
  auto it = cache_.find(sql);
  if (it != cache_.end()) return Statement(this, it->second);
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return Error(rc, "preparing \"" + sql.substr(0, 60) + "...\"");
  }
  cache_.emplace(sql, stmt);
  return Statement(this, stmt);
}

Result<std::int64_t> SqliteDb::QueryInt(const std::string& sql) {
  DP_ASSIGN_OR_RETURN(Statement st, Prepare(sql));
  DP_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return Internal(path_ + ": no result from " + sql);
  return st.Int(0);
}

std::int64_t SqliteDb::LastInsertId() const { return sqlite3_last_insert_rowid(db_); }

int SqliteDb::Changes() const { return sqlite3_changes(db_); }

bool SqliteDb::LastErrorWasForeignKey() const {
  return sqlite3_extended_errcode(db_) == SQLITE_CONSTRAINT_FOREIGNKEY;
}

Status SqliteDb::Error(int rc, std::string_view what) const {
  std::string msg(what);
  if (db_) {
    if (!msg.empty()) msg += ": ";
    msg += sqlite3_errmsg(db_);
  } else if (msg.empty()) {
    msg = sqlite3_errstr(rc);
  }
  msg = path_ + ": " + msg;
  // For I/O, full and read-only errors the file system's own reason
  // ("No space left on device", "Read-only file system") says what to fix.
  if (db_ && ((rc & 0xff) == SQLITE_IOERR || (rc & 0xff) == SQLITE_FULL ||
              (rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN)) {
    if (int err = LastFileErrno(db_); err != 0)
      msg += " (" + std::string(std::strerror(err)) + ")";
  }
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Unavailable(msg + " (the database is in use by another process)");
    case SQLITE_FULL:
      return ResourceExhausted(msg);
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Corrupt(msg);
    case SQLITE_PERM:
    case SQLITE_READONLY:
    case SQLITE_AUTH:
      return PermissionDenied(msg);
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
      return IoError(msg);
    case SQLITE_CONSTRAINT:
      if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
        return AlreadyExists(msg);
      return InvalidArgument(msg);
    case SQLITE_INTERRUPT:
      return Cancelled(msg);
    case SQLITE_TOOBIG:
    case SQLITE_RANGE:
    case SQLITE_MISMATCH:
      return InvalidArgument(msg);
    default:
      return Internal(msg);
  }
}

Transaction::Transaction(SqliteDb& db) : db_(db) {
  begin_ = db_.Exec("BEGIN IMMEDIATE");
  open_ = begin_.ok();
}

Transaction::~Transaction() {
  if (open_) (void)db_.Exec("ROLLBACK");
}

Status Transaction::Commit() {
  if (!open_) return begin_.ok() ? Internal("transaction already finished") : begin_;
  Status s = db_.Exec("COMMIT");
  if (s.ok()) open_ = false;
  return s;
}

}  // namespace dp
