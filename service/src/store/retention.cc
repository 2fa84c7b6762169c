// Store: retention. Old detail (histograms, smartctl's raw output, the
// secondary figures of old runs, SMART snapshots between the ones worth
// keeping) goes; the figures history and detection need stay; rows an older
// version wrote are brought up to date (compressed, attribute values). Works in
// batches, each its own transaction under mu_, so the scheduler and the web
// page wait at most one batch.
#include <sys/stat.h>

#include <array>
#include <utility>
#include <vector>
#include <string_view>

#include "base/log.h"
#include "store/compressed_text.h"
#include "store/json_columns.h"
#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {
namespace {

constexpr std::int64_t kDay = 86400;
constexpr int kBatch = 5000;

std::int64_t FileBytes(const std::string& path) {
  std::int64_t total = 0;
  struct stat st;
  for (const std::string& p : {path, path + "-wal"})
    if (::stat(p.c_str(), &st) == 0) total += st.st_size;
  return total;
}

// What a SMART snapshot says about the drive's health, as one comparable
// string: a snapshot whose key differs from the one before it is evidence
// (a counter rose, a self-test finished, the firmware changed) and is kept.
const char* const kEvidenceColumns =
    "health_passed, reallocated_sectors, pending_sectors, offline_uncorrectable, "
    "reported_uncorrectable, command_timeouts, udma_crc_errors, nvme_critical_warning, "
    "nvme_media_errors, nvme_percentage_used, nvme_available_spare, smartctl_exit_status, "
    "firmware, self_tests";
constexpr int kEvidenceCount = 14;

// Drops smartctl's output of snapshots taken before `at`, inside the
// caller's transaction; returns how many. Each drive's latest snapshot keeps
// its output (LatestSmart shows it), and so does any snapshot whose bytes a
// kept one refers to (raw_from).
Result<int> DropRawOutputs(SqliteDb& db, std::int64_t at) {
  DP_ASSIGN_OR_RETURN(
      Statement st,
      db.Prepare("WITH latest AS (SELECT (SELECT t.id FROM smart_snapshots t "
                 "    WHERE t.drive_id = d.drive_id ORDER BY t.at DESC, t.id DESC LIMIT 1) "
                 "    AS id FROM (SELECT DISTINCT drive_id FROM smart_snapshots) d), "
                 "  holders AS (SELECT raw_from AS id FROM smart_snapshots "
                 "    WHERE raw_from IS NOT NULL AND (at >= ?1 OR id IN latest)) "
                 "UPDATE smart_snapshots SET raw_json = NULL, raw_from = NULL "
                 "WHERE at < ?1 AND (raw_json IS NOT NULL OR raw_from IS NOT NULL) "
                 "  AND id NOT IN latest AND id NOT IN holders"));
  st.Bind(1, at);
  DP_RETURN_IF_ERROR(st.Run());
  return db.Changes();
}

// Gives up to `batch` snapshots that an older diskpulse stored without
// attribute_values (schema version 7) theirs, from the whole attribute list
// (compressed as InsertSmartSnapshot does when `compress`), inside the
// caller's transaction; returns how many. A list that does not read gets
// "[]", as the whole list then reads back empty too.
Result<int> FillAttributeValues(SqliteDb& db, int batch, bool compress) {
  std::vector<std::pair<std::int64_t, std::string>> rows;
  {
    DP_ASSIGN_OR_RETURN(Statement st,
                        db.Prepare("SELECT id, attributes FROM smart_snapshots "
                                   "WHERE attribute_values IS NULL LIMIT ?1"));
    st.Bind(1, batch);
    DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) {
      std::string list;
      if (!row.IsBlob(1)) {
        list = row.Text(1);
      } else if (auto text = Inflate(row.Blob(1)); text.ok()) {
        list = std::move(*text);
      }
      rows.emplace_back(row.Int(0), SmartAttributeValuesToJson(SmartAttributesFromJson(list)));
    }));
  }
  for (const auto& [id, values] : rows) {
    DP_ASSIGN_OR_RETURN(Statement up, db.Prepare("UPDATE smart_snapshots SET "
                                                 "attribute_values = ?1 WHERE id = ?2"));
    std::string z = compress && values.size() >= kCompressMinBytes ? Deflate(values) : "";
    if (z.empty()) up.Bind(1, values);
    else up.BindBlob(1, z);
    up.Bind(2, id);
    DP_RETURN_IF_ERROR(up.Run());
  }
  return static_cast<int>(rows.size());
}

}  // namespace

