// Store: diskpulse's SQLite database: drives, pools and
// their membership over time, SMART snapshots, runs, measurements, latency
// histograms, alerts, re-baseline marks and scheduler state, plus the
// history queries that feed detection and the web page.
//
// Owned by the composition root (app/ or cli/), shared by reference.
// Thread-safe: one sqlite3 connection guarded by a mutex, so every method may
// be called from any thread; calls are serialised. WAL journal, foreign keys
// on, busy_timeout set, schema migrations by PRAGMA user_version.
//
// The implementation is split by subject (database.cc, drive_store.cc,
// pool_store.cc, smart_store.cc, run_store.cc, measurement_store.cc,
// alert_store.cc, rebaseline_store.cc, scheduler_state_store.cc,
// retention.cc); a new query goes into the file of its subject, declared here.
//
// Conventions: times are unix seconds; "" in a filter means "any"; a text
// field that is "" in a struct (Run::drive_id, Alert::drive_id) is NULL in
// the database. Nothing ever deletes a drive: one that disappears is marked
// missing (present = false) and keeps its history.
#pragma once

#include <cstdint>
#include <memory>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/heartbeat.h"
#include "base/result.h"
#include "base/status.h"
#include "base/thread_annotations.h"
#include "config/retention_config.h"
#include "model/alert.h"
#include "model/bench_result.h"
#include "model/drive.h"
#include "model/drive_override.h"
#include "model/pool.h"
#include "model/rebaseline_mark.h"
#include "model/run.h"
#include "model/smart_snapshot.h"
#include "model/zfs_latency.h"

namespace dp {

class SqliteDb;

// ListRuns: newest first (started_at, then id, descending).
struct RunFilter {
  std::string drive_id;               // "" = any (pool-level runs included)
  std::string test;                   // "" = any
  std::optional<RunOutcome> outcome;  // nullopt = any
  std::int64_t since = 0;             // started_at >= since
  int limit = 100;                    // <= 0: no limit
};

// History: one metric of one drive's test over time. Returns the newest
// `limit` samples that match, in chronological order (oldest first).
struct HistoryQuery {
  std::string drive_id;           // required
  std::string test;               // required: seq, zones, seek, random, sweep, ...
  std::string metric;             // required: mb_per_s, iops, access_ms, p50_us, ...
  std::string zone;               // "" = any (including none)
  std::string stroke;             // "" = any
  std::string variant;            // "" = any
  std::uint32_t block_size = 0;   // 0 = any
  std::uint32_t queue_depth = 0;  // 0 = any
  std::int64_t since = 0;         // at >= since
  int limit = 1000;               // <= 0: no limit
  // false: the newest `limit` samples; true: the oldest (where a baseline
  // is). Either way the result is oldest first.
  bool oldest = false;
};

struct MeasurementSample {
  std::int64_t run_id = 0;
  std::int64_t at = 0;  // the run's started_at
  double value = 0;
  bool contended = false;  // the point or its run was contended
  bool partial = false;    // the point or its run was partial
  bool unwritten = false;  // the point read flash blocks never written
  bool interfered = false;  // its run was recognised as unseen interference
  // What the sample was measured on, for callers that query with "any".
  std::string zone, stroke, variant;
  std::uint32_t block_size = 0, queue_depth = 0;
};

// One stored figure of a drive with what it measured, for an export.
struct DriveMeasurement {
  std::string test, metric, unit;
  MeasurementSample sample;
};

// ListAlerts: newest first (opened_at, then id, descending).
struct AlertFilter {
  std::string state;     // "" = any; "active" = open or acknowledged
  std::string drive_id;  // "" = any
  int limit = 100;       // <= 0: no limit
};

// A notification waiting in the outbox for its sink.
struct StoredOutboxEntry {
  std::int64_t id = 0;
  std::string sink;
  std::string body;
  std::int64_t created_at = 0;
};

struct StoreOptions {
  // false: large text is stored uncompressed, as before schema version 4
  // (benchmarks/db_size measures the difference; both forms read back alike).
  bool compress = true;
};

// What one ApplyRetention pass did.
struct RetentionReport {
  std::int64_t raw_outputs_dropped = 0;   // smartctl outputs no longer kept
  std::int64_t raw_outputs_compressed = 0;  // older rows' plain text compressed
  std::int64_t snapshots_thinned = 0;     // SMART snapshots summarised away
  std::int64_t smart_runs_deleted = 0;
  std::int64_t histograms_dropped = 0;
  std::int64_t measurements_dropped = 0;  // secondary figures of old runs
  std::int64_t zfs_samples_dropped = 0;   // ZFS latency samples past histogram_days
  std::int64_t bytes_before = 0, bytes_after = 0;  // the database file
  std::string Summary() const;
};

class Store {
 public:
  // The schema version this binary creates and understands.
  static int LatestSchemaVersion();

