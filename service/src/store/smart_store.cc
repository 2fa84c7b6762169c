// Store: SMART snapshots. The attribute and self-test lists and smartctl's
// output are stored zlib-compressed (compressed_text.h); an output equal to
// the drive's previous one is not stored again: raw_from names the snapshot
// that holds those bytes. The attributes' ids, values and raw values are
// also kept apart (attribute_values, compressed alike), for charts over time.
#include <map>

#include "store/compressed_text.h"
#include "store/json_columns.h"
#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {
namespace {

std::optional<int> OptInt32(const Statement& st, int col) {
  if (auto v = st.OptInt(col)) return static_cast<int>(*v);
  return std::nullopt;
}

// A text column that may hold a compressed BLOB; "" when it does not inflate
// (the lists then read back empty rather than failing the query).
std::string TextColumn(const Statement& st, int col) {
  if (!st.IsBlob(col)) return st.Text(col);
  auto text = Inflate(st.Blob(col));
  return text.ok() ? *text : std::string();
}

// The figures charted over time (kFigureCount columns, read from `col` on
// by ReadFigures); kSmartColumns holds them too, in the same order.
const char* const kFigureColumns =
    "health_passed, temperature_c, power_on_hours, power_cycles, reallocated_sectors, "
    "pending_sectors, offline_uncorrectable, reported_uncorrectable, command_timeouts, "
    "udma_crc_errors, nvme, nvme_critical_warning, nvme_media_errors, nvme_percentage_used, "
    "nvme_available_spare, nvme_available_spare_threshold, nvme_unsafe_shutdowns, "
    "nvme_num_err_log_entries";
constexpr int kFigureCount = 18;

void ReadFigures(const Statement& st, int col, SmartSnapshot& s) {
  if (auto v = st.OptInt(col)) s.health_passed = *v != 0;
  s.temperature_c = OptInt32(st, col + 1);
  s.power_on_hours = st.OptUInt(col + 2);
  s.power_cycles = st.OptUInt(col + 3);
  s.reallocated_sectors = st.OptUInt(col + 4);
  s.pending_sectors = st.OptUInt(col + 5);
  s.offline_uncorrectable = st.OptUInt(col + 6);
  s.reported_uncorrectable = st.OptUInt(col + 7);
  s.command_timeouts = st.OptUInt(col + 8);
  s.udma_crc_errors = st.OptUInt(col + 9);
  if (st.Int(col + 10) != 0) {
    NvmeHealth n;
    n.critical_warning = st.OptUInt(col + 11);
    n.media_errors = st.OptUInt(col + 12);
    n.percentage_used = OptInt32(st, col + 13);
    n.available_spare = OptInt32(st, col + 14);
    n.available_spare_threshold = OptInt32(st, col + 15);
    n.unsafe_shutdowns = st.OptUInt(col + 16);
    n.num_err_log_entries = st.OptUInt(col + 17);
    s.nvme = n;
  }
}

// Every column of a snapshot but raw_json and raw_from.
const std::string kSmartColumns =
    std::string("at, protocol, model, serial, wwn, firmware, capacity_bytes, rotation_rpm, ") +
    kFigureColumns +
    ", smartctl_exit_status, attributes, self_tests, messages, device_path, device_type, "
    "short_test_minutes, extended_test_minutes, self_test_running, self_test_remaining_percent, "
    "parse_warnings";

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
  ReadFigures(st, 8, s);
  s.smartctl_exit_status = OptInt32(st, 26);
  s.attributes = SmartAttributesFromJson(TextColumn(st, 27));
  s.self_tests = SmartSelfTestsFromJson(TextColumn(st, 28));
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
  const bool compress = options_.compress;
  auto stored = [compress](const std::string& text) {
    if (!compress || text.size() < kCompressMinBytes) return std::make_pair(text, false);
    std::string z = Deflate(text);
    return z.empty() ? std::make_pair(text, false) : std::make_pair(std::move(z), true);
  };
  // Compressed outside the lock: other threads' queries need not wait for zlib.
  const auto attributes = stored(SmartAttributesToJson(s.attributes));
  const auto self_tests = stored(SmartSelfTestsToJson(s.self_tests));
  const auto raw = stored(s.raw_json);
  const auto attribute_values = stored(SmartAttributeValuesToJson(s.attributes));

