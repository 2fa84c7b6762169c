// Store: SMART snapshots.
#include "store/json_columns.h"
#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {
namespace {

const char* const kSmartColumns =
    "at, protocol, model, serial, wwn, firmware, capacity_bytes, rotation_rpm, health_passed, "
    "temperature_c, power_on_hours, power_cycles, reallocated_sectors, pending_sectors, "
    "offline_uncorrectable, reported_uncorrectable, command_timeouts, udma_crc_errors, nvme, "
    "nvme_critical_warning, nvme_media_errors, nvme_percentage_used, nvme_available_spare, "
    "nvme_available_spare_threshold, nvme_unsafe_shutdowns, nvme_num_err_log_entries, "
    "smartctl_exit_status, attributes, self_tests, messages, device_path, device_type, "
    "short_test_minutes, extended_test_minutes, self_test_running, self_test_remaining_percent, "
    "parse_warnings";

std::optional<int> OptInt32(const Statement& st, int col) {
  if (auto v = st.OptInt(col)) return static_cast<int>(*v);
  return std::nullopt;
}

// Reads kSmartColumns (column 0 is `at`; raw_json, if selected after them, is
// read by the caller).
SmartSnapshot ReadSnapshot(const Statement& st) {
  SmartSnapshot s;
  s.protocol = st.Text(1);
  s.model = st.Text(2);
  s.serial = st.Text(3);
  s.wwn = st.OptText(4);
  s.firmware = st.Text(5);
  s.capacity_bytes = st.OptUInt(6);
  s.rotation_rpm = OptInt32(st, 7);
  if (auto v = st.OptInt(8)) s.health_passed = *v != 0;
  s.temperature_c = OptInt32(st, 9);
  s.power_on_hours = st.OptUInt(10);
  s.power_cycles = st.OptUInt(11);
  s.reallocated_sectors = st.OptUInt(12);
  s.pending_sectors = st.OptUInt(13);
  s.offline_uncorrectable = st.OptUInt(14);
  s.reported_uncorrectable = st.OptUInt(15);
  s.command_timeouts = st.OptUInt(16);
  s.udma_crc_errors = st.OptUInt(17);
  if (st.Int(18) != 0) {
    NvmeHealth n;
    n.critical_warning = st.OptUInt(19);
    n.media_errors = st.OptUInt(20);
    n.percentage_used = OptInt32(st, 21);
    n.available_spare = OptInt32(st, 22);
    n.available_spare_threshold = OptInt32(st, 23);
    n.unsafe_shutdowns = st.OptUInt(24);
    n.num_err_log_entries = st.OptUInt(25);
    s.nvme = n;
  }
  s.smartctl_exit_status = OptInt32(st, 26);
  s.attributes = SmartAttributesFromJson(st.Text(27));
  s.self_tests = SmartSelfTestsFromJson(st.Text(28));
  s.messages = StringsFromJson(st.Text(29));
  s.device_path = st.Text(30);
  s.device_type = st.Text(31);
  s.short_test_minutes = OptInt32(st, 32);
  s.extended_test_minutes = OptInt32(st, 33);
  s.self_test_running = st.Int(34) != 0;
  s.self_test_remaining_percent = OptInt32(st, 35);
  s.parse_warnings = StringsFromJson(st.Text(36));
  return s;
}

}  // namespace

Result<std::int64_t> Store::InsertSmartSnapshot(const std::string& drive_id, std::int64_t at,
                                                const SmartSnapshot& s) {
  std::lock_guard lock(mu_);
  DP_ASSIGN_OR_RETURN(
      Statement st,
      db_->Prepare(std::string("INSERT INTO smart_snapshots (drive_id, ") + kSmartColumns +
                   ", raw_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
                   "?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, "
                   "?29, ?30, ?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39)"));
  const NvmeHealth none;
  const NvmeHealth& n = s.nvme ? *s.nvme : none;
  st.Bind(1, drive_id)
      .Bind(2, at)
      .Bind(3, s.protocol)
      .Bind(4, s.model)
      .Bind(5, s.serial)
      .Bind(6, s.wwn)
      .Bind(7, s.firmware)
      .Bind(8, s.capacity_bytes)
      .Bind(9, s.rotation_rpm)
      .Bind(10, s.health_passed)
      .Bind(11, s.temperature_c)
      .Bind(12, s.power_on_hours)
      .Bind(13, s.power_cycles)
      .Bind(14, s.reallocated_sectors)
      .Bind(15, s.pending_sectors)
      .Bind(16, s.offline_uncorrectable)
      .Bind(17, s.reported_uncorrectable)
      .Bind(18, s.command_timeouts)
      .Bind(19, s.udma_crc_errors)
      .Bind(20, s.nvme.has_value())
      .Bind(21, n.critical_warning)
      .Bind(22, n.media_errors)
      .Bind(23, n.percentage_used)
      .Bind(24, n.available_spare)
      .Bind(25, n.available_spare_threshold)
      .Bind(26, n.unsafe_shutdowns)
      .Bind(27, n.num_err_log_entries)
      .Bind(28, s.smartctl_exit_status)
      .Bind(29, SmartAttributesToJson(s.attributes))
      .Bind(30, SmartSelfTestsToJson(s.self_tests))
      .Bind(31, StringsToJson(s.messages))
      .Bind(32, s.device_path)
      .Bind(33, s.device_type)
      .Bind(34, s.short_test_minutes)
      .Bind(35, s.extended_test_minutes)
      .Bind(36, s.self_test_running)
      .Bind(37, s.self_test_remaining_percent)
      .Bind(38, StringsToJson(s.parse_warnings))
      .BindTextOrNull(39, s.raw_json);
  Status run = st.Run();
  if (!run.ok()) {
    if (db_->LastErrorWasForeignKey())
      return InvalidArgument("SMART snapshot for unknown drive '" + drive_id +
                             "': store the drive first (UpsertDrive)");
    return run;
  }
  return db_->LastInsertId();
}

Result<std::optional<SmartSnapshot>> Store::LatestSmart(const std::string& drive_id) {
  std::lock_guard lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st,
                      db_->Prepare(std::string("SELECT ") + kSmartColumns +
                                   ", raw_json FROM smart_snapshots WHERE drive_id = ?1 "
                                   "ORDER BY at DESC, id DESC LIMIT 1"));
  st.Bind(1, drive_id);
  return st.OptionalRow<SmartSnapshot>([](const Statement& row) {
    SmartSnapshot s = ReadSnapshot(row);
    s.raw_json = row.Text(37);
    return s;
  });
}

Result<std::vector<std::pair<std::int64_t, SmartSnapshot>>> Store::SmartHistory(
    const std::string& drive_id, std::int64_t since, int limit) {
  std::lock_guard lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st,
                      db_->Prepare(std::string("SELECT ") + kSmartColumns +
                                   " FROM smart_snapshots WHERE drive_id = ?1 AND at >= ?2 "
                                   "ORDER BY at DESC, id DESC LIMIT ?3"));
  st.Bind(1, drive_id).Bind(2, since).Bind(3, limit > 0 ? limit : -1);
  std::vector<std::pair<std::int64_t, SmartSnapshot>> out;
  DP_RETURN_IF_ERROR(st.ForEachRow(
      [&](const Statement& row) { out.emplace_back(row.Int(0), ReadSnapshot(row)); }));
  return out;
}

}  // namespace dp