  // Opens (creating when absent) the database at path and brings its schema
  // up to date. The parent directory must exist and be writable: this does
  // not create it (the daemon decides). Refuses, never modifying the file:
  //   - a file that is not SQLite or is corrupt (Corrupt: "PATH is not a
  //     diskpulse database (not SQLite or corrupt): ..."),
  //   - an SQLite database of another application,
  //   - a database newer than this binary (FailedPrecondition: "database
  //     schema version N is newer than this diskpulse (knows M); upgrade
  //     diskpulse").
  static Result<std::unique_ptr<Store>> Open(const std::string& path, StoreOptions options = {});

  // A consistent copy of the whole database as the bytes of an SQLite file,
  // taken with SQLite's online backup while the daemon keeps writing: the
  // copy goes `pages_per_step` pages at a time and the store is free for
  // other callers between steps (writes made meanwhile are carried into the
  // copy by SQLite). Needs memory for about twice the database's size.
  Result<std::string> BackupBytes(int pages_per_step = 256);

  // Reports every call that holds the database (or waits on SQLite's busy
  // timeout inside one) to `heartbeat`, so a call that hangs stops the
  // watchdog. Set before other threads use the store.
  void WatchWith(Heartbeat* heartbeat) { mu_.Watch(heartbeat); }

  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& path() const { return path_; }

  // PRAGMA quick_check: "ok", or the problems it found, one per line.
  Result<std::string> QuickCheck();
  int SchemaVersion();
  // Ok, or why the newest write failed for a reason of the file or its
  // volume (read-only, I/O error, full, corrupt); Ok again once a write
  // succeeds. Reads may go on working while writes fail, so a health check
  // that only reads needs this to see a read-only volume.
  Status WriteFailure();

  // --- Drives (drive_store.cc). Keyed by Drive::id; never deleted.
  // Inserts or updates the drive (all descriptive fields), marks it present
  // and sets last_seen = seen_at (first_seen on insert).
  Status UpsertDrive(const Drive& drive, std::int64_t seen_at);
  // Marks every present drive whose id is not in present_ids as missing
  // (present = false, missing since `at`). Their history is kept.
  Status MarkMissingExcept(const std::vector<std::string>& present_ids, std::int64_t at);
  // All drives ever seen, present ones first, then by name and id.
  // Retires a drive that is gone (present = false) for good: sets
  // forgotten_at/forgotten_reason, so it raises no "missing" alert. NotFound
  // for an unknown id, FailedPrecondition for a present drive. A forgotten
  // drive that comes back is un-forgotten by UpsertDrive.
  Result<Drive> ForgetDrive(const std::string& id, std::int64_t at, const std::string& reason);
  Result<std::vector<Drive>> ListDrives();
  Result<std::optional<Drive>> GetDrive(const std::string& id);

  // --- Pools (pool_store.cc). Each call records one observation of all pools:
  // pools, vdevs and members seen now get last_seen = at (first_seen on their
  // first sighting); a member row is (pool, vdev, path, drive_id), so a
  // replaced drive starts a new row and the old one keeps its dates.
  Status RecordPools(const std::vector<Pool>& pools, std::int64_t at);
  // The pools as of the last RecordPools call, in the order they were given.
  Result<std::vector<Pool>> LatestPools();
  // What the pool's history remembers, for naming members that are gone:
  // when the pool (kind, name) was first seen (nullopt: never) and, for each
  // member path, the drive last seen at it (paths never mapped left out).
  struct PoolRecall {
    std::optional<std::int64_t> first_seen;
    std::map<std::string, std::string> drive_at_path;
  };
  Result<PoolRecall> RecallPool(const std::string& kind, const std::string& name);