  WatchedLock lock(mu_);
  Transaction tx(*db_);
  DP_RETURN_IF_ERROR(tx.status());
  // The drive's previous output, wherever its bytes are kept.
  std::optional<std::int64_t> raw_from;
  if (!s.raw_json.empty()) {
    DP_ASSIGN_OR_RETURN(
        Statement prev,
        db_->Prepare("SELECT coalesce(s.raw_from, s.id), r.raw_json FROM smart_snapshots s "
                     "JOIN smart_snapshots r ON r.id = coalesce(s.raw_from, s.id) "
                     "WHERE s.drive_id = ?1 ORDER BY s.at DESC, s.id DESC LIMIT 1"));
    prev.Bind(1, drive_id);
    DP_ASSIGN_OR_RETURN(bool row, prev.Step());
    if (row && !prev.IsNull(1) && prev.IsBlob(1) == raw.second && prev.Blob(1) == raw.first)
      raw_from = prev.Int(0);
  }
  DP_ASSIGN_OR_RETURN(
      Statement st,
      db_->Prepare(std::string("INSERT INTO smart_snapshots (drive_id, ") + kSmartColumns +
                   ", raw_json, raw_from, attribute_values) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
                   "?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, "
                   "?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38, "
                   "?39, ?40, ?41)"));
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
      .Bind(31, StringsToJson(s.messages))
      .Bind(32, s.device_path)
      .Bind(33, s.device_type)
      .Bind(34, s.short_test_minutes)
      .Bind(35, s.extended_test_minutes)
      .Bind(36, s.self_test_running)
      .Bind(37, s.self_test_remaining_percent)
      .Bind(38, StringsToJson(s.parse_warnings))
      .Bind(40, raw_from);
  auto bind_stored = [&st](int i, const std::pair<std::string, bool>& v) {
    if (v.second) st.BindBlob(i, v.first);
    else st.Bind(i, v.first);
  };
  bind_stored(29, attributes);
  bind_stored(30, self_tests);
  bind_stored(41, attribute_values);
  if (s.raw_json.empty() || raw_from) st.BindNull(39);
  else bind_stored(39, raw);
  Status run = st.Run();
  if (!run.ok()) {
    if (db_->LastErrorWasForeignKey())
      return InvalidArgument("SMART snapshot for unknown drive '" + drive_id +
                             "': store the drive first (UpsertDrive)");
    return run;
  }
  const std::int64_t id = db_->LastInsertId();
  DP_RETURN_IF_ERROR(tx.Commit());
  return id;
}

Result<std::optional<SmartSnapshot>> Store::LatestSmart(const std::string& drive_id) {
  WatchedLock lock(mu_);
  // The columns are unqualified in kSmartColumns: only `s` has them all
  // (`r` is joined for its raw_json alone, under another name).
  DP_ASSIGN_OR_RETURN(
      Statement st,
      db_->Prepare(std::string("SELECT ") + kSmartColumns +
                   ", (SELECT r.raw_json FROM smart_snapshots r "
                   "   WHERE r.id = coalesce(smart_snapshots.raw_from, smart_snapshots.id)) "
                   "FROM smart_snapshots WHERE drive_id = ?1 ORDER BY at DESC, id DESC LIMIT 1"));
  st.Bind(1, drive_id);
  return st.OptionalRow<SmartSnapshot>([](const Statement& row) {
    SmartSnapshot s = ReadSnapshot(row);
    s.raw_json = TextColumn(row, 37);
    return s;
  });
}

