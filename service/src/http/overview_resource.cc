// GET /api/v1/overview: the first screen of the page in one answer.
//   {"at": now, "drives": [...worst first...], "pools": PoolMapToJson,
//    "alerts": {"open", "acknowledged"}}
// Each drive: its identity (id, name, model, serial, dev_path, size_bytes,
// rotational, rotation_rpm, transport, present), "status" (failing |
// slowing | watch | missing | asleep | healthy) with "reason", the latest
// SMART figures ("temperature_c", "power_on_hours", "health_passed",
// "smart_at"), "pools" (pool, vdev, role, state of each membership), "read"
// (the newest good sample of its headline read series, seq or else zones,
// as "percent" of the detector's baseline median for that series, or null
// without runs), "trend" (that series' newest samples for a sparkline, as
// [at, value, flag] with flag 0 good, 1 contended, 2 partial) and
// "alerts" ({"open", "acknowledged", "kinds"}).
//
// The status is read from what detection stored, never judged again here,
// by each alert's standing (model/alert.h: what every surface shows), worst
// first: failing (an active critical alert, or SMART's own overall verdict
// FAILED), missing (a "missing" alert, or a drive not seen by discovery; its
// reason "retired DAY: WHY" once forgotten), slowing (a slowdown, trend or
// peer alert the owner was told of), warning (any other alert the owner was
// told of), watching (an alert opened but not told: below the bar for
// telling, or muted), asleep (the latest SMART read found it in standby),
// healthy.
#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>

#include "base/strings.h"
#include "detect/baseline.h"
#include "detect/judge.h"
#include "detect/sample.h"
#include "detect/series.h"
#include "http/api.h"
#include "http/pool_map_json.h"
#include "http/resource_json.h"
#include "model/condition.h"
#include "runs/store_series_history.h"
#include "store/store.h"

