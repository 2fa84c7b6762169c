// GET /metrics: Prometheus text, named by the Prometheus conventions (base
// units, *_total counters, identity in *_info). Per-drive series carry only
// the stable `drive` id (plus `test`, `series`, `metric` or `kind` where a
// drive has several); the /dev name, model, serial and firmware, which
// change or are long, sit once on diskpulse_drive_info for joins.
//
// Subjects, one Append* function each: the process; notifications (from the
// dispatcher, no database); then everything read from the database: drives
// and their identity, SMART (a field the drive does not report, or a drive
// without any snapshot, has no series: absent, never 0), ZFS's newest
// latency sampling of each pool member, the newest
// successful figures of each read test, detection state (baseline and the
// newest figure as a ratio of it: the judge's own band, detect::SeriesBands,
// as the history endpoint and the overview draw it), runs and alerts.
//
// A database that does not answer (locked by another process, failing)
// stops the database part at its first failed query: the scrape still
// answers, with what it has and diskpulse_db_up 0.
#include <algorithm>
#include <map>
#include <optional>

#include "alert/alert_dispatcher.h"
#include "base/clock.h"
#include "detect/baseline.h"
#include "detect/judge.h"
#include "detect/sample.h"
#include "detect/series.h"
#include "detect/zfs_latency_peers.h"
#include "http/api.h"
#include "http/metrics_text.h"
#include "model/condition.h"
#include "model/test_catalog.h"
#include "runs/store_series_history.h"
#include "store/store.h"

namespace dp::http {
namespace {

// Drive tests whose newest successful run is reported (every test that runs
// on drives; pool-write runs on a pool's dataset).
std::vector<std::string> DriveTests() {
  std::vector<std::string> out;
  for (const TestInfo& t : TestCatalog())
    if (t.scope != "pool") out.push_back(t.name);
  return out;
}

std::string KindOf(const std::string& condition) {
  return std::string(ConditionKindName(ConditionKindOf(condition)));
}

// The figures of a bench point: detect's metric name, the Prometheus name
// (base units) and the factor from the stored unit.
struct Figure {
  const char* metric;
  const char* name;
  const char* help;
  double scale;
};
constexpr Figure kFigures[] = {
    {"mb_per_s", "read_bytes_per_second", "Read throughput", 1e6},
    {"iops", "read_operations_per_second", "Read operations per second", 1},
    {"access_ms", "access_time_seconds", "Mean access time", 1e-3},
    {"p99_us", "read_latency_p99_seconds", "99th percentile read latency", 1e-6},
};
const Figure* FigureOf(const std::string& metric) {
  for (const Figure& f : kFigures)
    if (metric == f.metric) return &f;
  return nullptr;
}

// The stored value of `metric` in a point; nullopt when the point has none.
void AppendProcessMetrics(MetricsText& m, const ApiContext& ctx) {
  m.Gauge("diskpulse_up", "1 while diskpulsed is serving.", 1);
  m.Gauge("diskpulse_build_info", "Version of the running diskpulsed (value is always 1).", 1,
          {{"version", ctx.version}});
  m.Gauge("diskpulse_start_time_seconds", "When diskpulsed started, in unix seconds.",
          static_cast<double>(ToUnixSeconds(ctx.started_at)));
}

void AppendNotificationMetrics(MetricsText& m, const ApiContext& ctx) {
  if (!ctx.dispatcher) return;
  for (const SinkStats& s : ctx.dispatcher->Stats()) {
    MetricLabels l = {{"sink", s.name}};
    m.Counter("diskpulse_notifications_sent_total",
              "Notifications delivered by each sink since diskpulsed started.",
              static_cast<double>(s.sent), l);
    m.Counter("diskpulse_notifications_failed_total",
              "Notifications a sink gave up on after its last retry, since diskpulsed started.",
              static_cast<double>(s.failed), l);
    m.Counter("diskpulse_notifications_dropped_total",
              "Notifications pushed out of a full queue, since diskpulsed started.",
              static_cast<double>(s.dropped), l);
    m.Gauge("diskpulse_notifications_queued", "Notifications waiting to be sent by each sink.",
            static_cast<double>(s.queued), l);
  }
}

// The database part of one scrape. Every query goes through Ok(): after the
// first failure the rest is skipped, so a locked database costs one busy
// timeout, not one per query.
class DbScrape {
 public:
  DbScrape(MetricsText& m, const ApiContext& ctx) : m_(m), ctx_(ctx), store_(*ctx.store) {}

