// Store: scheduler state (key/value).
#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {

Status Store::SetSchedulerState(const std::string& key, const std::string& value) {
  if (key.empty()) return InvalidArgument("SetSchedulerState: empty key");
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st,
                      db_->Prepare("INSERT INTO scheduler_state (key, value) VALUES (?1, ?2) "
                                   "ON CONFLICT (key) DO UPDATE SET value = excluded.value"));
  st.Bind(1, key).Bind(2, value);
  return st.Run();
}

Result<std::optional<std::string>> Store::GetSchedulerState(const std::string& key) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st,
                      db_->Prepare("SELECT value FROM scheduler_state WHERE key = ?1"));
  st.Bind(1, key);
  return st.OptionalRow<std::string>([](const Statement& row) { return row.Text(0); });
}

}  // namespace dp
