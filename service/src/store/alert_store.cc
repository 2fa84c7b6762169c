// Store: alerts.
#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {
namespace {

const char* const kAlertColumns =
    "id, drive_id, condition, severity, state, summary, evidence, opened_at, updated_at, "
    "acknowledged_at, resolved_at, last_notified_at, notify_count, clear_streak, resolution, "
    "opened_summary, opened_evidence, history, event_state, headline, confidence, advice";

Alert ReadAlert(const Statement& st) {
  Alert a;
  a.id = st.Int(0);
  a.drive_id = st.Text(1);
  a.condition = st.Text(2);
  a.severity = st.Text(3);
  a.state = st.Text(4);
  a.summary = st.Text(5);
  a.evidence_json = st.Text(6);
  a.opened_at = st.Int(7);
  a.updated_at = st.Int(8);
  a.acknowledged_at = st.OptInt(9);
  a.resolved_at = st.OptInt(10);
  a.last_notified_at = st.OptInt(11);
  a.notify_count = static_cast<int>(st.Int(12));
  a.clear_streak = static_cast<int>(st.Int(13));
  a.resolution = st.Text(14);
  a.opened_summary = st.Text(15);
  a.opened_evidence_json = st.Text(16);
  a.history_json = st.Text(17);
  a.event = EventStateFromJson(st.Text(18));
  a.words.headline = st.Text(19);
  a.words.confidence = st.Text(20);
  a.words.advice = st.Text(21);
  return a;
}

Status Validate(const Alert& a) {
  if (a.condition.empty()) return InvalidArgument("alert: condition is empty");
  if (a.state != "open" && a.state != "acknowledged" && a.state != "resolved")
    return InvalidArgument("alert: state must be open, acknowledged or resolved, found '" +
                           a.state + "'");
  if (a.severity != "info" && a.severity != "warning" && a.severity != "critical")
    return InvalidArgument("alert: severity must be info, warning or critical, found '" +
                           a.severity + "'");
  return Status::Ok();
}

// Binds ?1..?21 (everything but id).
void BindAlert(Statement& st, const Alert& a) {
  st.BindTextOrNull(1, a.drive_id)
      .Bind(2, a.condition)
      .Bind(3, a.severity)
      .Bind(4, a.state)
      .Bind(5, a.summary)
      .Bind(6, a.evidence_json)
      .Bind(7, a.opened_at)
      .Bind(8, a.updated_at)
      .Bind(9, a.acknowledged_at)
      .Bind(10, a.resolved_at)
      .Bind(11, a.last_notified_at)
      .Bind(12, a.notify_count)
      .Bind(13, a.clear_streak)
      .Bind(14, a.resolution)
      .Bind(15, a.opened_summary)
      .Bind(16, a.opened_evidence_json)
      .Bind(17, a.history_json)
      .Bind(18, a.event.members.empty() && !a.event.last_fired_at ? std::string()
                                                                   : EventStateToJson(a.event))
      .Bind(19, a.words.headline)
      .Bind(20, a.words.confidence)
      .Bind(21, a.words.advice);
}

// Maps constraint failures of an insert/update to messages about alerts.
Status Explain(SqliteDb& db, const Status& s, const Alert& a) {
  if (db.LastErrorWasForeignKey())
    return InvalidArgument("alert for unknown drive '" + a.drive_id +
                           "': store the drive first (UpsertDrive)");
  if (s.code() == StatusCode::kAlreadyExists)
    return AlreadyExists("an active alert for drive '" + a.drive_id + "' and condition '" +
                         a.condition + "' already exists");
  return s;
}

}  // namespace

Result<std::int64_t> Store::InsertAlert(const Alert& alert) {
  DP_RETURN_IF_ERROR(Validate(alert));
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(
      Statement st,
      db_->Prepare("INSERT INTO alerts (drive_id, condition, severity, state, summary, evidence, "
                   "  opened_at, updated_at, acknowledged_at, resolved_at, last_notified_at, "
                   "  notify_count, clear_streak, resolution, opened_summary, opened_evidence, "
                   "  history, event_state, headline, confidence, advice) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
                   "  ?17, ?18, ?19, ?20, ?21)"));
  BindAlert(st, alert);
  Status s = st.Run();
  if (!s.ok()) return Explain(*db_, s, alert);
  return db_->LastInsertId();
}

Status Store::UpdateAlert(const Alert& alert) {
  DP_RETURN_IF_ERROR(Validate(alert));
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(
      Statement st,
      db_->Prepare("UPDATE alerts SET drive_id = ?1, condition = ?2, severity = ?3, state = ?4, "
                   "  summary = ?5, evidence = ?6, opened_at = ?7, updated_at = ?8, "
                   "  acknowledged_at = ?9, resolved_at = ?10, last_notified_at = ?11, "
                   "  notify_count = ?12, clear_streak = ?13, resolution = ?14, "
                   "  opened_summary = ?15, opened_evidence = ?16, history = ?17, event_state = ?18, "
                   "  headline = ?19, confidence = ?20, advice = ?21 WHERE id = ?22"));
  BindAlert(st, alert);
  st.Bind(22, alert.id);
  Status s = st.Run();
  if (!s.ok()) return Explain(*db_, s, alert);
  if (db_->Changes() == 0) return NotFound("alert " + std::to_string(alert.id) + " not found");
  return Status::Ok();
}

Result<std::optional<Alert>> Store::OpenAlertFor(const std::string& drive_id,
                                                 const std::string& condition) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare(std::string("SELECT ") + kAlertColumns +
                                                 " FROM alerts WHERE ifnull(drive_id, '') = ?1 "
                                                 "AND condition = ?2 AND state <> 'resolved' "
                                                 "ORDER BY id DESC LIMIT 1"));
  st.Bind(1, drive_id).Bind(2, condition);
  return st.OptionalRow<Alert>(ReadAlert);
}

Result<std::vector<Alert>> Store::ListAlerts(const AlertFilter& f) {
  std::string sql = std::string("SELECT ") + kAlertColumns + " FROM alerts WHERE 1";
  if (f.state == "active")
    sql += " AND state <> 'resolved'";
  else if (!f.state.empty())
    sql += " AND state = ?1";
  if (!f.drive_id.empty()) sql += " AND drive_id = ?2";
  sql += " ORDER BY opened_at DESC, id DESC LIMIT ?3";

  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare(sql));
  if (!f.state.empty() && f.state != "active") st.Bind(1, f.state);
  if (!f.drive_id.empty()) st.Bind(2, f.drive_id);
  st.Bind(3, f.limit > 0 ? f.limit : -1);
  std::vector<Alert> out;
  DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) { out.push_back(ReadAlert(row)); }));
  return out;
}

Result<std::optional<Alert>> Store::GetAlert(std::int64_t id) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare(std::string("SELECT ") + kAlertColumns +
                                                 " FROM alerts WHERE id = ?1"));
  st.Bind(1, id);
  return st.OptionalRow<Alert>(ReadAlert);
}

}  // namespace dp
