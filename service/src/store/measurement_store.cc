// Store: bench points, measurements, latency histograms and history queries.
#include <algorithm>

#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {
namespace {

struct Metric {
  const char* name;
  const char* unit;
  double value;
};

// The figures of one point that become measurement rows.
std::vector<Metric> MetricsOf(const BenchPoint& p) {
  std::vector<Metric> m;
  if (p.mb_per_s > 0) m.push_back({"mb_per_s", "MB/s", p.mb_per_s});
  if (p.iops > 0) m.push_back({"iops", "IOPS", p.iops});
  if (p.access_ms) m.push_back({"access_ms", "ms", *p.access_ms});
  if (p.latency) {
    const LatencySummary& l = *p.latency;
    m.push_back({"p50_us", "us", l.p50_us});
    m.push_back({"p90_us", "us", l.p90_us});
    m.push_back({"p99_us", "us", l.p99_us});
    m.push_back({"p999_us", "us", l.p999_us});
    m.push_back({"max_us", "us", l.max_us});
    m.push_back({"mean_us", "us", l.mean_us});
  }
  return m;
}

// Puts a stored metric back into its point; names this binary does not know are skipped.
void ApplyMetric(BenchPoint& p, const std::string& name, double v) {
  auto lat = [&p]() -> LatencySummary& {
    if (!p.latency) p.latency = LatencySummary{};
    return *p.latency;
  };
  if (name == "mb_per_s")
    p.mb_per_s = v;
  else if (name == "iops")
    p.iops = v;
  else if (name == "access_ms")
    p.access_ms = v;
  else if (name == "p50_us")
    lat().p50_us = v;
  else if (name == "p90_us")
    lat().p90_us = v;
  else if (name == "p99_us")
    lat().p99_us = v;
  else if (name == "p999_us")
    lat().p999_us = v;
  else if (name == "max_us")
    lat().max_us = v;
  else if (name == "mean_us")
    lat().mean_us = v;
}

}  // namespace

Status Store::AddMeasurements(std::int64_t run_id, const std::vector<BenchPoint>& points) {
  WatchedLock lock(mu_);
  Transaction tx(*db_);
  DP_RETURN_IF_ERROR(tx.status());

  std::optional<std::string> drive_id;
  std::int64_t at = 0;
  bool run_contended = false, run_partial = false;
  {
    DP_ASSIGN_OR_RETURN(
        Statement st,
        db_->Prepare("SELECT drive_id, started_at, contended, partial FROM runs WHERE id = ?1"));
    st.Bind(1, run_id);
    DP_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) return NotFound("run " + std::to_string(run_id) + " not found");
    drive_id = st.OptText(0);
    at = st.Int(1);
    run_contended = st.Int(2) != 0;
    run_partial = st.Int(3) != 0;
  }
  std::int64_t seq = 0;
  {
    DP_ASSIGN_OR_RETURN(
        Statement st,
        db_->Prepare("SELECT ifnull(max(seq) + 1, 0) FROM bench_points WHERE run_id = ?1"));
    st.Bind(1, run_id);
    DP_ASSIGN_OR_RETURN(bool row, st.Step());
    if (row) seq = st.Int(0);
  }

  for (const BenchPoint& p : points) {
    if (p.test.empty()) return InvalidArgument("AddMeasurements: a point has no test");
    std::int64_t point_id = 0;
    {
      DP_ASSIGN_OR_RETURN(
          Statement st,
          db_->Prepare("INSERT INTO bench_points (run_id, seq, test, zone, stroke, variant, "
                       "  block_size, queue_depth, bytes, seconds, contended, foreign_share, "
                       "  partial, unwritten, unwritten_reason, jobs) "
                       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
                       "  ?16)"));
      st.Bind(1, run_id)
          .Bind(2, seq++)
          .Bind(3, p.test)
          .Bind(4, p.zone)
          .Bind(5, p.stroke)
          .Bind(6, p.variant)
          .Bind(7, p.block_size)
          .Bind(8, p.queue_depth)
          .Bind(9, p.bytes)
          .Bind(10, p.seconds)
          .Bind(11, p.contended)
          .Bind(12, p.foreign_share)
          .Bind(13, p.partial)
          .Bind(14, p.unwritten)
          .Bind(15, p.unwritten_reason)
          .Bind(16, p.jobs);
      DP_RETURN_IF_ERROR(st.Run());
      point_id = db_->LastInsertId();
    }
    for (const Metric& m : MetricsOf(p)) {
      DP_ASSIGN_OR_RETURN(
          Statement st,
          db_->Prepare("INSERT INTO measurements (point_id, run_id, drive_id, at, test, metric, "
                       "  unit, zone, stroke, variant, block_size, queue_depth, value, "
                       "  contended, partial, unwritten) "
                       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
                       "  ?15, ?16)"));
      st.Bind(1, point_id)
          .Bind(2, run_id)
          .Bind(3, drive_id)
          .Bind(4, at)
          .Bind(5, p.test)
          .Bind(6, m.name)
          .Bind(7, m.unit)
          .Bind(8, p.zone)
          .Bind(9, p.stroke)
          .Bind(10, p.variant)
          .Bind(11, p.block_size)
          .Bind(12, p.queue_depth)
          .Bind(13, m.value)
          .Bind(14, p.contended || run_contended)
          .Bind(15, p.partial || run_partial)
          .Bind(16, p.unwritten);
      DP_RETURN_IF_ERROR(st.Run());
    }
    if (!p.histogram.empty()) {
      DP_ASSIGN_OR_RETURN(
          Statement st,
          db_->Prepare("INSERT INTO latency_histograms (point_id, data) VALUES (?1, ?2)"));
      st.Bind(1, point_id).BindBlob(2, p.histogram);
      DP_RETURN_IF_ERROR(st.Run());
    }
  }
  return tx.Commit();
}