  void Collect() {
    auto drives = store_.ListDrives();
    if (!Ok(drives)) return;
    AppendFleet(*drives);
    AppendAlerts(*drives);
    if (up_) AppendRuns();
    for (const Drive& d : *drives) {
      if (!up_) break;
      AppendDrive(d);
    }
  }
  bool up() const { return up_; }

 private:
  template <typename T>
  bool Ok(const Result<T>& r) {
    if (!r.ok()) up_ = false;
    return r.ok();
  }

  void AppendFleet(const std::vector<Drive>& drives) {
    int present = 0, missing = 0;
    for (const Drive& d : drives) (d.present ? present : missing)++;
    m_.Gauge("diskpulse_drives", "Drives known to diskpulse, by presence.", present,
             {{"state", "present"}});
    m_.Gauge("diskpulse_drives", "Drives known to diskpulse, by presence.", missing,
             {{"state", "missing"}});
  }

  // Alerts are never deleted, so the count of every alert ever opened is a
  // counter that survives restarts. Every active alert is also one series of
  // its own (diskpulse_alert), whatever it is about, with its standing: the
  // page, MQTT and the notifications render the same value (model/alert.h),
  // so Alertmanager fires on what the owner was told of and sees watches by
  // their `state`. The per-drive counts hold told alerts only.
  void AppendAlerts(const std::vector<Drive>& drives) {
    auto all = store_.ListAlerts(AlertFilter{"", "", 0});
    if (!Ok(all)) return;
    std::map<std::string, int> opened;
    std::map<std::pair<std::string, std::string>, int> active_by;  // (severity, state)
    for (const char* severity : {"info", "warning", "critical"})
      for (AlertStanding s : {AlertStanding::kWatching, AlertStanding::kNotified,
                              AlertStanding::kAcknowledged, AlertStanding::kMuted})
        active_by[{severity, std::string(StandingName(s))}] = 0;
    for (ConditionKind kind : kConditionKinds) opened[std::string(ConditionKindName(kind))] = 0;
    for (const Drive& d : drives)
      for (ConditionKind kind : kConditionKinds)
        active_[{d.id, std::string(ConditionKindName(kind))}] = 0;
    for (const Alert& a : *all) {
      opened[KindOf(a.condition)]++;
      if (a.state == "resolved") continue;
      const AlertStanding standing = StandingIn(ctx_, a);
      active_by[{a.severity, std::string(StandingName(standing))}]++;
      if (!a.drive_id.empty() && Alarming(standing)) active_[{a.drive_id, KindOf(a.condition)}]++;
      AppendAlert(a, standing);
    }
    for (const auto& [kind, n] : opened)
      m_.Counter("diskpulse_alerts_opened_total", "Alerts ever opened, by kind of condition.", n,
                 {{"kind", kind}});
    for (const auto& [key, n] : active_by)
      m_.Gauge("diskpulse_alerts_active",
               "Open or acknowledged alerts, by severity and standing (watching: opened, not "
               "told; notified; acknowledged; muted).",
               n, {{"severity", key.first}, {"state", key.second}});
  }

  // One active alert: 1, labelled with what it is about. A box event is
  // placed by its worst member (the evidence is that member's verdict).
  void AppendAlert(const Alert& a, AlertStanding standing) {
    ConditionPlace place = ConditionPlaceOf(a.condition);
    if (place.vdev.empty() && ConditionKindOf(a.condition) == ConditionKind::kEnvironment) {
      const auto evidence = nlohmann::json::parse(a.evidence_json, nullptr, false);
      if (evidence.is_object() && evidence.value("condition", "").size() > 0)
        place = ConditionPlaceOf(evidence.value("condition", ""));
    }
    m_.Gauge("diskpulse_alert",
             "Each open or acknowledged alert (value is always 1): its kind, condition, "
             "severity, standing (state), and the drive, pool or vdev it is about (\"\" where "
             "none).",
             1,
             {{"kind", KindOf(a.condition)},
              {"condition", a.condition},
              {"severity", a.severity},
              {"state", std::string(StandingName(standing))},
              {"drive", a.drive_id},
              {"pool", place.pool},
              {"vdev", place.vdev}});
  }

