#include "store/migrations.h"

#include "base/log.h"
#include "store/sqlite_db.h"

namespace dp {
namespace {

// Version 1: the first schema. Times are unix seconds; booleans are
// 0/1; "none" is NULL where the model says optional.
const char* const kSchemaV1 = R"sql(
-- Drives, keyed by stable identity (WWN, else model+serial), never by /dev name.
-- Never deleted: a drive that disappears gets present = 0 and missing_since.
CREATE TABLE drives (
  id                  TEXT PRIMARY KEY,
  dev_path            TEXT NOT NULL DEFAULT '',
  name                TEXT NOT NULL DEFAULT '',
  model               TEXT NOT NULL DEFAULT '',
  serial              TEXT NOT NULL DEFAULT '',
  wwn                 TEXT,
  firmware            TEXT NOT NULL DEFAULT '',
  size_bytes          INTEGER NOT NULL DEFAULT 0,
  logical_block_size  INTEGER NOT NULL DEFAULT 512,
  physical_block_size INTEGER NOT NULL DEFAULT 512,
  rotational          INTEGER,
  rotation_rpm        INTEGER,
  transport           TEXT NOT NULL DEFAULT '',
  stable_paths        TEXT NOT NULL DEFAULT '[]',  -- JSON array of strings
  explicit_target     INTEGER NOT NULL DEFAULT 0,
  present             INTEGER NOT NULL DEFAULT 1,
  first_seen          INTEGER NOT NULL,
  last_seen           INTEGER NOT NULL,
  missing_since       INTEGER
);

-- Pools, vdevs and members over time: each row has the first and last
-- observation that saw it; `current` marks what the latest observation saw.
CREATE TABLE pools (
  id            INTEGER PRIMARY KEY,
  kind          TEXT NOT NULL,
  name          TEXT NOT NULL,
  state         TEXT NOT NULL DEFAULT '',
  scan_function TEXT NOT NULL DEFAULT '',
  scan_state    TEXT NOT NULL DEFAULT '',
  scan_percent  REAL,
  scan_text     TEXT NOT NULL DEFAULT '',
  errors        TEXT NOT NULL DEFAULT '',
  error_files   TEXT NOT NULL DEFAULT '[]',  -- JSON array (zpool status -v)
  status        TEXT NOT NULL DEFAULT '',
  position      INTEGER NOT NULL DEFAULT 0,
  current       INTEGER NOT NULL DEFAULT 0,
  first_seen    INTEGER NOT NULL,
  last_seen     INTEGER NOT NULL,
  UNIQUE (kind, name)
);
CREATE TABLE vdevs (
  id         INTEGER PRIMARY KEY,
  pool_id    INTEGER NOT NULL REFERENCES pools(id),
  role       TEXT NOT NULL,
  name       TEXT NOT NULL,
  type       TEXT NOT NULL DEFAULT '',
  state      TEXT NOT NULL DEFAULT '',
  position   INTEGER NOT NULL DEFAULT 0,
  current    INTEGER NOT NULL DEFAULT 0,
  first_seen INTEGER NOT NULL,
  last_seen  INTEGER NOT NULL,
  UNIQUE (pool_id, role, name)
);
-- drive_id is '' when the member path could not be mapped to a drive. It is
-- not a foreign key: pool membership may name a drive inventory has not stored.
CREATE TABLE pool_members (
  id              INTEGER PRIMARY KEY,
  vdev_id         INTEGER NOT NULL REFERENCES vdevs(id),
  path            TEXT NOT NULL,
  drive_id        TEXT NOT NULL DEFAULT '',
  state           TEXT NOT NULL DEFAULT '',
  read_errors     INTEGER,
  write_errors    INTEGER,
  checksum_errors INTEGER,
  note            TEXT NOT NULL DEFAULT '',
  container       INTEGER NOT NULL DEFAULT 0,  -- a nested vdev row (replacing-1)
  parent          TEXT NOT NULL DEFAULT '',
  counters_approximate INTEGER NOT NULL DEFAULT 0,
  position        INTEGER NOT NULL DEFAULT 0,
  current         INTEGER NOT NULL DEFAULT 0,
  first_seen      INTEGER NOT NULL,
  last_seen       INTEGER NOT NULL,
  UNIQUE (vdev_id, path, drive_id)
);
CREATE INDEX pool_members_by_drive ON pool_members (drive_id, last_seen);

-- SMART snapshots: normalised fields as columns, lists as JSON, smartctl's
-- whole output in raw_json (dropped by retention, the rest kept).
CREATE TABLE smart_snapshots (
  id                     INTEGER PRIMARY KEY,
  drive_id               TEXT NOT NULL REFERENCES drives(id),
  at                     INTEGER NOT NULL,
  protocol               TEXT NOT NULL DEFAULT '',
  device_path            TEXT NOT NULL DEFAULT '',
  device_type            TEXT NOT NULL DEFAULT '',
  model                  TEXT NOT NULL DEFAULT '',
  serial                 TEXT NOT NULL DEFAULT '',
  wwn                    TEXT,
  firmware               TEXT NOT NULL DEFAULT '',
  capacity_bytes         INTEGER,
  rotation_rpm           INTEGER,
  health_passed          INTEGER,
  temperature_c          INTEGER,
  power_on_hours         INTEGER,
  power_cycles           INTEGER,
  reallocated_sectors    INTEGER,
  pending_sectors        INTEGER,
  offline_uncorrectable  INTEGER,
  reported_uncorrectable INTEGER,
  command_timeouts       INTEGER,
  udma_crc_errors        INTEGER,
  nvme                   INTEGER NOT NULL DEFAULT 0,  -- 1: the nvme_* columns apply
  nvme_critical_warning  INTEGER,
  nvme_media_errors      INTEGER,
  nvme_percentage_used   INTEGER,
  nvme_available_spare   INTEGER,
  nvme_available_spare_threshold INTEGER,
  nvme_unsafe_shutdowns  INTEGER,
  nvme_num_err_log_entries INTEGER,
  smartctl_exit_status   INTEGER,
  attributes             TEXT NOT NULL DEFAULT '[]',  -- JSON
  self_tests             TEXT NOT NULL DEFAULT '[]',  -- JSON, newest first
  messages               TEXT NOT NULL DEFAULT '[]',  -- JSON
  short_test_minutes     INTEGER,
  extended_test_minutes  INTEGER,
  self_test_running      INTEGER NOT NULL DEFAULT 0,
  self_test_remaining_percent INTEGER,
  parse_warnings         TEXT NOT NULL DEFAULT '[]',  -- JSON
  raw_json               TEXT
);
CREATE INDEX smart_snapshots_by_drive ON smart_snapshots (drive_id, at);

-- Runs: one test of one drive (drive_id NULL for a pool-level test).
CREATE TABLE runs (
  id         INTEGER PRIMARY KEY,
  drive_id   TEXT REFERENCES drives(id),
  test       TEXT NOT NULL,
  trigger    TEXT NOT NULL DEFAULT '',
  started_at INTEGER NOT NULL,
  ended_at   INTEGER,
  outcome    TEXT NOT NULL,
  reason     TEXT NOT NULL DEFAULT '',
  progress   REAL NOT NULL DEFAULT 0,
  contended  INTEGER NOT NULL DEFAULT 0,
  partial    INTEGER NOT NULL DEFAULT 0,
  engine     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX runs_by_drive ON runs (drive_id, started_at);
CREATE INDEX runs_by_time ON runs (started_at);

-- What each measured point ran on; its figures are rows of measurements.
CREATE TABLE bench_points (
  id            INTEGER PRIMARY KEY,
  run_id        INTEGER NOT NULL REFERENCES runs(id),
  seq           INTEGER NOT NULL,
  test          TEXT NOT NULL,
  zone          TEXT,
  stroke        TEXT,
  variant       TEXT,
  block_size    INTEGER NOT NULL DEFAULT 0,
  queue_depth   INTEGER NOT NULL DEFAULT 0,
  bytes         INTEGER NOT NULL DEFAULT 0,
  seconds       REAL NOT NULL DEFAULT 0,
  contended     INTEGER NOT NULL DEFAULT 0,
  foreign_share REAL NOT NULL DEFAULT 0,
  partial       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX bench_points_by_run ON bench_points (run_id, seq);

-- One figure per row. drive_id, at (the run's start) and the point's
-- descriptors are copied in so a drive's trend is one index range scan.
CREATE TABLE measurements (
  id          INTEGER PRIMARY KEY,
  point_id    INTEGER NOT NULL REFERENCES bench_points(id),
  run_id      INTEGER NOT NULL REFERENCES runs(id),
  drive_id    TEXT,
  at          INTEGER NOT NULL,
  test        TEXT NOT NULL,
  metric      TEXT NOT NULL,
  unit        TEXT NOT NULL,
  zone        TEXT,
  stroke      TEXT,
  variant     TEXT,
  block_size  INTEGER NOT NULL DEFAULT 0,
  queue_depth INTEGER NOT NULL DEFAULT 0,
  value       REAL NOT NULL,
  contended   INTEGER NOT NULL DEFAULT 0,
  partial     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX measurements_history ON measurements (drive_id, test, metric, at);
CREATE INDEX measurements_by_point ON measurements (point_id);
CREATE INDEX measurements_by_run ON measurements (run_id);

-- Encoded latency histograms (bench module's format), one per point.
CREATE TABLE latency_histograms (
  point_id INTEGER PRIMARY KEY REFERENCES bench_points(id),
  data     BLOB NOT NULL
);

-- Alerts and their lifecycle; at most one active (open or acknowledged)
-- alert per (drive, condition).
CREATE TABLE alerts (
  id               INTEGER PRIMARY KEY,
  drive_id         TEXT REFERENCES drives(id),
  condition        TEXT NOT NULL,
  severity         TEXT NOT NULL,
  state            TEXT NOT NULL,
  summary          TEXT NOT NULL DEFAULT '',
  evidence         TEXT NOT NULL DEFAULT '',
  opened_at        INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  acknowledged_at  INTEGER,
  resolved_at      INTEGER,
  last_notified_at INTEGER,
  notify_count     INTEGER NOT NULL DEFAULT 0,
  clear_streak     INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX alerts_one_active
  ON alerts (ifnull(drive_id, ''), condition) WHERE state <> 'resolved';
CREATE INDEX alerts_by_time ON alerts (opened_at);
CREATE INDEX alerts_by_drive ON alerts (drive_id, opened_at);

-- Small key/value pairs the scheduler keeps across restarts.
CREATE TABLE scheduler_state (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
)sql";

// Version 2: the host adapter a drive hangs off (the scheduler caps
// concurrent tests per controller).
const char* const kSchemaV2 = R"sql(
ALTER TABLE drives ADD COLUMN controller TEXT NOT NULL DEFAULT '';
)sql";

// Version 3: re-baseline marks (a request, e.g. after a
// firmware update). Every request is kept; for a drive x test the
// latest mark applying to it wins (test NULL = every test of the drive).
// An alert closed by a re-baseline says why in alerts.resolution.
const char* const kSchemaV3 = R"sql(
CREATE TABLE rebaselines (
  id       INTEGER PRIMARY KEY,
  drive_id TEXT NOT NULL REFERENCES drives(id),
  test     TEXT,
  at       INTEGER NOT NULL,
  reason   TEXT NOT NULL DEFAULT '',
  who      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX rebaselines_by_drive ON rebaselines (drive_id, at);
ALTER TABLE alerts ADD COLUMN resolution TEXT NOT NULL DEFAULT '';
)sql";

// Version 4: retention. smart_snapshots.attributes, self_tests and raw_json
// may hold a zlib-compressed BLOB instead of text (store/compressed_text.h);
// raw_from names the snapshot holding this one's smartctl output when it was
// the same bytes as the drive's previous one (raw_json is then NULL).
const char* const kSchemaV4 = R"sql(
ALTER TABLE smart_snapshots ADD COLUMN raw_from INTEGER;
CREATE INDEX smart_snapshots_raw_from ON smart_snapshots (raw_from) WHERE raw_from IS NOT NULL;
)sql";

// Version 5: a point that read flash blocks never written (all zeros on a
// non-rotational device) is kept but marked, with the reason, and its
// figures are never evidence; the submitting threads a point ran with.
const char* const kSchemaV5 = R"sql(
ALTER TABLE bench_points ADD COLUMN unwritten INTEGER NOT NULL DEFAULT 0;
ALTER TABLE bench_points ADD COLUMN unwritten_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE bench_points ADD COLUMN jobs INTEGER NOT NULL DEFAULT 1;
ALTER TABLE measurements ADD COLUMN unwritten INTEGER NOT NULL DEFAULT 0;
)sql";

// Version 6: the page's first screen reads, for every drive, the newest and
// the oldest samples of its headline series and its latest SMART run.
// measurements_history now holds every column Store::History reads, so a
// series is one range scan of the index with no table row fetched per
// sample; runs_by_drive_test finds a drive's latest run of one test without
// stepping through the runs of its other tests.
const char* const kSchemaV6 = R"sql(
DROP INDEX measurements_history;
CREATE INDEX measurements_history ON measurements (drive_id, test, metric, at, id, run_id, value,
  contended, partial, unwritten, zone, stroke, variant, block_size, queue_depth);
CREATE INDEX runs_by_drive_test ON runs (drive_id, test, started_at);
)sql";

// Version 7: a chart of a drive's attributes over time reads, for each
// snapshot, only the attributes' ids, values and raw values:
// attribute_values holds those as a short JSON array [id, value, raw, ...]
// (compressed like the lists) beside the whole list. NULL in rows written before: their
// readers fall back to the whole list.
const char* const kSchemaV7 = R"sql(
ALTER TABLE smart_snapshots ADD COLUMN attribute_values TEXT;
)sql";

// Version 8: ZFS's own view of each pool member between tests (sampled with
// discovery): average waits and slow I/O counts, judged against the member's
// vdev siblings sampled at the same moment. drive_id is NULL for members that
// map to no drive (they still count as siblings).
const char* const kSchemaV8 = R"sql(
CREATE TABLE zfs_latency_samples (
  id               INTEGER PRIMARY KEY,
  at               INTEGER NOT NULL,
  pool             TEXT NOT NULL,
  vdev             TEXT NOT NULL,
  member           TEXT NOT NULL,
  drive_id         TEXT,
  read_ops         REAL,
  write_ops        REAL,
  disk_wait_read   REAL,  -- seconds
  disk_wait_write  REAL,
  total_wait_read  REAL,
  total_wait_write REAL,
  slow_ios         INTEGER
);
CREATE INDEX zfs_latency_by_vdev ON zfs_latency_samples (pool, vdev, at);
CREATE INDEX zfs_latency_by_drive ON zfs_latency_samples (drive_id, at) WHERE drive_id IS NOT NULL;
CREATE INDEX zfs_latency_by_time ON zfs_latency_samples (at);
)sql";

// Version 9: the notification outbox. A notification accepted for a sink
// stays here until the sink has it or the dispatcher gives up on it, so a
// daemon killed with notifications queued sends them after its restart.
const char* const kSchemaV9 = R"sql(
CREATE TABLE notification_outbox (
  id INTEGER PRIMARY KEY,
  sink TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  body TEXT NOT NULL
);
)sql";

// Version 10: two more of ZFS's own signals per member sample: OpenZFS
// 2.4's sit_out flag (NULL: unknown, 0 off, 1 on) and the disk waits since
// the previous sampling as a compact histogram (store/zfs_histogram_codec.h;
// NULL: none).
const char* const kSchemaV10 = R"sql(
ALTER TABLE zfs_latency_samples ADD COLUMN sit_out INTEGER;
ALTER TABLE zfs_latency_samples ADD COLUMN disk_wait_histogram BLOB;
)sql";