std::string RetentionReport::Summary() const {
  auto mb = [](std::int64_t b) { return std::to_string(b / 1000) + " kB"; };
  return std::to_string(raw_outputs_dropped) + " smartctl outputs dropped, " +
         std::to_string(raw_outputs_compressed) + " compressed, " +
         std::to_string(snapshots_thinned) + " SMART snapshots thinned, " +
         std::to_string(smart_runs_deleted) + " smart runs removed, " +
         std::to_string(histograms_dropped) + " histograms and " +
         std::to_string(measurements_dropped) + " secondary figures dropped, " +
         std::to_string(zfs_samples_dropped) + " ZFS latency samples removed; file " +
         mb(bytes_before) + " -> " + mb(bytes_after);
}

Status Store::PruneBefore(std::int64_t at) {
  WatchedLock lock(mu_);
  Transaction tx(*db_);
  DP_RETURN_IF_ERROR(tx.status());
  {
    DP_ASSIGN_OR_RETURN(
        Statement st,
        db_->Prepare("DELETE FROM latency_histograms WHERE point_id IN ("
                     "  SELECT bench_points.id FROM bench_points JOIN runs "
                     "    ON runs.id = bench_points.run_id WHERE runs.started_at < ?1)"));
    st.Bind(1, at);
    DP_RETURN_IF_ERROR(st.Run());
  }
  DP_RETURN_IF_ERROR(DropRawOutputs(*db_, at).status());
  return tx.Commit();
}

Status Store::ThinSnapshotsOfDrive(const std::string& drive_id, std::int64_t full_cutoff,
                                   std::int64_t daily_cutoff, std::int64_t& thinned) {
  WatchedLock lock(mu_);
  Transaction tx(*db_);
  DP_RETURN_IF_ERROR(tx.status());
  struct Row {
    std::int64_t id, at;
    std::string evidence;
    bool holds_raw;
  };
  std::vector<Row> rows;
  {
    DP_ASSIGN_OR_RETURN(
        Statement st,
        db_->Prepare(std::string("SELECT id, at, raw_json IS NOT NULL OR EXISTS (SELECT 1 FROM "
                                 "smart_snapshots r WHERE r.raw_from = smart_snapshots.id), ") +
                     kEvidenceColumns +
                     " FROM smart_snapshots WHERE drive_id = ?1 AND at < ?2 ORDER BY at, id"));
    st.Bind(1, drive_id).Bind(2, full_cutoff);
    DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) {
      Row r{row.Int(0), row.Int(1), {}, row.Int(2) != 0};
      for (int c = 3; c < 3 + kEvidenceCount; ++c) {
        r.evidence += row.IsNull(c) ? std::string("\x01") : row.Blob(c);
        r.evidence += '\0';
      }
      rows.push_back(std::move(r));
    }));
  }
  // Buckets: a day between the two cut-offs, a week before daily_cutoff. The
  // last snapshot of each bucket stays (the whole list is of snapshots older
  // than full_cutoff, so each drive's latest is kept too: it is last in its
  // bucket), and so does every snapshot whose evidence differs from the one
  // before it. Applying the rule again keeps the same set.
  auto bucket = [daily_cutoff](std::int64_t at) {
    return at >= daily_cutoff ? at / kDay : -(at / (7 * kDay)) - 1;
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const bool last_of_bucket =
        i + 1 == rows.size() || bucket(rows[i + 1].at) != bucket(rows[i].at);
    const bool changed = i == 0 || rows[i].evidence != rows[i - 1].evidence;
    if (last_of_bucket || changed || rows[i].holds_raw) continue;
    DP_ASSIGN_OR_RETURN(Statement del, db_->Prepare("DELETE FROM smart_snapshots WHERE id = ?1"));
    del.Bind(1, rows[i].id);
    DP_RETURN_IF_ERROR(del.Run());
    ++thinned;
  }
  return tx.Commit();
}