  // --- SMART (smart_store.cc). Normalised fields in columns, attributes and
  // self-tests as JSON, smartctl's output kept whole (until retention drops
  // it); the three large ones compressed, an output equal to the drive's
  // previous one stored once.
  Result<std::int64_t> InsertSmartSnapshot(const std::string& drive_id, std::int64_t at,
                                           const SmartSnapshot& snapshot);
  Result<std::optional<SmartSnapshot>> LatestSmart(const std::string& drive_id);
  // The newest snapshot's figures alone (health verdict, temperature,
  // power-on hours and cycles, error counters, NVMe health), for summaries
  // that show no lists: attributes, self-tests and the rest are left empty.
  Result<std::optional<SmartSnapshot>> LatestSmartFigures(const std::string& drive_id);
  // Snapshots with at >= since, newest first, at most limit (<= 0: all);
  // raw_json is left empty here (use LatestSmart for the whole output).
  Result<std::vector<std::pair<std::int64_t, SmartSnapshot>>> SmartHistory(
      const std::string& drive_id, std::int64_t since, int limit);
  // Snapshots with at >= since spread over time, oldest first: at most about
  // max_points, the newest of each of max_points equal time slices (so the
  // newest snapshot is always there and years of 4-hourly snapshots cost a
  // chart's worth of rows). Only the charted fields are read: the health
  // verdict, temperature, power-on hours, the error counters, the NVMe
  // used/media errors/spare and the attributes; the rest is left empty.
  Result<std::vector<std::pair<std::int64_t, SmartSnapshot>>> SmartHistorySpread(
      const std::string& drive_id, std::int64_t since, int max_points);

  // --- Runs (run_store.cc). run.drive_id must name a known drive, or be ""
  // for a pool-level run.
  Result<std::int64_t> InsertRun(const Run& run);  // run.id is ignored
  Status UpdateRun(const Run& run);                // NotFound if run.id is unknown
  Result<std::optional<Run>> GetRun(std::int64_t id);
  Result<std::vector<Run>> ListRuns(const RunFilter& filter);

  // --- Measurements (measurement_store.cc). One row per metric of each point
  // (mb_per_s and iops when > 0, access_ms when set, p50_us, p90_us, p99_us,
  // p999_us, max_us, mean_us when latency is set), each carrying the point's
  // test, zone, stroke, variant, block size, queue depth and flags; the
  // encoded histogram goes to its own table. One transaction per call.
  Status AddMeasurements(std::int64_t run_id, const std::vector<BenchPoint>& points);
  // The points of a run as stored (histograms included unless pruned).
  Result<std::vector<BenchPoint>> RunPoints(std::int64_t run_id);
  Result<std::vector<MeasurementSample>> History(const HistoryQuery& query);
  // Flags every figure of the run as unseen interference
  // (MeasurementSample::interfered); NotFound if the run has none.
  Status MarkInterference(std::int64_t run_id);
  // A run's peer comparison is done (detect::JudgeDuePeers); idempotent.
  Status MarkPeerJudged(std::int64_t run_id);
  Result<bool> PeerJudged(std::int64_t run_id);
  // The drive's runs started at or after `since` whose peer comparison is done.
  Result<std::set<std::int64_t>> PeerJudgedSince(const std::string& drive_id, std::int64_t since);
  // Every figure of every run of the drive, oldest first (an export: no limit).
  Result<std::vector<DriveMeasurement>> DriveMeasurements(const std::string& drive_id);

  // --- Alerts (alert_store.cc). alert.drive_id must name a known drive or be "".
  // AlreadyExists if an open or acknowledged alert has the same
  // (drive_id, condition).
  Result<std::int64_t> InsertAlert(const Alert& alert);  // alert.id is ignored
  Status UpdateAlert(const Alert& alert);                // NotFound if alert.id is unknown
  // The open or acknowledged alert for (drive_id, condition), if any.
  Result<std::optional<Alert>> OpenAlertFor(const std::string& drive_id,
                                            const std::string& condition);
  Result<std::vector<Alert>> ListAlerts(const AlertFilter& filter);
  Result<std::optional<Alert>> GetAlert(std::int64_t id);

  // --- Notification outbox (outbox_store.cc): notifications accepted for a
  // sink and not yet delivered or given up (alert/notification_outbox.h).
  Result<std::int64_t> AddOutboxEntry(const std::string& sink, const std::string& body,
                                      std::int64_t created_at);
  Status RemoveOutboxEntry(std::int64_t id);  // an unknown id is not an error
  Result<std::vector<StoredOutboxEntry>> ListOutbox();  // oldest first