Result<std::vector<BenchPoint>> Store::RunPoints(std::int64_t run_id) {
  WatchedLock lock(mu_);
  std::vector<BenchPoint> points;
  std::vector<std::int64_t> ids;
  {
    DP_ASSIGN_OR_RETURN(
        Statement st,
        db_->Prepare("SELECT bench_points.id, test, zone, stroke, variant, block_size, "
                     "  queue_depth, bytes, seconds, contended, foreign_share, partial, "
                     "  latency_histograms.data, unwritten, unwritten_reason, jobs "
                     "FROM bench_points LEFT JOIN latency_histograms "
                     "  ON latency_histograms.point_id = bench_points.id "
                     "WHERE run_id = ?1 ORDER BY seq"));
    st.Bind(1, run_id);
    DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) {
      BenchPoint p;
      ids.push_back(row.Int(0));
      p.test = row.Text(1);
      p.zone = row.OptText(2);
      p.stroke = row.OptText(3);
      p.variant = row.OptText(4);
      p.block_size = static_cast<std::uint32_t>(row.Int(5));
      p.queue_depth = static_cast<std::uint32_t>(row.Int(6));
      p.bytes = static_cast<std::uint64_t>(row.Int(7));
      p.seconds = row.Double(8);
      p.contended = row.Int(9) != 0;
      p.foreign_share = row.Double(10);
      p.partial = row.Int(11) != 0;
      p.histogram = row.Blob(12);
      p.unwritten = row.Int(13) != 0;
      p.unwritten_reason = row.Text(14);
      p.jobs = static_cast<std::uint32_t>(row.Int(15));
      points.push_back(std::move(p));
    }));
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare("SELECT metric, value FROM measurements "
                                                   "WHERE point_id = ?1 ORDER BY id"));
    st.Bind(1, ids[i]);
    DP_RETURN_IF_ERROR(st.ForEachRow(
        [&](const Statement& row) { ApplyMetric(points[i], row.Text(0), row.Double(1)); }));
  }
  return points;
}

namespace {

// A sample from columns run_id, at, value, contended, partial, zone, stroke,
// variant, block_size, queue_depth, unwritten, interfered (0..11) of
// measurements.
MeasurementSample SampleOfRow(const Statement& row) {
  MeasurementSample s;
  s.run_id = row.Int(0);
  s.at = row.Int(1);
  s.value = row.Double(2);
  s.contended = row.Int(3) != 0;
  s.partial = row.Int(4) != 0;
  s.zone = row.Text(5);
  s.stroke = row.Text(6);
  s.variant = row.Text(7);
  s.block_size = static_cast<std::uint32_t>(row.Int(8));
  s.queue_depth = static_cast<std::uint32_t>(row.Int(9));
  s.unwritten = row.Int(10) != 0;
  s.interfered = row.Int(11) != 0;
  return s;
}

}  // namespace