  // Runs are kept for good: finished runs by outcome are counters.
  void AppendRuns() {
    RunFilter all;
    all.limit = 0;
    auto runs = store_.ListRuns(all);
    if (!Ok(runs)) return;
    std::map<RunOutcome, int> n;
    for (RunOutcome o : {RunOutcome::kQueued, RunOutcome::kRunning, RunOutcome::kOk,
                         RunOutcome::kFailed, RunOutcome::kDeferred, RunOutcome::kSkipped,
                         RunOutcome::kCancelled})
      n[o] = 0;
    for (const dp::Run& r : *runs) n[r.outcome]++;
    for (const auto& [outcome, count] : n) {
      MetricLabels l = {{"outcome", std::string(RunOutcomeName(outcome))}};
      if (outcome == RunOutcome::kQueued || outcome == RunOutcome::kRunning)
        m_.Gauge("diskpulse_runs", "Runs waiting or in progress now.", count,
                 {{"state", std::string(RunOutcomeName(outcome))}});
      else
        m_.Counter("diskpulse_runs_total", "Finished runs, by outcome.", count, l);
    }
  }

  void AppendDrive(const Drive& d) {
    const MetricLabels id = {{"drive", d.id}};
    m_.Gauge("diskpulse_drive_info",
             "Identity of each drive (value is always 1); join on drive for names.", 1,
             {{"drive", d.id},
              {"name", d.name},
              {"dev_path", d.dev_path},
              {"model", d.model},
              {"serial", d.serial},
              {"firmware", d.firmware},
              {"transport", d.transport}});
    m_.Gauge("diskpulse_drive_present", "1 if the drive was seen by the last discovery.",
             d.present ? 1 : 0, id);
    if (d.size_bytes > 0)
      m_.Gauge("diskpulse_drive_size_bytes", "Capacity of the drive.",
               static_cast<double>(d.size_bytes), id);
    if (d.last_seen > 0)
      m_.Gauge("diskpulse_drive_last_seen_timestamp_seconds",
               "When discovery last saw the drive, in unix seconds.",
               static_cast<double>(d.last_seen), id);
    for (ConditionKind k : kConditionKinds) {
      const std::string kind(ConditionKindName(k));
      m_.Gauge("diskpulse_drive_alerts_active",
               "Alerts of the drive its owner was told of (notified or acknowledged), by kind of "
               "condition; watches and muted alerts are in diskpulse_alert.",
               active_[{d.id, kind}], {{"drive", d.id}, {"kind", kind}});
    }
    AppendSmart(d);
    if (up_) AppendZfs(d);
    for (const std::string& test : DriveTests()) {
      if (!up_) return;
      AppendTest(d, test);
    }
  }

  // ZFS's newest sampling of the drive as a pool member (watch/zfs_latency_sampler.h).
  void AppendZfs(const Drive& d) {
    auto newest = store_.ZfsLatencyOfDrive(d.id, 1);
    if (!Ok(newest) || newest->empty()) return;
    const ZfsLatencySample& s = newest->front();
    const MetricLabels id = {{"drive", d.id}};
    m_.Gauge("diskpulse_drive_zfs_sample_timestamp_seconds",
             "When ZFS's latency and slow I/O counts of the member were last sampled.",
             static_cast<double>(s.at), id);
    if (auto wait = detect::ZfsDiskWait(s))
      m_.Gauge("diskpulse_drive_zfs_disk_wait_seconds",
               "Average disk wait of the member over ZFS's last 5 s sampling (zpool iostat -l "
               "disk_wait, reads and writes weighted by their operations).",
               *wait, id);
    if (s.slow_ios)
      m_.Gauge("diskpulse_drive_zfs_slow_ios",
               "ZFS's count of the member's I/Os over zio_slow_io_ms since import or zpool clear "
               "(zpool status -s SLOW).",
               static_cast<double>(*s.slow_ios), id);
    if (s.sit_out)
      m_.Gauge("diskpulse_drive_zfs_sit_out",
               "1 while OpenZFS (2.4+) sits the raidz/draid member out of reads as a slow outlier "
               "among its siblings (vdev property sit_out), else 0.",
               *s.sit_out ? 1.0 : 0.0, id);
    if (s.disk_wait_histogram) {
      if (auto p99 = ZfsHistogramQuantile(s.disk_wait_histogram->read, 0.99))
        m_.Gauge("diskpulse_drive_zfs_disk_wait_read_p99_seconds",
                 "99th percentile of the member's read disk waits since ZFS's previous sampling "
                 "(zpool iostat -w; the upper bound of its power-of-two bucket).",
                 *p99, id);
    }
  }