  // --- Re-baseline marks (rebaseline_store.cc). InvalidArgument for an
  // unknown drive or an empty drive_id.
  Result<std::int64_t> InsertRebaseline(const RebaselineMark& mark);  // mark.id is ignored
  // The mark that applies to `test` of the drive: the latest (by at, then id)
  // whose test is `test` or every test; test "" = the latest of any test.
  Result<std::optional<RebaselineMark>> LatestRebaseline(const std::string& drive_id,
                                                         const std::string& test);
  // The drive's marks, newest first, at most limit (<= 0: all).
  Result<std::vector<RebaselineMark>> ListRebaselines(const std::string& drive_id, int limit);

  // --- Overrides set through the API (override_store.cc); the config
  // file's are never stored. Every change writes an audit row in the same
  // transaction: InsertOverride "set" (who, reason and at from the
  // override), DeleteOverride `action` ("deleted", "expired").
  Result<std::int64_t> InsertOverride(const DriveOverride& o);  // o.id is ignored
  Result<std::vector<DriveOverride>> ListOverrides();           // oldest first
  // NotFound for an unknown id.
  Status DeleteOverride(std::int64_t id, const std::string& action, const std::string& who,
                        const std::string& reason, std::int64_t at);
  // Newest first, at most limit (<= 0: all).
  Result<std::vector<OverrideAudit>> ListOverrideAudit(int limit);

  // --- ZFS latency samples (zfs_latency_store.cc). One transaction per call.
  Status AddZfsLatencySamples(const std::vector<ZfsLatencySample>& samples);
  // Every member's samples of the vdev's newest `samplings` sampling times
  // (distinct at), oldest first, then by member.
  Result<std::vector<ZfsLatencySample>> ZfsLatencyOfVdev(const std::string& pool,
                                                         const std::string& vdev, int samplings);
  // The drive's samples, newest first, at most limit (<= 0: all).
  Result<std::vector<ZfsLatencySample>> ZfsLatencyOfDrive(const std::string& drive_id, int limit);
  // Every member's samples of each pool's newest sampling at or after
  // `since` (the SLOW counts and sit_out flags the pools answer shows), by
  // pool then member.
  Result<std::vector<ZfsLatencySample>> ZfsLatestSamplings(std::int64_t since);

  // --- Scheduler state (scheduler_state_store.cc): small key/value pairs the
  // scheduler keeps across restarts (last run times, queue cursor).
  Status SetSchedulerState(const std::string& key, const std::string& value);
  Result<std::optional<std::string>> GetSchedulerState(const std::string& key);

  // --- Retention (retention.cc): drops latency histograms of runs started
  // before `at` and the raw smartctl JSON of snapshots taken before `at`
  // (each drive's latest output stays). Measurements, runs, normalised SMART
  // fields and alerts are kept.
  Status PruneBefore(std::int64_t at);

  // One retention pass as of `now` (config/retention_config.h has the
  // windows): recent data stays whole; older SMART snapshots are thinned to
  // one a day, then one a week, keeping every one whose counters changed and
  // each drive's latest; old `smart` runs that succeeded go; histograms and
  // the secondary figures (p50, p90, p99.9, max, mean) of old runs go, while
  // every run keeps mb_per_s, iops, access_ms and p99_us (what detection and
  // trends read, whatever their age); then the freed pages are returned to
  // the file system (incremental vacuum, converting an older file once with
  // a VACUUM). Works in short transactions, so other callers wait at most
  // one batch. Nothing is removed when cfg.enabled is false.
  Result<RetentionReport> ApplyRetention(const RetentionConfig& cfg, std::int64_t now);

 private:
  Store(std::string path, std::unique_ptr<SqliteDb> db, StoreOptions options);

  // One batch of ApplyRetention (retention.cc); each takes mu_ for itself, so
  // other callers wait at most one batch.
  Status ThinSnapshotsOfDrive(const std::string& drive_id, std::int64_t full_cutoff,
                              std::int64_t daily_cutoff, std::int64_t& thinned) EXCLUDES(mu_);
  Result<std::int64_t> CompressRawBatch(int batch) EXCLUDES(mu_);

  const std::string path_;
  const StoreOptions options_;
  // Guards db_ and every statement in it; its holder is the store's call in
  // progress for the watchdog (WatchWith).
  WatchedMutex mu_;
  std::unique_ptr<SqliteDb> db_ GUARDED_BY(mu_);
};

}  // namespace dp
