// Store: overrides set through the API and their audit trail.
#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {
namespace {

const char* const kOverrideColumns =
    "id, drive_id, serial, model, attribute, ignore, threshold, mute_until, reason, who, at, pool, "
    "kind";

DriveOverride ReadOverride(const Statement& st) {
  DriveOverride o;
  o.id = st.Int(0);
  o.source = "api";
  o.drive_id = st.Text(1);
  o.serial = st.Text(2);
  o.model = st.Text(3);
  o.attribute = st.Text(4);
  o.ignore = st.Int(5) != 0;
  o.threshold = st.OptDouble(6);
  o.mute_until = st.OptInt(7);
  o.reason = st.Text(8);
  o.who = st.Text(9);
  o.at = st.Int(10);
  o.pool = st.Text(11);
  o.kind = st.Text(12);
  return o;
}

Status InsertAudit(SqliteDb& db, std::int64_t at, const std::string& action,
                   const DriveOverride& o, const std::string& who, const std::string& reason) {
  DP_ASSIGN_OR_RETURN(Statement st, db.Prepare("INSERT INTO override_audit (at, action, "
                                               "override_id, who, reason, override_json) "
                                               "VALUES (?1, ?2, ?3, ?4, ?5, ?6)"));
  st.Bind(1, at).Bind(2, action).Bind(3, o.id).Bind(4, who).Bind(5, reason).Bind(
      6, DriveOverrideToJson(o).dump());
  return st.Run();
}

}  // namespace

Result<std::int64_t> Store::InsertOverride(const DriveOverride& o) {
  WatchedLock lock(mu_);
  Transaction tx(*db_);
  DP_RETURN_IF_ERROR(tx.status());
  DP_ASSIGN_OR_RETURN(Statement st,
                      db_->Prepare("INSERT INTO overrides (drive_id, serial, model, attribute, "
                                   "ignore, threshold, mute_until, reason, who, at, pool, kind) "
                                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"));
  st.Bind(1, o.drive_id)
      .Bind(2, o.serial)
      .Bind(3, o.model)
      .Bind(4, o.attribute)
      .Bind(5, o.ignore)
      .Bind(6, o.threshold)
      .Bind(7, o.mute_until)
      .Bind(8, o.reason)
      .Bind(9, o.who)
      .Bind(10, o.at)
      .Bind(11, o.pool)
      .Bind(12, o.kind);
  DP_RETURN_IF_ERROR(st.Run());
  DriveOverride kept = o;
  kept.id = db_->LastInsertId();
  kept.source = "api";
  DP_RETURN_IF_ERROR(InsertAudit(*db_, o.at, "set", kept, o.who, o.reason));
  DP_RETURN_IF_ERROR(tx.Commit());
  return kept.id;
}

Result<std::vector<DriveOverride>> Store::ListOverrides() {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare(std::string("SELECT ") + kOverrideColumns +
                                                 " FROM overrides ORDER BY id"));
  std::vector<DriveOverride> out;
  DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) { out.push_back(ReadOverride(row)); }));
  return out;
}

Status Store::DeleteOverride(std::int64_t id, const std::string& action, const std::string& who,
                             const std::string& reason, std::int64_t at) {
  WatchedLock lock(mu_);
  Transaction tx(*db_);
  DP_RETURN_IF_ERROR(tx.status());
  DP_ASSIGN_OR_RETURN(Statement get, db_->Prepare(std::string("SELECT ") + kOverrideColumns +
                                                  " FROM overrides WHERE id = ?1"));
  get.Bind(1, id);
  DP_ASSIGN_OR_RETURN(std::optional<DriveOverride> o, get.OptionalRow<DriveOverride>(ReadOverride));
  if (!o) return NotFound("override " + std::to_string(id) + " does not exist");
  DP_ASSIGN_OR_RETURN(Statement del, db_->Prepare("DELETE FROM overrides WHERE id = ?1"));
  del.Bind(1, id);
  DP_RETURN_IF_ERROR(del.Run());
  DP_RETURN_IF_ERROR(InsertAudit(*db_, at, action, *o, who, reason));
  return tx.Commit();
}

Result<std::vector<OverrideAudit>> Store::ListOverrideAudit(int limit) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st,
                      db_->Prepare("SELECT id, at, action, override_id, who, reason, override_json "
                                   "FROM override_audit ORDER BY at DESC, id DESC LIMIT ?1"));
  st.Bind(1, limit > 0 ? limit : -1);
  std::vector<OverrideAudit> out;
  DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) {
    OverrideAudit a;
    a.id = row.Int(0);
    a.at = row.Int(1);
    a.action = row.Text(2);
    a.override_id = row.Int(3);
    a.who = row.Text(4);
    a.reason = row.Text(5);
    a.override_json = row.Text(6);
    out.push_back(std::move(a));
  }));
  return out;
}

}  // namespace dp