  void AppendSmart(const Drive& d) {
    auto newest = store_.SmartHistory(d.id, 0, 1);
    if (!Ok(newest) || newest->empty()) return;
    const auto& [at, s] = newest->front();
    const MetricLabels id = {{"drive", d.id}};
    auto gauge = [&](const char* name, const char* help, auto value, double scale = 1) {
      if (value) m_.Gauge(name, help, static_cast<double>(*value) * scale, id);
    };
    m_.Gauge("diskpulse_drive_smart_timestamp_seconds",
             "When the newest SMART snapshot was taken, in unix seconds.",
             static_cast<double>(at), id);
    if (s.health_passed)
      m_.Gauge("diskpulse_drive_smart_healthy", "1 if SMART overall health passed, 0 if failed.",
               *s.health_passed ? 1 : 0, id);
    gauge("diskpulse_drive_temperature_celsius", "Temperature in the newest SMART snapshot.",
          s.temperature_c);
    gauge("diskpulse_drive_power_on_seconds", "Power-on time SMART reports (hours x 3600).",
          s.power_on_hours, 3600);
    gauge("diskpulse_drive_power_cycles", "Power cycles SMART reports.", s.power_cycles);
    gauge("diskpulse_drive_reallocated_sectors",
          "Reallocated sectors (ATA 5; SCSI grown defect list).", s.reallocated_sectors);
    gauge("diskpulse_drive_pending_sectors", "Current pending sectors (ATA 197).",
          s.pending_sectors);
    gauge("diskpulse_drive_offline_uncorrectable_sectors", "Offline uncorrectable sectors (ATA 198).",
          s.offline_uncorrectable);
    gauge("diskpulse_drive_reported_uncorrectable_errors", "Reported uncorrectable errors (ATA 187).",
          s.reported_uncorrectable);
    gauge("diskpulse_drive_command_timeouts", "Command timeouts (ATA 188).", s.command_timeouts);
    gauge("diskpulse_drive_crc_errors", "Interface CRC errors (ATA 199, UDMA CRC error count).",
          s.udma_crc_errors);
    if (s.nvme) {
      const NvmeHealth& n = *s.nvme;
      gauge("diskpulse_drive_nvme_percentage_used_ratio",
            "NVMe Percentage Used / 100: share of rated endurance used (may exceed 1).",
            n.percentage_used, 0.01);
      gauge("diskpulse_drive_nvme_available_spare_ratio", "NVMe Available Spare / 100.",
            n.available_spare, 0.01);
      gauge("diskpulse_drive_nvme_available_spare_threshold_ratio",
            "NVMe Available Spare Threshold / 100.", n.available_spare_threshold, 0.01);
      gauge("diskpulse_drive_media_errors", "NVMe Media and Data Integrity Errors.",
            n.media_errors);
      gauge("diskpulse_drive_nvme_critical_warning", "NVMe Critical Warning bits (0 = none).",
            n.critical_warning);
    }
  }