Result<std::int64_t> Store::CompressRawBatch(int batch) {
  WatchedLock lock(mu_);
  Transaction tx(*db_);
  DP_RETURN_IF_ERROR(tx.status());
  std::int64_t done = 0;
  for (const char* col : {"raw_json", "attributes", "self_tests"}) {
    std::vector<std::pair<std::int64_t, std::string>> rows;
    {
      DP_ASSIGN_OR_RETURN(
          Statement st,
          db_->Prepare(std::string("SELECT id, ") + col + " FROM smart_snapshots WHERE typeof(" +
                       col + ") = 'text' AND length(" + col + ") >= ?1 LIMIT ?2"));
      st.Bind(1, static_cast<std::int64_t>(kCompressMinBytes)).Bind(2, batch);
      DP_RETURN_IF_ERROR(st.ForEachRow(
          [&](const Statement& row) { rows.emplace_back(row.Int(0), row.Text(1)); }));
    }
    for (const auto& [id, text] : rows) {
      std::string z = Deflate(text);
      if (z.empty()) continue;
      DP_ASSIGN_OR_RETURN(Statement up,
                          db_->Prepare(std::string("UPDATE smart_snapshots SET ") + col +
                                       " = ?1 WHERE id = ?2"));
      up.BindBlob(1, z).Bind(2, id);
      DP_RETURN_IF_ERROR(up.Run());
      ++done;
    }
  }
  DP_RETURN_IF_ERROR(tx.Commit());
  return done;
}

