// Store: drives.
#include "store/json_columns.h"
#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {
namespace {

const char* const kDriveColumns =
    "id, dev_path, name, model, serial, wwn, firmware, size_bytes, logical_block_size, "
    "physical_block_size, rotational, rotation_rpm, transport, stable_paths, explicit_target, "
    "present, first_seen, last_seen, controller, missing_since, forgotten_at, forgotten_reason";

Drive ReadDrive(const Statement& st) {
  Drive d;
  d.id = st.Text(0);
  d.dev_path = st.Text(1);
  d.name = st.Text(2);
  d.model = st.Text(3);
  d.serial = st.Text(4);
  d.wwn = st.OptText(5);
  d.firmware = st.Text(6);
  d.size_bytes = static_cast<std::uint64_t>(st.Int(7));
  d.logical_block_size = static_cast<std::uint32_t>(st.Int(8));
  d.physical_block_size = static_cast<std::uint32_t>(st.Int(9));
  if (auto r = st.OptInt(10)) d.rotational = *r != 0;
  if (auto r = st.OptInt(11)) d.rotation_rpm = static_cast<int>(*r);
  d.transport = st.Text(12);
  d.stable_paths = StringsFromJson(st.Text(13));
  d.explicit_target = st.Int(14) != 0;
  d.present = st.Int(15) != 0;
  d.first_seen = st.Int(16);
  d.last_seen = st.Int(17);
  d.controller = st.Text(18);
  d.missing_since = st.OptInt(19);
  d.forgotten_at = st.OptInt(20);
  d.forgotten_reason = st.Text(21);
  return d;
}

}  // namespace

Status Store::UpsertDrive(const Drive& d, std::int64_t seen_at) {
  if (d.id.empty()) return InvalidArgument("UpsertDrive: the drive has no id");
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(
      Statement st,
      db_->Prepare(
          "INSERT INTO drives (id, dev_path, name, model, serial, wwn, firmware, size_bytes, "
          "  logical_block_size, physical_block_size, rotational, rotation_rpm, transport, "
          "  stable_paths, explicit_target, present, first_seen, last_seen, missing_since, "
          "  controller) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, 1, ?16, ?16, "
          "  NULL, ?17) "
          "ON CONFLICT (id) DO UPDATE SET dev_path = excluded.dev_path, name = excluded.name, "
          "  model = excluded.model, serial = excluded.serial, wwn = excluded.wwn, "
          "  firmware = excluded.firmware, size_bytes = excluded.size_bytes, "
          "  logical_block_size = excluded.logical_block_size, "
          "  physical_block_size = excluded.physical_block_size, "
          "  rotational = excluded.rotational, rotation_rpm = excluded.rotation_rpm, "
          "  transport = excluded.transport, stable_paths = excluded.stable_paths, "
          "  explicit_target = excluded.explicit_target, controller = excluded.controller, "
          "  present = 1, forgotten_at = NULL, forgotten_reason = '', "
          "  last_seen = max(last_seen, excluded.last_seen), missing_since = NULL"));
  st.Bind(1, d.id)
      .Bind(2, d.dev_path)
      .Bind(3, d.name)
      .Bind(4, d.model)
      .Bind(5, d.serial)
      .Bind(6, d.wwn)
      .Bind(7, d.firmware)
      .Bind(8, d.size_bytes)
      .Bind(9, d.logical_block_size)
      .Bind(10, d.physical_block_size)
      .Bind(11, d.rotational)
      .Bind(12, d.rotation_rpm)
      .Bind(13, d.transport)
      .Bind(14, StringsToJson(d.stable_paths))
      .Bind(15, d.explicit_target)
      .Bind(16, seen_at)
      .Bind(17, d.controller);
  return st.Run();
}

Status Store::MarkMissingExcept(const std::vector<std::string>& present_ids, std::int64_t at) {
  WatchedLock lock(mu_);
  // The ids travel as one bound JSON array, expanded by json_each.
  DP_ASSIGN_OR_RETURN(Statement st,
                      db_->Prepare("UPDATE drives SET present = 0, "
                                   "  missing_since = ifnull(missing_since, ?2) "
                                   "WHERE present = 1 "
                                   "  AND id NOT IN (SELECT value FROM json_each(?1))"));
  st.Bind(1, StringsToJson(present_ids)).Bind(2, at);
  return st.Run();
}

Result<Drive> Store::ForgetDrive(const std::string& id, std::int64_t at,
                                 const std::string& reason) {
  {
    WatchedLock lock(mu_);
    DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare("SELECT present FROM drives WHERE id = ?1"));
    st.Bind(1, id);
    DP_ASSIGN_OR_RETURN(std::optional<std::int64_t> present,
                        st.OptionalRow<std::int64_t>([](const Statement& r) { return r.Int(0); }));
    if (!present) return NotFound("no drive " + id);
    if (*present != 0)
      return FailedPrecondition("drive " + id +
                                " is present: only a drive that is gone can be forgotten");
    DP_ASSIGN_OR_RETURN(Statement up,
                        db_->Prepare("UPDATE drives SET forgotten_at = ?2, forgotten_reason = ?3 "
                                     "WHERE id = ?1"));
    up.Bind(1, id).Bind(2, at).Bind(3, reason);
    DP_RETURN_IF_ERROR(up.Run());
  }
  DP_ASSIGN_OR_RETURN(std::optional<Drive> d, GetDrive(id));
  if (!d) return NotFound("no drive " + id);
  return *d;
}

Result<std::vector<Drive>> Store::ListDrives() {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare(std::string("SELECT ") + kDriveColumns +
                                                 " FROM drives ORDER BY present DESC, name, id"));
  std::vector<Drive> out;
  DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) { out.push_back(ReadDrive(row)); }));
  return out;
}

Result<std::optional<Drive>> Store::GetDrive(const std::string& id) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare(std::string("SELECT ") + kDriveColumns +
                                                 " FROM drives WHERE id = ?1"));
  st.Bind(1, id);
  return st.OptionalRow<Drive>(ReadDrive);
}

}  // namespace dp