Result<std::vector<MeasurementSample>> Store::History(const HistoryQuery& q) {
  if (q.drive_id.empty() || q.test.empty() || q.metric.empty())
    return InvalidArgument("History: drive_id, test and metric are required");
  WatchedLock lock(mu_);
  // One range scan of measurements_history (drive_id, test, metric, at, ...),
  // which holds every column read here, so no table row is fetched per
  // sample; newest first so LIMIT keeps the most recent samples (or oldest
  // first, for the oldest).
  const std::string sql =
      "SELECT run_id, at, value, contended, partial, zone, stroke, variant, "
      "  block_size, queue_depth, unwritten, interfered FROM measurements "
      "WHERE drive_id = ?1 AND test = ?2 AND metric = ?3 AND at >= ?4 "
      "  AND (?5 = '' OR zone = ?5) AND (?6 = '' OR stroke = ?6) "
      "  AND (?7 = '' OR variant = ?7) AND (?8 = 0 OR block_size = ?8) "
      "  AND (?9 = 0 OR queue_depth = ?9) " +
      std::string(q.oldest ? "ORDER BY at ASC, id ASC" : "ORDER BY at DESC, id DESC") +
      " LIMIT ?10";
  DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare(sql));
  st.Bind(1, q.drive_id)
      .Bind(2, q.test)
      .Bind(3, q.metric)
      .Bind(4, q.since)
      .Bind(5, q.zone)
      .Bind(6, q.stroke)
      .Bind(7, q.variant)
      .Bind(8, q.block_size)
      .Bind(9, q.queue_depth)
      .Bind(10, q.limit > 0 ? q.limit : -1);
  std::vector<MeasurementSample> out;
  DP_RETURN_IF_ERROR(
      st.ForEachRow([&](const Statement& row) { out.push_back(SampleOfRow(row)); }));
  if (!q.oldest) std::reverse(out.begin(), out.end());
  return out;
}

Status Store::MarkInterference(std::int64_t run_id) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st,
                      db_->Prepare("UPDATE measurements SET interfered = 1 WHERE run_id = ?1"));
  st.Bind(1, run_id);
  DP_RETURN_IF_ERROR(st.Run());
  if (db_->Changes() == 0)
    return NotFound("run " + std::to_string(run_id) + " has no stored figures");
  return Status::Ok();
}

Status Store::MarkPeerJudged(std::int64_t run_id) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st,
                      db_->Prepare("INSERT OR IGNORE INTO peer_judged (run_id) VALUES (?1)"));
  st.Bind(1, run_id);
  return st.Run();
}

Result<bool> Store::PeerJudged(std::int64_t run_id) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare("SELECT 1 FROM peer_judged WHERE run_id = ?1"));
  st.Bind(1, run_id);
  bool found = false;
  DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement&) { found = true; }));
  return found;
}

Result<std::set<std::int64_t>> Store::PeerJudgedSince(const std::string& drive_id,
                                                      std::int64_t since) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st,
                      db_->Prepare("SELECT p.run_id FROM peer_judged p JOIN runs r ON r.id = p.run_id "
                                   "WHERE r.drive_id = ?1 AND r.started_at >= ?2"));
  st.Bind(1, drive_id);
  st.Bind(2, since);
  std::set<std::int64_t> out;
  DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) { out.insert(row.Int(0)); }));
  return out;
}

Result<std::vector<DriveMeasurement>> Store::DriveMeasurements(const std::string& drive_id) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(
      Statement st,
      db_->Prepare("SELECT run_id, at, value, contended, partial, zone, stroke, variant, "
                   "  block_size, queue_depth, unwritten, interfered, test, metric, unit FROM measurements "
                   "WHERE drive_id = ?1 ORDER BY at, id"));
  st.Bind(1, drive_id);
  std::vector<DriveMeasurement> out;
  DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) {
    DriveMeasurement m;
    m.sample = SampleOfRow(row);
    m.test = row.Text(12);
    m.metric = row.Text(13);
    m.unit = row.Text(14);
    out.push_back(std::move(m));
  }));
  return out;
}

}  // namespace dp