// Version 11: an alert keeps the summary and evidence it opened with and the
// history of its refreshes; summary and evidence stay the latest verdict's.
// Active per-series slowdown, peer, trend and environment alerts close: their
// verdicts now go to one alert per drive (or box) event
// (alert/alert_events.h), which the next run opens if the condition holds.
const char* const kSchemaV11 = R"sql(
ALTER TABLE alerts ADD COLUMN opened_summary TEXT NOT NULL DEFAULT '';
ALTER TABLE alerts ADD COLUMN opened_evidence TEXT NOT NULL DEFAULT '';
ALTER TABLE alerts ADD COLUMN history TEXT NOT NULL DEFAULT '';
UPDATE alerts SET state = 'resolved', resolved_at = updated_at,
  resolution = 'superseded: a drive''s slowdown, peer and trend verdicts and a box''s environment '
               || 'verdicts are now one alert per event; it opens again if the condition holds'
  WHERE state <> 'resolved' AND (condition LIKE 'slowdown:%' OR condition LIKE 'peer:%'
        OR condition LIKE 'trend:%' OR condition LIKE 'environment:%');
)sql";

// Version 12: a drive the owner retired (`diskpulse forget`): when and why.
// A retired drive raises no "missing" alert.
const char* const kSchemaV12 = R"sql(
ALTER TABLE drives ADD COLUMN forgotten_at INTEGER;
ALTER TABLE drives ADD COLUMN forgotten_reason TEXT NOT NULL DEFAULT '';
)sql";

