// page_api: how fast the page's API answers on a big database, and how much
// the page's first load weighs.
//
//   page_api [--db FILE] [--drives 24] [--years 5] [--rounds 30] [--webui DIR]
//
// Builds (or reuses, when FILE already holds it) a database of N drives x Y
// years of weekly runs of every read test (seq; zones outer/middle/inner;
// seek short/half/full stroke; random qd1 and qd32 with latency) and a SMART
// snapshot every 4 hours with 20 attributes, in four raidz2 vdevs of six,
// with a few open alerts. Then times, through the socket-free router (the
// handlers and the store, no network), GET /api/v1/overview and one
// drive's full history (every chart of the drive page: five history calls
// and the SMART history), `rounds` times each, and prints the median, p95
// and max, plus the bytes of each answer and of the page's static files.
// Put FILE on a RAM disk (/dev/shm): seeding commits ~300k transactions.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "base/clock.h"
#include "http/api.h"
#include "store/store.h"

namespace {

using namespace dp;
using Steady = std::chrono::steady_clock;

constexpr std::int64_t kWeek = 7 * 86400;

struct Args {
  std::string db = "/dev/shm/diskpulse-page-bench.db";
  int drives = 24;
  int years = 5;
  int rounds = 30;
  std::string webui = "webui";
};

BenchPoint Point(const std::string& test, const char* zone, const char* stroke, std::uint32_t qd,
                 std::uint32_t bs, double mb, double iops, double access_ms, bool latency) {
  BenchPoint p;
  p.test = test;
  if (zone) p.zone = zone;
  if (stroke) p.stroke = stroke;
  p.queue_depth = qd;
  p.block_size = bs;
  p.bytes = 1000000000;
  p.seconds = 5;
  p.mb_per_s = mb;
  p.iops = iops;
  if (access_ms > 0) p.access_ms = access_ms;
  if (latency) p.latency = LatencySummary{4000, 8000, 15000, 30000, 60000, 5000};
  return p;
}

Status Seed(Store& store, const Args& a, std::int64_t now) {
  const int weeks = a.years * 52;
  const std::int64_t first = now - static_cast<std::int64_t>(weeks) * kWeek;
  std::vector<Drive> drives;
  Pool pool;
  pool.name = "tank";
  pool.state = "ONLINE";
  pool.scan.function = "scrub";
  pool.scan.state = "finished";
  for (int i = 0; i < a.drives; ++i) {
    Drive d;
    d.name = "sd" + std::string(1, static_cast<char>('a' + i % 26)) + (i >= 26 ? std::to_string(i / 26) : "");
    d.id = "wwn-bench" + std::to_string(1000 + i);
    d.dev_path = "/dev/" + d.name;
    d.model = "WDC WD80EFZX-68UW8N0";
    d.serial = "BENCH" + std::to_string(i);
    d.size_bytes = 8001563222016;
    d.rotational = true;
    d.rotation_rpm = 5400;
    d.transport = "sata";
    DP_RETURN_IF_ERROR(store.UpsertDrive(d, first));
    drives.push_back(d);
    if (i % 6 == 0) pool.vdevs.push_back(Vdev{"raidz2-" + std::to_string(i / 6), "raidz2", "data", "ONLINE", {}});
    PoolMember m;
    m.path = d.dev_path;
    m.drive_id = d.id;
    m.state = "ONLINE";
    m.read_errors = m.write_errors = m.checksum_errors = 0;
    pool.vdevs.back().members.push_back(m);
  }
  DP_RETURN_IF_ERROR(store.RecordPools({pool}, now));

  for (int w = 0; w < weeks; ++w) {
    for (std::size_t i = 0; i < drives.size(); ++i) {
      const double wobble = 1 + 0.01 * std::sin(w * 1.7 + static_cast<double>(i));
      for (const char* test : {"seq", "zones", "seek", "random"}) {
        Run run;
        run.drive_id = drives[i].id;
        run.test = test;
        run.trigger = "schedule:weekly-read";
        run.started_at = first + w * kWeek + static_cast<std::int64_t>(i) * 900;
        run.ended_at = run.started_at + 120;
        run.outcome = RunOutcome::kOk;
        run.contended = (w + i) % 37 == 0;
        DP_ASSIGN_OR_RETURN(std::int64_t id, store.InsertRun(run));
        std::vector<BenchPoint> points;
        std::string t = test;
        if (t == "seq") {
          points.push_back(Point(t, nullptr, nullptr, 8, 1 << 20, 190 * wobble, 190, 0, true));
        } else if (t == "zones") {
          points.push_back(Point(t, "outer", nullptr, 8, 1 << 20, 200 * wobble, 200, 0, false));
          points.push_back(Point(t, "middle", nullptr, 8, 1 << 20, 165 * wobble, 165, 0, false));
          points.push_back(Point(t, "inner", nullptr, 8, 1 << 20, 105 * wobble, 105, 0, false));
        } else if (t == "seek") {
          points.push_back(Point(t, nullptr, "short", 1, 4096, 0, 0, 6.1 / wobble, false));
          points.push_back(Point(t, nullptr, "half", 1, 4096, 0, 0, 11.2 / wobble, false));
          points.push_back(Point(t, nullptr, "full", 1, 4096, 0, 0, 17.9 / wobble, false));
        } else {
          points.push_back(Point(t, nullptr, nullptr, 1, 4096, 0.3, 75 * wobble, 0, true));
          points.push_back(Point(t, nullptr, nullptr, 32, 4096, 0.8, 190 * wobble, 0, true));
        }
        for (BenchPoint& p : points) p.contended = run.contended;
        DP_RETURN_IF_ERROR(store.AddMeasurements(id, points));
      }
      // SMART every 4 hours of this week.
      for (int k = 0; k < 42; ++k) {
        const std::int64_t at = first + w * kWeek + k * 4 * 3600 + static_cast<std::int64_t>(i) * 60;
        SmartSnapshot s;
        s.protocol = "ATA";
        s.health_passed = true;
        s.temperature_c = 33 + static_cast<int>(i % 5) + k % 3;
        s.power_on_hours = static_cast<std::uint64_t>((at - first) / 3600) + 500;
        s.reallocated_sectors = 0;
        s.pending_sectors = 0;
        for (int id : {1, 3, 4, 5, 7, 9, 10, 11, 12, 192, 193, 194, 196, 197, 198, 199, 200, 187, 188, 190}) {
          SmartAttribute attr;
          attr.id = id;
          attr.name = "Attribute_" + std::to_string(id);
          attr.value = 100;
          attr.worst = 100;
          attr.thresh = id == 5 ? 5 : 0;
          attr.raw = id == 9 ? *s.power_on_hours : id == 194 ? static_cast<std::uint64_t>(*s.temperature_c) : 0;
          s.attributes.push_back(attr);
        }
        DP_RETURN_IF_ERROR(store.InsertSmartSnapshot(drives[i].id, at, s).status());
      }
    }
    if (w % 26 == 0) std::fprintf(stderr, "seeding: week %d of %d\n", w, weeks);
  }
  for (int i : {1, 7, 13}) {
    Alert al;
    al.drive_id = drives[static_cast<std::size_t>(i) % drives.size()].id;
    al.condition = "slowdown:seq:qd8-1m:mb_per_s";
    al.severity = "warning";
    al.summary = "seq 15% below baseline";
    al.opened_at = al.updated_at = now - 86400;
    DP_RETURN_IF_ERROR(store.InsertAlert(al).status());
  }
  return Status::Ok();
}

struct Timing {
  double median_ms = 0, p95_ms = 0, max_ms = 0;
  std::size_t bytes = 0;
  int status = 0;
};

template <typename F>
Timing Time(int rounds, F call) {
  std::vector<double> ms;
  Timing t;
  for (int r = 0; r < rounds; ++r) {
    auto start = Steady::now();
    auto [status, bytes] = call();
    ms.push_back(std::chrono::duration<double, std::milli>(Steady::now() - start).count());
    t.bytes = bytes;
    t.status = status;
  }
  std::sort(ms.begin(), ms.end());
  t.median_ms = ms[ms.size() / 2];
  t.p95_ms = ms[std::min(ms.size() - 1, ms.size() * 95 / 100)];
  t.max_ms = ms.back();
  return t;
}

void Print(const char* what, const Timing& t) {
  std::printf("%-58s %7.2f %7.2f %7.2f %9zu  HTTP %d\n", what, t.median_ms, t.p95_ms, t.max_ms,
              t.bytes, t.status);
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--db") a.db = v;
    else if (k == "--drives") a.drives = std::stoi(v);
    else if (k == "--years") a.years = std::stoi(v);
    else if (k == "--rounds") a.rounds = std::stoi(v);
    else if (k == "--webui") a.webui = v;
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  const bool fresh = !std::filesystem::exists(a.db);
  auto store = Store::Open(a.db);
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.status().ToString().c_str());
    return 1;
  }
  dp::SystemClock clock;
  const std::int64_t now = ToUnixSeconds(clock.Now());
  if (fresh) {
    auto start = Steady::now();
    Status s = Seed(**store, a, now);
    if (!s.ok()) {
      std::fprintf(stderr, "seeding failed: %s\n", s.ToString().c_str());
      return 1;
    }
    std::printf("seeded %s: %d drives x %d years in %.0f s\n", a.db.c_str(), a.drives, a.years,
                std::chrono::duration<double>(Steady::now() - start).count());
  } else {
    std::printf("reusing %s (delete it to seed anew)\n", a.db.c_str());
  }

  http::ApiContext ctx;
  ctx.store = store->get();
  ctx.clock = &clock;
  ctx.started_at = clock.Now();
  auto router = http::BuildApiRouter(ctx);
  auto get = [&](const std::string& target) {
    http::Response r = router->Route(http::Request::Make(http::Method::kGet, target));
    return std::make_pair(r.status, r.body.size());
  };
  auto drives = (*store)->ListDrives();
  if (!drives.ok() || drives->empty()) {
    std::fprintf(stderr, "no drives in %s\n", a.db.c_str());
    return 1;
  }
  const std::string drive = "/api/v1/drives/" + drives->front().id;

  std::printf("\n%-58s %7s %7s %7s %9s\n", "call (router, no sockets)", "med ms", "p95 ms", "max ms",
              "bytes");
  Timing overview = Time(a.rounds, [&] { return get("/api/v1/overview"); });
  Print("GET /api/v1/overview", overview);
  const std::vector<std::pair<std::string, std::string>> charts = {
      {"seq", "mb_per_s"}, {"zones", "mb_per_s"}, {"seek", "access_ms"},
      {"random", "iops"},  {"random", "p99_us"}};
  double history_total = 0;
  for (const auto& [test, metric] : charts) {
    std::string target = drive + "/history?test=" + test + "&metric=" + metric + "&limit=10000";
    Timing t = Time(a.rounds, [&] { return get(target); });
    Print(("GET .../history?test=" + test + "&metric=" + metric + " (all)").c_str(), t);
    history_total += t.median_ms;
  }
  Timing smart = Time(a.rounds, [&] { return get(drive + "/smart?points=300"); });
  Print("GET .../smart?points=300 (all years)", smart);
  history_total += smart.median_ms;
  Print("GET .../smart?points=5000", Time(a.rounds, [&] { return get(drive + "/smart?points=5000"); }));
  Print("GET /api/v1/drives/{id}", Time(a.rounds, [&] { return get(drive); }));
  Print("GET /api/v1/pools", Time(a.rounds, [&] { return get("/api/v1/pools"); }));
  Print("GET /api/v1/alerts?state=active", Time(a.rounds, [&] { return get("/api/v1/alerts?state=active"); }));
  Print("GET /api/v1/runs?limit=25", Time(a.rounds, [&] { return get("/api/v1/runs?limit=25"); }));
  Print("GET /api/v1/schedule?count=3", Time(a.rounds, [&] { return get("/api/v1/schedule?count=3"); }));
  std::printf("one drive's full history (5 charts + SMART), sum of medians: %.2f ms\n", history_total);

  std::size_t static_bytes = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::recursive_directory_iterator(a.webui, ec))
    if (e.is_regular_file()) static_bytes += e.file_size();
  auto first_api = [&](const std::string& t) { return get(t).second; };
  std::size_t api_bytes = first_api("/api/v1/health") + first_api("/api/v1/overview") +
                          first_api("/api/v1/alerts?state=active") +
                          first_api("/api/v1/schedule?count=3") + first_api("/api/v1/runs?limit=25");
  std::printf("first load: static files %zu bytes (%s, uncompressed) + API answers %zu bytes = %.1f KB\n",
              static_bytes, a.webui.c_str(), api_bytes, (static_bytes + api_bytes) / 1000.0);
  return 0;
}