namespace dp::http {
namespace {

constexpr int kTrendSamples = 52;  // a year of weekly runs

// Worst first.
enum class Badge { kFailing, kMissing, kSlowing, kWarning, kWatching, kAsleep, kHealthy };

const char* BadgeName(Badge b) {
  switch (b) {
    case Badge::kFailing: return "failing";
    case Badge::kMissing: return "missing";
    case Badge::kSlowing: return "slowing";
    case Badge::kWarning: return "warning";
    case Badge::kWatching: return "watching";
    case Badge::kAsleep: return "asleep";
    case Badge::kHealthy: return "healthy";
  }
  return "healthy";
}

// "slowdown:seq:qd8-1m:mb_per_s" -> "slowdown".
std::string KindOf(const std::string& condition) {
  return std::string(ConditionKindName(ConditionKindOf(condition)));
}

bool IsSpeedKind(const std::string& kind) {
  return kind == "slowdown" || kind == "trend" || kind == "peer";
}

std::string SeriesNameOf(const std::string& test, const MeasurementSample& s) {
  BenchPoint p;
  p.test = test;
  if (!s.zone.empty()) p.zone = s.zone;
  if (!s.stroke.empty()) p.stroke = s.stroke;
  if (!s.variant.empty()) p.variant = s.variant;
  p.block_size = s.block_size;
  p.queue_depth = s.queue_depth;
  return detect::SeriesName(p);
}

bool SameSeries(const MeasurementSample& a, const MeasurementSample& b) {
  return a.zone == b.zone && a.stroke == b.stroke && a.variant == b.variant &&
         a.block_size == b.block_size && a.queue_depth == b.queue_depth;
}

// 1764460800 -> "2025-11-30" (UTC).
std::string UtcDay(std::int64_t unix_seconds) {
  return FormatUtcTime(static_cast<std::time_t>(unix_seconds), "%Y-%m-%d");
}

struct Row {
  Badge badge;
  double percent;  // of baseline; rows without one sort after
  std::string name;
  nlohmann::json json;
};

// The headline read figure and its trend: {"read": ..., "trend": [...]}.
Result<std::pair<nlohmann::json, nlohmann::json>> ReadFigure(const ApiContext& ctx,
                                                             const std::string& drive_id) {
  nlohmann::json trend = nlohmann::json::array();
  for (const char* test : {"seq", "zones"}) {
    HistoryQuery q;
    q.drive_id = drive_id;
    q.test = test;
    q.metric = "mb_per_s";
    q.limit = kTrendSamples * 3;  // zones has three series per run
    DP_ASSIGN_OR_RETURN(std::vector<MeasurementSample> samples, ctx.store->History(q));
    if (samples.empty()) continue;
    // The series of the newest good sample (the outer zone for zones).
    const MeasurementSample* head = nullptr;
    for (auto it = samples.rbegin(); it != samples.rend() && !head; ++it)
      if (!it->contended && !it->partial) head = &*it;
    if (!head) head = &samples.back();
    if (std::string(test) == "zones") {
      for (auto it = samples.rbegin(); it != samples.rend(); ++it)
        if (it->run_id == head->run_id && it->zone == "outer") head = &*it;
    }
    const MeasurementSample shape = *head;
    std::vector<MeasurementSample> series;
    for (const MeasurementSample& s : samples)
      if (SameSeries(s, shape)) series.push_back(s);
    if (series.size() > static_cast<std::size_t>(kTrendSamples))
      series.erase(series.begin(), series.end() - kTrendSamples);
    // Compact (a first screen of 24 drives stays small): [at, MB/s to 0.1,
    // flag] with flag 0 good, 1 contended, 2 partial.
    for (const MeasurementSample& s : series)
      trend.push_back({s.at, std::round(s.value * 10) / 10, s.partial ? 2 : s.contended ? 1 : 0});

    // The judge's own baseline of that series (detect::SeriesBands): the
    // percent is of the band the next run is judged against.
    detect::SeriesSpec spec;
    spec.key = {drive_id, "", test, SeriesNameOf(test, shape), "mb_per_s"};
    spec.zone = shape.zone;
    spec.stroke = shape.stroke;
    spec.variant = shape.variant;
    spec.block_size = shape.block_size;
    spec.queue_depth = shape.queue_depth;
    StoreSeriesHistory history(*ctx.store);
    DP_ASSIGN_OR_RETURN(detect::TestBaselines bands,
                        detect::SeriesBands(history, drive_id, test, {spec}, ctx.detection));
    const detect::Baseline& b = bands.series.front().baseline;
    const bool good = !shape.contended && !shape.partial;
    nlohmann::json percent = nullptr;
    if (good && b.runs > 0 && b.median > 0) percent = 100.0 * shape.value / b.median;
    nlohmann::json read = {{"test", test},
                           {"series", SeriesNameOf(test, shape)},
                           {"metric", "mb_per_s"},
                           {"unit", "MB/s"},
                           {"value", shape.value},
                           {"at", shape.at},
                           {"run_id", shape.run_id},
                           {"good", good},
                           {"baseline_median", b.runs > 0 ? nlohmann::json(b.median)
                                                          : nlohmann::json(nullptr)},
                           {"baseline_ready", b.ready},
                           {"percent", percent}};
    return std::make_pair(std::move(read), std::move(trend));
  }
  return std::make_pair(nlohmann::json(nullptr), std::move(trend));
}

// Each drive's places in the pools: pool, its state, vdev, role, and the
// member's own state.
std::map<std::string, nlohmann::json> MembershipsOf(const std::vector<Pool>& pools) {
  std::map<std::string, nlohmann::json> member_of;
  for (const Pool& p : pools)
    for (const Vdev& v : p.vdevs)
      for (const PoolMember& m : v.members)
        if (!m.container && !m.drive_id.empty())
          member_of[m.drive_id].push_back({{"pool", p.name},
                                           {"pool_state", p.state},
                                           {"vdev", v.name},
                                           {"role", v.role},
                                           {"state", m.state}});
  return member_of;
}

Response Overview(const ApiContext& ctx) {
  Store& store = *ctx.store;
  auto drives = store.ListDrives();
  if (!drives.ok()) return StatusResponse(drives.status());
  auto alerts = store.ListAlerts(AlertFilter{"active", "", 0});
  if (!alerts.ok()) return StatusResponse(alerts.status());
  auto pools = store.LatestPools();
  if (!pools.ok()) return StatusResponse(pools.status());
  auto zfs = store.ZfsLatestSamplings(ToUnixSeconds(ctx.clock->Now()) - kZfsSamplingFreshSeconds);
  if (!zfs.ok()) return StatusResponse(zfs.status());

  std::map<std::string, std::vector<const Alert*>> alerts_of;
  int open = 0, acked = 0;
  for (const Alert& a : *alerts) {
    alerts_of[a.drive_id].push_back(&a);
    (a.state == "acknowledged" ? acked : open) += 1;
  }
  std::map<std::string, nlohmann::json> member_of = MembershipsOf(*pools);
  std::map<std::string, std::string> names;

  std::vector<Row> rows;
  for (const Drive& d : *drives) {
    names[d.id] = d.name.empty() ? d.id : d.name;
    auto smart = store.LatestSmartFigures(d.id);
    if (!smart.ok()) return StatusResponse(smart.status());
    auto figure = ReadFigure(ctx, d.id);
    if (!figure.ok()) return StatusResponse(figure.status());

    // The status, from the stored alerts and SMART's own verdict.
    Badge badge = Badge::kHealthy;
    std::string reason;
    auto consider = [&](Badge b, const std::string& why) {
      if (b < badge || (b == badge && reason.empty())) {
        badge = b;
        reason = why;
      }
    };
    nlohmann::json kinds = nlohmann::json::array();
    int d_open = 0, d_acked = 0;
    for (const Alert* a : alerts_of[d.id]) {
      (a->state == "acknowledged" ? d_acked : d_open) += 1;
      const std::string kind = KindOf(a->condition);
      if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
      // A missing alert says the drive is gone, not that it fails; an alert
      // nobody was told of (a watch, a muted one) is not an alarm here either.
      const bool told = Alarming(StandingIn(ctx, *a));
      Badge b = kind == "missing"             ? Badge::kMissing
                : a->severity == "critical" ? Badge::kFailing
                : !told                     ? Badge::kWatching
                : IsSpeedKind(kind)         ? Badge::kSlowing
                                            : Badge::kWarning;
      consider(b, !a->words.headline.empty() ? a->words.headline
                  : a->summary.empty()        ? a->condition
                                              : a->summary);
    }
    const SmartSnapshot* s = *smart ? &**smart : nullptr;
    // When SMART was last read: an owner tells a stale figure from a fresh one.
    auto newest = store.SmartHistory(d.id, 0, 1);
    if (!newest.ok()) return StatusResponse(newest.status());
    const nlohmann::json smart_at =
        newest->empty() ? nlohmann::json(nullptr) : nlohmann::json(newest->front().first);
    if (s && s->health_passed == false)
      consider(Badge::kFailing, "SMART overall health self-assessment: FAILED");
    if (!d.present) {
      consider(Badge::kMissing, d.forgotten_at
                                    ? "retired " + UtcDay(*d.forgotten_at) + ": " +
                                          d.forgotten_reason
                                    : "not seen by discovery since " + UtcDay(d.last_seen));
    } else if (badge == Badge::kHealthy) {
      RunFilter rf;
      rf.drive_id = d.id;
      rf.test = "smart";
      rf.limit = 1;
      auto last_smart = store.ListRuns(rf);
      if (!last_smart.ok()) return StatusResponse(last_smart.status());
      if (!last_smart->empty() && last_smart->front().outcome == RunOutcome::kOk &&
          last_smart->front().reason.rfind("asleep", 0) == 0)
        consider(Badge::kAsleep, last_smart->front().reason);
    }
    if (reason.empty())
      reason = figure->first.is_null() ? "no open alerts; no read test yet" : "no open alerts";

    nlohmann::json row = {
        {"id", d.id},
        {"name", d.name},
        {"model", d.model},
        {"serial", d.serial},
        {"dev_path", d.dev_path},
        {"size_bytes", d.size_bytes},
        {"rotational", OrNull(d.rotational)},
        {"rotation_rpm", OrNull(d.rotation_rpm)},
        {"transport", d.transport},
        {"present", d.present},
        {"status", BadgeName(badge)},
        {"reason", reason},
        {"temperature_c", s ? OrNull(s->temperature_c) : nlohmann::json(nullptr)},
        {"power_on_hours", s ? OrNull(s->power_on_hours) : nlohmann::json(nullptr)},
        {"health_passed", s ? OrNull(s->health_passed) : nlohmann::json(nullptr)},
        {"smart_at", smart_at},
        {"pools", member_of.count(d.id) ? member_of[d.id] : nlohmann::json::array()},
        {"read", figure->first},
        {"trend", figure->second},
        {"alerts", {{"open", d_open}, {"acknowledged", d_acked}, {"kinds", kinds}}}};
    const nlohmann::json& read = figure->first;
    const double percent = read.is_object() && read["percent"].is_number()
                               ? read["percent"].get<double>()
                               : 1e9;  // no figure: after those with one
    rows.push_back(Row{badge, percent, d.name.empty() ? d.id : d.name, std::move(row)});
  }
  // Worst first; within a status the worst read figure first, then by name.
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    if (a.badge != b.badge) return a.badge < b.badge;
    if (a.percent != b.percent) return a.percent < b.percent;
    return a.name < b.name;
  });
  nlohmann::json list = nlohmann::json::array();
  for (Row& row : rows) list.push_back(std::move(row.json));
  return JsonResponse({{"at", ToUnixSeconds(ctx.clock->Now())},
                       {"drives", std::move(list)},
                       {"pools", PoolMapToJson(*pools, names, *zfs)},
                       {"alerts", {{"open", open}, {"acknowledged", acked}}}});
}

}  // namespace

void AddOverviewResource(Router& router, const ApiContext& ctx) {
  router.Get("/api/v1/overview",
             [ctx](const Request&, const PathParams&) { return Overview(ctx); });
}

}  // namespace dp::http
