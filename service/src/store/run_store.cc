// Store: runs.
#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {
namespace {

const char* const kRunColumns =
    "id, drive_id, test, trigger, started_at, ended_at, outcome, reason, progress, contended, "
    "partial, engine";

Run ReadRun(const Statement& st) {
  Run r;
  r.id = st.Int(0);
  r.drive_id = st.Text(1);
  r.test = st.Text(2);
  r.trigger = st.Text(3);
  r.started_at = st.Int(4);
  r.ended_at = st.OptInt(5);
  // An outcome this binary does not know (written by a newer one) reads as failed.
  r.outcome = ParseRunOutcome(st.Text(6)).value_or(RunOutcome::kFailed);
  r.reason = st.Text(7);
  r.progress = st.Double(8);
  r.contended = st.Int(9) != 0;
  r.partial = st.Int(10) != 0;
  r.engine = st.Text(11);
  return r;
}

// Binds ?1..?11 (everything but id) of an INSERT or UPDATE.
void BindRun(Statement& st, const Run& r) {
  st.BindTextOrNull(1, r.drive_id)
      .Bind(2, r.test)
      .Bind(3, r.trigger)
      .Bind(4, r.started_at)
      .Bind(5, r.ended_at)
      .Bind(6, RunOutcomeName(r.outcome))
      .Bind(7, r.reason)
      .Bind(8, r.progress)
      .Bind(9, r.contended)
      .Bind(10, r.partial)
      .Bind(11, r.engine);
}

Status UnknownDrive(const Run& r) {
  return InvalidArgument("run for unknown drive '" + r.drive_id +
                         "': store the drive first (UpsertDrive)");
}

}  // namespace

Result<std::int64_t> Store::InsertRun(const Run& run) {
  if (run.test.empty()) return InvalidArgument("InsertRun: the run has no test");
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(
      Statement st,
      db_->Prepare("INSERT INTO runs (drive_id, test, trigger, started_at, ended_at, outcome, "
                   "  reason, progress, contended, partial, engine) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"));
  BindRun(st, run);
  Status s = st.Run();
  if (!s.ok()) return db_->LastErrorWasForeignKey() ? UnknownDrive(run) : s;
  return db_->LastInsertId();
}

Status Store::UpdateRun(const Run& run) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(
      Statement st,
      db_->Prepare("UPDATE runs SET drive_id = ?1, test = ?2, trigger = ?3, started_at = ?4, "
                   "  ended_at = ?5, outcome = ?6, reason = ?7, progress = ?8, contended = ?9, "
                   "  partial = ?10, engine = ?11 WHERE id = ?12"));
  BindRun(st, run);
  st.Bind(12, run.id);
  Status s = st.Run();
  if (!s.ok()) return db_->LastErrorWasForeignKey() ? UnknownDrive(run) : s;
  if (db_->Changes() == 0) return NotFound("run " + std::to_string(run.id) + " not found");
  return Status::Ok();
}

Result<std::optional<Run>> Store::GetRun(std::int64_t id) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare(std::string("SELECT ") + kRunColumns +
                                                 " FROM runs WHERE id = ?1"));
  st.Bind(1, id);
  return st.OptionalRow<Run>(ReadRun);
}

Result<std::vector<Run>> Store::ListRuns(const RunFilter& f) {
  // The WHERE clause is assembled from fixed fragments so each combination
  // can use its index; every value is bound.
  std::string sql = std::string("SELECT ") + kRunColumns + " FROM runs WHERE started_at >= ?1";
  if (!f.drive_id.empty()) sql += " AND drive_id = ?2";
  if (!f.test.empty()) sql += " AND test = ?3";
  if (f.outcome) sql += " AND outcome = ?4";
  sql += " ORDER BY started_at DESC, id DESC LIMIT ?5";

  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare(sql));
  st.Bind(1, f.since);
  if (!f.drive_id.empty()) st.Bind(2, f.drive_id);
  if (!f.test.empty()) st.Bind(3, f.test);
  if (f.outcome) st.Bind(4, RunOutcomeName(*f.outcome));
  st.Bind(5, f.limit > 0 ? f.limit : -1);
  std::vector<Run> out;
  DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) { out.push_back(ReadRun(row)); }));
  return out;
}

}  // namespace dp