// Version 13: overrides set through the API and the audit trail of every
// change to them (the config file's overrides are never stored). A selector
// is one of drive_id, serial, model; attribute '' is the whole drive.
const char* const kSchemaV13 = R"sql(
CREATE TABLE overrides (
  id          INTEGER PRIMARY KEY,
  drive_id    TEXT NOT NULL DEFAULT '',
  serial      TEXT NOT NULL DEFAULT '',
  model       TEXT NOT NULL DEFAULT '',
  attribute   TEXT NOT NULL DEFAULT '',
  ignore      INTEGER NOT NULL DEFAULT 0,
  threshold   REAL,
  mute_until  INTEGER,
  reason      TEXT NOT NULL DEFAULT '',
  who         TEXT NOT NULL DEFAULT '',
  at          INTEGER NOT NULL
);
CREATE TABLE override_audit (
  id            INTEGER PRIMARY KEY,
  at            INTEGER NOT NULL,
  action        TEXT NOT NULL,          -- set | deleted | expired
  override_id   INTEGER NOT NULL,       -- kept after the override is gone
  who           TEXT NOT NULL DEFAULT '',
  reason        TEXT NOT NULL DEFAULT '',
  override_json TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX override_audit_by_at ON override_audit (at);
)sql";

// Version 14: a run recognised afterwards as unseen interference (every
// read path of the drive worse in its window; detect::WasInterference) is
// drawn and kept, but no baseline takes it in. The flag is on the figures,
// so the history index still covers every column Store::History reads.
const char* const kSchemaV14 = R"sql(
ALTER TABLE measurements ADD COLUMN interfered INTEGER NOT NULL DEFAULT 0;
DROP INDEX measurements_history;
CREATE INDEX measurements_history ON measurements (drive_id, test, metric, at, id, run_id, value,
  contended, partial, unwritten, interfered, zone, stroke, variant, block_size, queue_depth);
)sql";

