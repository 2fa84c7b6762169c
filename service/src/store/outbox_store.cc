// Store: the notification outbox.
#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {

Result<std::int64_t> Store::AddOutboxEntry(const std::string& sink, const std::string& body,
                                           std::int64_t created_at) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st,
                      db_->Prepare("INSERT INTO notification_outbox (sink, created_at, body) "
                                   "VALUES (?1, ?2, ?3)"));
  st.Bind(1, sink).Bind(2, created_at).Bind(3, body);
  DP_RETURN_IF_ERROR(st.Run());
  return db_->LastInsertId();
}

Status Store::RemoveOutboxEntry(std::int64_t id) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare("DELETE FROM notification_outbox WHERE id = ?1"));
  st.Bind(1, id);
  return st.Run();
}

Result<std::vector<StoredOutboxEntry>> Store::ListOutbox() {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare("SELECT id, sink, body, created_at FROM "
                                                 "notification_outbox ORDER BY id"));
  std::vector<StoredOutboxEntry> out;
  DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) {
    out.push_back({row.Int(0), row.Text(1), row.Text(2), row.Int(3)});
  }));
  return out;
}

}  // namespace dp
