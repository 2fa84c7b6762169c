// GET /metrics: Prometheus text (one Append* function per subject):
// process, drive counts, per-drive latest figures of each read test (from
// the newest ok run of that test), open alerts, SMART temperature and
// defect counters. Per-drive series carry labels drive (the stable id) and
// name (sda, ...).
#include <map>

#include "base/clock.h"
#include "http/api.h"
#include "http/metrics_text.h"
#include "store/store.h"

namespace dp::http {
namespace {

void AppendProcessMetrics(MetricsText& m, const ApiContext& ctx) {
  m.Gauge("diskpulse_up", "1 while diskpulsed is serving.", 1);
  m.Gauge("diskpulse_build_info", "Version of the running diskpulsed (value is always 1).", 1,
          {{"version", ctx.version}});
  m.Gauge("diskpulse_start_time_seconds", "When diskpulsed started, in unix seconds.",
          static_cast<double>(ToUnixSeconds(ctx.started_at)));
}

void AppendDriveMetrics(MetricsText& m, const ApiContext& ctx) {
  auto drives = ctx.store->ListDrives();
  m.Gauge("diskpulse_db_up", "1 if the database answered this scrape, else 0.",
          drives.ok() ? 1 : 0);
  if (!drives.ok()) return;
  int present = 0, missing = 0;
  for (const Drive& d : *drives) (d.present ? present : missing)++;
  m.Gauge("diskpulse_drives", "Drives known to diskpulse, by presence.", present,
          {{"state", "present"}});
  m.Gauge("diskpulse_drives", "Drives known to diskpulse, by presence.", missing,
          {{"state", "missing"}});
}

// Samples grouped per family, so each family's samples are written together.
class Families {
 public:
  void Add(const std::string& name, const std::string& help, double value, MetricLabels labels) {
    if (!samples_.count(name)) order_.push_back(name);
    help_[name] = help;
    samples_[name].emplace_back(std::move(labels), value);
  }
  void WriteTo(MetricsText& m) const {
    for (const std::string& name : order_)
      for (const auto& [labels, value] : samples_.at(name))
        m.Gauge(name, help_.at(name), value, labels);
  }

 private:
  std::vector<std::string> order_;
  std::map<std::string, std::string> help_;
  std::map<std::string, std::vector<std::pair<MetricLabels, double>>> samples_;
};

std::string SeriesOf(const BenchPoint& p) {
  std::string s;
  auto add = [&](const std::string& part) {
    if (part.empty()) return;
    if (!s.empty()) s += " ";
    s += part;
  };
  add(p.zone.value_or(""));
  add(p.stroke.value_or(""));
  add(p.variant.value_or(""));
  if (p.queue_depth) add("qd" + std::to_string(p.queue_depth));
  if (p.block_size)
    add(p.block_size % 1048576 == 0 ? std::to_string(p.block_size / 1048576) + "m"
                                    : std::to_string(p.block_size / 1024) + "k");
  return s;
}

void AppendPerDriveMetrics(MetricsText& m, const ApiContext& ctx) {
  auto drives = ctx.store->ListDrives();
  if (!drives.ok()) return;
  Families f;
  auto alerts = ctx.store->ListAlerts(AlertFilter{"active", "", 0});
  std::map<std::string, int> open_by_drive;
  std::map<std::string, int> open_by_severity = {{"info", 0}, {"warning", 0}, {"critical", 0}};
  if (alerts.ok())
    for (const Alert& a : *alerts) {
      open_by_drive[a.drive_id]++;
      open_by_severity[a.severity]++;
    }
  for (const auto& [severity, n] : open_by_severity)
    f.Add("diskpulse_alerts_active", "Open or acknowledged alerts, by severity.", n,
          {{"severity", severity}});
  for (const Drive& d : *drives) {
    MetricLabels id = {{"drive", d.id}, {"name", d.name}};
    f.Add("diskpulse_drive_present", "1 if the drive was seen by the last discovery.",
          d.present ? 1 : 0, id);
    f.Add("diskpulse_drive_alerts_active", "Open or acknowledged alerts of the drive.",
          open_by_drive[d.id], id);
    if (auto smart = ctx.store->LatestSmart(d.id); smart.ok() && *smart) {
      const SmartSnapshot& s = **smart;
      if (s.temperature_c)
        f.Add("diskpulse_drive_temperature_celsius", "Temperature in the latest SMART snapshot.",
              *s.temperature_c, id);
      if (s.health_passed)
        f.Add("diskpulse_drive_smart_health_passed", "1 if SMART overall health passed.",
              *s.health_passed ? 1 : 0, id);
      if (s.reallocated_sectors)
        f.Add("diskpulse_drive_reallocated_sectors", "Reallocated sectors (ATA 5).",
              static_cast<double>(*s.reallocated_sectors), id);
      if (s.pending_sectors)
        f.Add("diskpulse_drive_pending_sectors", "Current pending sectors (ATA 197).",
              static_cast<double>(*s.pending_sectors), id);
    }
    for (const char* test : {"seq", "zones", "sweep", "random", "seek"}) {
      RunFilter rf;
      rf.drive_id = d.id;
      rf.test = test;
      rf.outcome = RunOutcome::kOk;
      rf.limit = 1;
      auto runs = ctx.store->ListRuns(rf);
      if (!runs.ok() || runs->empty()) continue;
      const Run& run = runs->front();
      f.Add("diskpulse_drive_last_run_timestamp_seconds",
            "Start of the newest successful run of each test.", static_cast<double>(run.started_at),
            {{"drive", d.id}, {"name", d.name}, {"test", test}});
      auto points = ctx.store->RunPoints(run.id);
      if (!points.ok()) continue;
      for (const BenchPoint& p : *points) {
        MetricLabels l = {{"drive", d.id}, {"name", d.name}, {"test", test},
                          {"series", SeriesOf(p)}};
        if (p.mb_per_s > 0)
          f.Add("diskpulse_drive_read_mb_per_second",
                "Read throughput (10^6 bytes/s) in the newest successful run.", p.mb_per_s, l);
        if (p.iops > 0)
          f.Add("diskpulse_drive_read_iops", "Read IOPS in the newest successful run.", p.iops, l);
        if (p.access_ms)
          f.Add("diskpulse_drive_access_time_seconds",
                "Mean access time in the newest successful seek run.", *p.access_ms / 1000.0, l);
        if (p.latency)
          f.Add("diskpulse_drive_read_latency_p99_seconds",
                "99th percentile read latency in the newest successful run.",
                p.latency->p99_us / 1e6, l);
      }
    }
  }
  f.WriteTo(m);
}

}  // namespace

void AddMetricsResource(Router& router, const ApiContext& ctx) {
  router.Get("/metrics", [ctx](const Request&, const PathParams&) {
    MetricsText m;
    AppendProcessMetrics(m, ctx);
    AppendDriveMetrics(m, ctx);
    AppendPerDriveMetrics(m, ctx);
    Response r;
    r.content_type = std::string(MetricsText::kContentType);
    r.body = m.text();
    r.SetHeader("Cache-Control", "no-store");
    return r;
  });
}

}  // namespace dp::http