Result<std::optional<SmartSnapshot>> Store::LatestSmartFigures(const std::string& drive_id) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st,
                      db_->Prepare(std::string("SELECT at, ") + kFigureColumns +
                                   " FROM smart_snapshots WHERE drive_id = ?1 "
                                   "ORDER BY at DESC, id DESC LIMIT 1"));
  st.Bind(1, drive_id);
  return st.OptionalRow<SmartSnapshot>([](const Statement& row) {
    SmartSnapshot s;
    ReadFigures(row, 1, s);
    return s;
  });
}

Result<std::vector<std::pair<std::int64_t, SmartSnapshot>>> Store::SmartHistory(
    const std::string& drive_id, std::int64_t since, int limit) {
  WatchedLock lock(mu_);
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

Result<std::vector<std::pair<std::int64_t, SmartSnapshot>>> Store::SmartHistorySpread(
    const std::string& drive_id, std::int64_t since, int max_points) {
  WatchedLock lock(mu_);
  std::vector<std::pair<std::int64_t, SmartSnapshot>> out;
  DP_ASSIGN_OR_RETURN(Statement range,
                      db_->Prepare("SELECT min(at), max(at), count(*) FROM smart_snapshots "
                                   "WHERE drive_id = ?1 AND at >= ?2"));
  range.Bind(1, drive_id).Bind(2, since);
  std::int64_t lo = 0, hi = 0, count = 0;
  DP_RETURN_IF_ERROR(range.ForEachRow([&](const Statement& row) {
    lo = row.OptInt(0).value_or(0);
    hi = row.OptInt(1).value_or(0);
    count = row.Int(2);
  }));
  if (count == 0) return out;
  const std::int64_t slices = max_points > 0 ? max_points : count;
  // One slice per snapshot when they fit; otherwise the newest of each slice
  // (the id order is the insertion order, which is time order).
  const std::int64_t width = count <= slices ? 0 : (hi - lo) / slices + 1;
  // Only what a chart of the drive's SMART shows: not the self-test log,
  // messages or identity, and of the attributes their values (the whole
  // list is inflated and parsed only for the names, once per attribute, and
  // for rows written before attribute_values).
  DP_ASSIGN_OR_RETURN(
      Statement st,
      db_->Prepare(std::string("SELECT at, ") + kFigureColumns +
                   ", attributes, attribute_values "
                   "FROM smart_snapshots WHERE id IN (SELECT max(id) FROM smart_snapshots "
                   "WHERE drive_id = ?1 AND at >= ?2 GROUP BY CASE WHEN ?4 = 0 THEN id "
                   "ELSE (at - ?3) / ?4 END) ORDER BY at, id"));
  st.Bind(1, drive_id).Bind(2, since).Bind(3, lo).Bind(4, width);
  std::map<int, std::string> names;  // each attribute's name, as first seen
  DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) {
    SmartSnapshot s;
    ReadFigures(row, 1, s);
    constexpr int kAttributes = 1 + kFigureCount, kValues = kAttributes + 1;
    std::optional<std::vector<SmartAttribute>> values;
    if (!row.IsNull(kValues)) values = SmartAttributeValuesFromJson(TextColumn(row, kValues));
    bool unnamed = !values;
    if (values)
      for (const SmartAttribute& a : *values) unnamed = unnamed || !names.count(a.id);
    if (unnamed) {
      std::vector<SmartAttribute> whole = SmartAttributesFromJson(TextColumn(row, kAttributes));
      for (const SmartAttribute& a : whole) names.try_emplace(a.id, a.name);
      if (values) {
        for (const SmartAttribute& a : *values) names.try_emplace(a.id);  // asked once
      } else {
        values = std::move(whole);
      }
    }
    for (SmartAttribute& a : *values)
      if (a.name.empty()) a.name = names[a.id];
    s.attributes = std::move(*values);
    out.emplace_back(row.Int(0), std::move(s));
  }));
  return out;
}

}  // namespace dp
