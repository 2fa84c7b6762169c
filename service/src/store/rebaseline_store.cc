// Store: re-baseline marks.
#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {
namespace {

const char* const kMarkColumns = "id, drive_id, test, at, reason, who";

RebaselineMark ReadMark(const Statement& st) {
  RebaselineMark m;
  m.id = st.Int(0);
  m.drive_id = st.Text(1);
  m.test = st.Text(2);  // NULL (every test) reads as ""
  m.at = st.Int(3);
  m.reason = st.Text(4);
  m.who = st.Text(5);
  return m;
}

}  // namespace

Result<std::int64_t> Store::InsertRebaseline(const RebaselineMark& mark) {
  if (mark.drive_id.empty()) return InvalidArgument("re-baseline: no drive given");
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st,
                      db_->Prepare("INSERT INTO rebaselines (drive_id, test, at, reason, who) "
                                   "VALUES (?1, ?2, ?3, ?4, ?5)"));
  st.Bind(1, mark.drive_id)
      .BindTextOrNull(2, mark.test)
      .Bind(3, mark.at)
      .Bind(4, mark.reason)
      .Bind(5, mark.who);
  Status s = st.Run();
  if (!s.ok()) {
    if (db_->LastErrorWasForeignKey())
      return InvalidArgument("re-baseline of unknown drive '" + mark.drive_id +
                             "': store the drive first (UpsertDrive)");
    return s;
  }
  return db_->LastInsertId();
}

Result<std::optional<RebaselineMark>> Store::LatestRebaseline(const std::string& drive_id,
                                                              const std::string& test) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(
      Statement st,
      db_->Prepare(std::string("SELECT ") + kMarkColumns +
                   " FROM rebaselines WHERE drive_id = ?1 "
                   "AND (?2 = '' OR test IS NULL OR test = ?2) ORDER BY at DESC, id DESC LIMIT 1"));
  st.Bind(1, drive_id).Bind(2, test);
  return st.OptionalRow<RebaselineMark>(ReadMark);
}

Result<std::vector<RebaselineMark>> Store::ListRebaselines(const std::string& drive_id, int limit) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare(std::string("SELECT ") + kMarkColumns +
                                                 " FROM rebaselines WHERE drive_id = ?1 "
                                                 "ORDER BY at DESC, id DESC LIMIT ?2"));
  st.Bind(1, drive_id).Bind(2, limit > 0 ? limit : -1);
  std::vector<RebaselineMark> out;
  DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) { out.push_back(ReadMark(row)); }));
  return out;
}

}  // namespace dp