Result<RetentionReport> Store::ApplyRetention(const RetentionConfig& cfg, std::int64_t now) {
  RetentionReport rep;
  rep.bytes_before = FileBytes(path_);
  if (!cfg.enabled) {
    rep.bytes_after = rep.bytes_before;
    return rep;
  }
  const std::int64_t full_cutoff = now - cfg.smart_full_days * kDay;
  const std::int64_t daily_cutoff = now - cfg.smart_daily_days * kDay;

  // Runs a DELETE/UPDATE of at most kBatch rows until it changes nothing.
  auto batches = [this](const std::string& sql, std::int64_t cutoff,
                        std::int64_t& count) -> Status {
    while (true) {
      WatchedLock lock(mu_);
      DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare(sql));
      st.Bind(1, cutoff).Bind(2, kBatch);
      DP_RETURN_IF_ERROR(st.Run());
      const int n = db_->Changes();
      count += n;
      if (n < kBatch) return Status::Ok();
    }
  };

  // smartctl's output: beyond the full window only each drive's latest.
  {
    WatchedLock lock(mu_);
    Transaction tx(*db_);
    DP_RETURN_IF_ERROR(tx.status());
    DP_ASSIGN_OR_RETURN(rep.raw_outputs_dropped, DropRawOutputs(*db_, full_cutoff));
    DP_RETURN_IF_ERROR(tx.Commit());
  }

  // SMART snapshots: one a day, then one a week, plus the evidence.
  std::vector<std::string> drives;
  {
    WatchedLock lock(mu_);
    DP_ASSIGN_OR_RETURN(Statement st,
                        db_->Prepare("SELECT DISTINCT drive_id FROM smart_snapshots"));
    DP_RETURN_IF_ERROR(
        st.ForEachRow([&](const Statement& row) { drives.push_back(row.Text(0)); }));
  }
  for (const std::string& d : drives)
    DP_RETURN_IF_ERROR(ThinSnapshotsOfDrive(d, full_cutoff, daily_cutoff, rep.snapshots_thinned));

  // Rows an older diskpulse stored as plain text.
  if (options_.compress) {
    while (true) {
      DP_ASSIGN_OR_RETURN(std::int64_t n, CompressRawBatch(200));
      rep.raw_outputs_compressed += n;
      if (n == 0) break;
    }
  }

  // Snapshots an older diskpulse stored without their attribute values
  // alone: the SMART charts read those rows' whole lists until then.
  while (true) {
    WatchedLock lock(mu_);
    Transaction tx(*db_);
    DP_RETURN_IF_ERROR(tx.status());
    DP_ASSIGN_OR_RETURN(int n, FillAttributeValues(*db_, 200, options_.compress));
    DP_RETURN_IF_ERROR(tx.Commit());
    if (n == 0) break;
  }

  // Successful SMART reads: the snapshot is the record; the run row only
  // said "read at T". Failed ones stay (they explain gaps).
  DP_RETURN_IF_ERROR(batches(
      "DELETE FROM runs WHERE id IN (SELECT id FROM runs WHERE test = 'smart' "
      "  AND started_at < ?1 AND outcome IN ('ok', 'skipped') "
      "  AND NOT EXISTS (SELECT 1 FROM bench_points WHERE bench_points.run_id = runs.id) "
      "  LIMIT ?2)",
      now - cfg.smart_runs_days * kDay, rep.smart_runs_deleted));
  DP_RETURN_IF_ERROR(batches(
      "DELETE FROM latency_histograms WHERE point_id IN (SELECT bench_points.id "
      "  FROM bench_points JOIN runs ON runs.id = bench_points.run_id "
      "  JOIN latency_histograms h ON h.point_id = bench_points.id "
      "  WHERE runs.started_at < ?1 LIMIT ?2)",
      now - cfg.histogram_days * kDay, rep.histograms_dropped));
  // Every run keeps the figures detection and trends judge; see store.h.
  DP_RETURN_IF_ERROR(batches(
      "DELETE FROM measurements WHERE id IN (SELECT id FROM measurements WHERE at < ?1 "
      "  AND metric NOT IN ('mb_per_s', 'iops', 'access_ms', 'p99_us') LIMIT ?2)",
      now - cfg.detail_days * kDay, rep.measurements_dropped));
  // ZFS's own latency samples judge only the last few samplings; a quarter
  // of history is plenty for the drive page.
  DP_RETURN_IF_ERROR(batches(
      "DELETE FROM zfs_latency_samples WHERE id IN (SELECT id FROM zfs_latency_samples "
      "  WHERE at < ?1 LIMIT ?2)",
      now - cfg.histogram_days * kDay, rep.zfs_samples_dropped));

  // Give the freed pages back to the file system.
  {
    WatchedLock lock(mu_);
    DP_ASSIGN_OR_RETURN(std::int64_t mode, db_->QueryInt("PRAGMA auto_vacuum"));
    if (mode != 2) {
      // A file made before incremental vacuum was turned on: converting it
      // takes one VACUUM (a copy of the file, briefly).
      LogInfo(path_ + ": converting to incremental vacuum (one VACUUM)");
      // A copy of a large file can outlast the watchdog's limit while it
      // moves; a restart would only start it again.
      Heartbeat::Quiet long_call(mu_.heartbeat());
      DP_RETURN_IF_ERROR(db_->Exec("PRAGMA auto_vacuum = INCREMENTAL"));
      DP_RETURN_IF_ERROR(db_->Exec("VACUUM"));
    }
  }
  while (true) {
    WatchedLock lock(mu_);
    DP_ASSIGN_OR_RETURN(std::int64_t free_pages, db_->QueryInt("PRAGMA freelist_count"));
    if (free_pages == 0) break;
    DP_RETURN_IF_ERROR(db_->Exec("PRAGMA incremental_vacuum(2048)"));
  }
  {
    WatchedLock lock(mu_);
    DP_RETURN_IF_ERROR(db_->Exec("PRAGMA wal_checkpoint(TRUNCATE)"));
  }
  rep.bytes_after = FileBytes(path_);
  return rep;
}

}  // namespace dp
