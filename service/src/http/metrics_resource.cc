// GET /metrics: Prometheus text. Later issues add per-drive gauges here
// (one Append* function per subject).
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

}  // namespace

void AddMetricsResource(Router& router, const ApiContext& ctx) {
  router.Get("/metrics", [ctx](const Request&, const PathParams&) {
    MetricsText m;
    AppendProcessMetrics(m, ctx);
    AppendDriveMetrics(m, ctx);
    Response r;
    r.content_type = std::string(MetricsText::kContentType);
    r.body = m.text();
    r.SetHeader("Cache-Control", "no-store");
    return r;
  });
}

}  // namespace dp::http