// Version 15: a run's peer comparison is made once, when its group's cycle is
// complete (detect::JudgeDuePeers); this remembers which runs had theirs.
const char* const kSchemaV15 = R"sql(
CREATE TABLE peer_judged (
  run_id INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE
);
)sql";

// Version 16: a mute narrowed to one kind of alert, and overrides that
// select a pool (its own alerts have no drive to select).
const char* const kSchemaV16 = R"sql(
ALTER TABLE overrides ADD COLUMN pool TEXT NOT NULL DEFAULT '';
ALTER TABLE overrides ADD COLUMN kind TEXT NOT NULL DEFAULT '';
)sql";

// Version 17: an alert's typed state and its words. An event's members and
// timers move out of its evidence into event_state (alert_events.h; parsed
// by model/alert.h's EventStateFromJson alone), and what it says to its owner
// is kept in headline, confidence and advice (alert/alert_words.h). A drive's
// trend verdicts now join its speed alert "slowdown:drive": an active
// "trend:drive" becomes that alert when the drive has none, and closes into
// it otherwise (the next run adds its members there).
const char* const kSchemaV17 = R"sql(
ALTER TABLE alerts ADD COLUMN event_state TEXT NOT NULL DEFAULT '';
ALTER TABLE alerts ADD COLUMN headline TEXT NOT NULL DEFAULT '';
ALTER TABLE alerts ADD COLUMN confidence TEXT NOT NULL DEFAULT '';
ALTER TABLE alerts ADD COLUMN advice TEXT NOT NULL DEFAULT '';
UPDATE alerts SET event_state = json_object(
    'members', json_extract(evidence, '$.members'),
    'last_fired_at', json_extract(evidence, '$.last_fired_at'),
    'cleared_since_fired', json(CASE WHEN json_extract(evidence, '$.cleared_since_fired')
                                     THEN 'true' ELSE 'false' END))
  WHERE json_valid(evidence) AND json_type(evidence, '$.members') = 'array';