  void AppendTest(const Drive& d, const std::string& test) {
    RunFilter rf;
    rf.drive_id = d.id;
    rf.test = test;
    rf.outcome = RunOutcome::kOk;
    rf.limit = 1;
    auto runs = store_.ListRuns(rf);
    if (!Ok(runs) || runs->empty()) return;
    const dp::Run& run = runs->front();
    m_.Gauge("diskpulse_drive_last_run_timestamp_seconds",
             "Start of the newest successful run of each test, in unix seconds.",
             static_cast<double>(run.started_at), {{"drive", d.id}, {"test", test}});
    if (!IsJudgedTest(test)) return;
    auto points = store_.RunPoints(run.id);
    if (!Ok(points)) return;
    // The members of the test's joint series (detect/series.h) and their
    // newest figures, for the combined series' own baseline.
    std::vector<detect::SeriesSpec> specs;
    std::vector<std::optional<double>> newest;
    bool whole = true;
    for (const BenchPoint& p : *points) {
      if (p.test != test) continue;
      MetricLabels l = {{"drive", d.id}, {"test", test}, {"series", detect::SeriesName(p)}};
      for (const Figure& f : kFigures)
        if (auto v = detect::FigureOf(p, f.metric))
          m_.Gauge(std::string("diskpulse_drive_") + f.name,
                   std::string(f.help) + " in the newest successful run of the test.",
                   *v * f.scale, l);
      if (p.contended || p.partial) {  // never judged, so no ratio either
        whole = false;
        continue;
      }
      for (detect::SeriesSpec& spec : detect::SeriesOf(d.id, d.name, p)) {
        newest.push_back(detect::FigureOf(p, spec.key.metric));
        specs.push_back(std::move(spec));
      }
    }
    if (!up_) return;
    StoreSeriesHistory history(store_);
    auto bands = detect::SeriesBands(history, d.id, test, specs, ctx_.detection);
    if (!Ok(bands)) return;
    for (std::size_t i = 0; i < specs.size(); ++i)
      AppendBaseline(specs[i].key, bands->series[i].baseline, bands->series[i].band, newest[i]);
    if (whole && bands->joint) {
      const detect::SeriesKey key{d.id, d.name, test, detect::kJointSeries, "mb_per_s"};
      const std::vector<detect::Sample>& combined = bands->joint->samples;
      std::optional<double> joint_newest;  // the newest run's combined figure
      if (!combined.empty() && combined.back().run_id == run.id)
        joint_newest = combined.back().value;
      AppendBaseline(key, bands->joint->baseline, bands->joint->band, joint_newest);
    }
  }

  // The series' baseline and band as the judge forms them.
  void AppendBaseline(const detect::SeriesKey& key, const detect::Baseline& b,
                      const detect::Band& band, std::optional<double> newest) {
    if (b.runs == 0) return;
    const std::string& metric = key.metric;
    MetricLabels l = {
        {"drive", key.drive_id}, {"test", key.test}, {"series", key.series}, {"metric", metric}};
    m_.Gauge("diskpulse_drive_baseline_ready",
             "1 once the series' baseline has its wanted number of good runs.", b.ready ? 1 : 0,
             l);
    m_.Gauge("diskpulse_drive_baseline_runs", "Good runs in the series' baseline.", b.runs, l);
    if (const Figure* f = FigureOf(metric)) {
      MetricLabels fl(l.begin(), l.end() - 1);  // the unit is in the name
      m_.Gauge(std::string("diskpulse_drive_baseline_") + f->name,
               std::string(f->help) + ": the series' baseline median.", b.median * f->scale, fl);
      m_.Gauge(std::string("diskpulse_drive_baseline_low_") + f->name,
               std::string(f->help) + ": lower edge of the series' single-run band.",
               band.low * f->scale, fl);
      m_.Gauge(std::string("diskpulse_drive_baseline_high_") + f->name,
               std::string(f->help) + ": upper edge of the series' single-run band.",
               band.high * f->scale, fl);
    }
    if (newest && b.median > 0)
      m_.Gauge("diskpulse_drive_baseline_ratio",
               "Newest successful figure / baseline median (1 = at baseline; below 1 is worse "
               "for throughput, above 1 worse for latency and access time).",
               *newest / b.median, l);
  }

  MetricsText& m_;
  const ApiContext& ctx_;
  Store& store_;
  bool up_ = true;
  std::map<std::pair<std::string, std::string>, int> active_;  // (drive, kind) -> open
};

}  // namespace

void AddMetricsResource(Router& router, const ApiContext& ctx) {
  router.Get("/metrics", [ctx](const Request&, const PathParams&) {
    MetricsText m;
    AppendProcessMetrics(m, ctx);
    AppendNotificationMetrics(m, ctx);
    DbScrape db(m, ctx);
    db.Collect();
    m.Gauge("diskpulse_db_up", "1 if the database answered every query of this scrape, else 0.",
            db.up() ? 1 : 0);
    Response r;
    r.content_type = std::string(MetricsText::kContentType);
    r.body = m.text();
    r.SetHeader("Cache-Control", "no-store");
    return r;
  }, Access::kMetrics);
}

}  // namespace dp::http