UPDATE alerts SET state = 'resolved', resolved_at = updated_at,
  resolution = 'superseded: a drive''s trend is now part of its speed alert (slowdown:drive)'
  WHERE state <> 'resolved' AND condition = 'trend:drive' AND EXISTS (
    SELECT 1 FROM alerts AS s WHERE s.state <> 'resolved' AND s.condition = 'slowdown:drive'
      AND ifnull(s.drive_id, '') = ifnull(alerts.drive_id, ''));
UPDATE alerts SET condition = 'slowdown:drive'
  WHERE state <> 'resolved' AND condition = 'trend:drive';
)sql";

}  // namespace

const std::vector<Migration>& SchemaMigrations() {
  static const std::vector<Migration> kMigrations = {
      {1, "first schema", kSchemaV1},
      {2, "drive controller", kSchemaV2},
      {3, "re-baseline marks", kSchemaV3},
      {4, "compressed SMART output, retention", kSchemaV4},
      {5, "unwritten points, jobs", kSchemaV5},
      {6, "covering history index, runs by drive and test", kSchemaV6},
      {7, "SMART attribute values for charts", kSchemaV7},
      {8, "ZFS latency samples", kSchemaV8},
      {9, "notification outbox", kSchemaV9},
      {10, "ZFS sit_out and disk wait histograms", kSchemaV10},
      {11, "alert opening evidence and history", kSchemaV11},
      {12, "retired drives", kSchemaV12},
      {13, "overrides and their audit trail", kSchemaV13},
      {14, "runs recognised as interference", kSchemaV14},
      {15, "runs compared with their peers", kSchemaV15},
      {16, "overrides by alert kind and by pool", kSchemaV16},
      {17, "typed alert state and words; trends join a drive's speed alert", kSchemaV17},
  };
  return kMigrations;
}

Status ApplyMigrations(SqliteDb& db, const std::vector<Migration>& migrations) {
  for (const Migration& m : migrations) {
    Transaction tx(db);
    DP_RETURN_IF_ERROR(tx.status());
    // Read inside the write transaction: another process may have migrated
    // between our check and our lock.
    DP_ASSIGN_OR_RETURN(std::int64_t current, db.QueryInt("PRAGMA user_version"));
    if (current >= m.version) continue;
    if (current != m.version - 1) {
      return Internal(db.path() + ": migration " + std::to_string(m.version) +
                      " expects schema version " + std::to_string(m.version - 1) + ", found " +
                      std::to_string(current));
    }
    Status s = db.Exec(m.sql);
    if (!s.ok()) {
      return s.WithContext("schema migration " + std::to_string(m.version) + " (" + m.name +
                           ") failed; the database stays at version " + std::to_string(current));
    }
    // PRAGMA takes no bound parameters; both values are our own integers.
    DP_RETURN_IF_ERROR(db.Exec("PRAGMA user_version = " + std::to_string(m.version)));
    DP_RETURN_IF_ERROR(
        db.Exec("PRAGMA application_id = " + std::to_string(kDiskpulseApplicationId)));
    DP_RETURN_IF_ERROR(tx.Commit());
    LogInfo(db.path() + ": schema migrated to version " + std::to_string(m.version) + " (" +
            m.name + ")");
  }
  return Status::Ok();
}

}  // namespace dp
