// db_size: how fast the database grows on a NAS with the default schedules,
// before and after retention. Real store code writing a real SQLite file;
// time is a FakeClock moved hour by hour.
//
// What a drive gets (what diskpulsed does with config/diskpulse.json):
//  - hourly: a discovery pass with a SMART snapshot (inventory.interval_seconds);
//  - every 4 h: a `smart` run with its snapshot;
//  - Sunday 03:00 + a per-drive offset within 3 h: zones, seek, random and
//    seq runs, their points measured once by the bench module on a
//    SimulatedTarget (a modelled 7200 rpm disk) and stored with +-3% noise and
//    their latency histograms;
//  - Wednesday: smart-short (a new self-test log entry), the 15th: smart-long;
//  - drive 0 gains a reallocated sector every 60 days;
//  - "after" only (the table is schema 8 and 10): hourly, ZFS's own sample of
//    each drive as a member of a raidz2 of six (inventory.zfs_sample_minutes):
//    waits, SLOW, sit_out and an hour's disk wait histogram (about 15 buckets
//    of a busy disk), under a /dev/disk/by-id path as zpool -P prints it.
// SMART snapshots come from real `smartctl -x -j` captures (tests/fixtures),
// with the fields that change between reads changed every time (local time,
// power-on hours, temperature, attributes 9 and 194).
//
// "before": what the store did until schema version 4 (output kept whole and
// uncompressed, nothing ever removed), simulated for --before-days and scaled
// to a year. "after": compressed, deduplicated, and Store::ApplyRetention
// once a simulated day with the default RetentionConfig, for --years.
#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "base/fake_clock.h"
#include "bench/bench_runner.h"
#include "bench/bench_target.h"
#include "bench/simulated_engine.h"
#include "config/retention_config.h"
#include "smart/smartctl_parser.h"
#include "store/store.h"

namespace dp {
namespace {

constexpr std::int64_t kHour = 3600;
constexpr std::int64_t kDay = 24 * kHour;

struct Args {
  int drives = 24;
  int years = 5;
  int before_days = 91;
  std::string dir = "/dev/shm";
  std::string fixtures = DP_FIXTURES_DIR;
  bool after_only = false;
};

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "db_size: %s\n", what.c_str());
  std::exit(2);
}

// A capture with the numbers that change between reads cut out, so each
// snapshot's output can be rebuilt with new values cheaply.
struct RawTemplate {
  std::vector<std::string> pieces;  // text between the numbers
  std::string Render(const std::vector<std::uint64_t>& values) const {
    std::string out = pieces[0];
    for (std::size_t i = 0; i < values.size() && i + 1 < pieces.size(); ++i)
      out += std::to_string(values[i]) + pieces[i + 1];
    return out;
  }
};

// Cuts the number after the first `key` found after `anchor` (in order).
RawTemplate MakeTemplate(const std::string& text) {
  const std::vector<std::pair<std::string, std::string>> spots = {
      {"\"local_time\"", "\"time_t\":"},
      {"\"power_on_time\"", "\"hours\":"},
      {"\"temperature\"", "\"current\":"},
  };
  RawTemplate t;
  std::size_t from = 0;
  for (const auto& [anchor, key] : spots) {
    std::size_t a = text.find(anchor, from);
    if (a == std::string::npos) continue;
    std::size_t k = text.find(key, a);
    if (k == std::string::npos) continue;
    std::size_t n = k + key.size();
    while (n < text.size() && text[n] == ' ') ++n;
    std::size_t e = n;
    while (e < text.size() && std::isdigit(static_cast<unsigned char>(text[e]))) ++e;
    t.pieces.push_back(text.substr(from, n - from));
    from = e;
  }
  t.pieces.push_back(text.substr(from));
  return t;
}

struct DriveModel {
  SmartSnapshot snapshot;
  RawTemplate raw;
};

DriveModel LoadModel(const std::string& path) {
  std::ifstream in(path);
  if (!in) Die("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  auto reading = ParseSmartctlOutput(ss.str());
  if (!reading.ok()) Die(path + ": " + reading.status().ToString());
  return DriveModel{reading->snapshot, MakeTemplate(ss.str())};
}

// The points of one run of each read test, measured on a simulated HDD.
std::map<std::string, std::vector<BenchPoint>> MeasureTemplates() {
  FakeClock clock;
  SimulatedTarget target("sim", SimulatedDrive::Hdd(), clock);
  BenchOptions options;
  options.tests = {BenchTest::kZones, BenchTest::kSeek, BenchTest::kRandom, BenchTest::kSeq};
  options.idle_check_seconds = 0;
  auto report = RunReadTests(target, options, nullptr, nullptr);
  if (!report.ok()) Die("simulated read tests: " + report.status().ToString());
  std::map<std::string, std::vector<BenchPoint>> by_test;
  for (const auto& p : report->results) by_test[p.test].push_back(p);
  return by_test;
}

// The database file with its WAL (the WAL is empty after a checkpoint).
std::int64_t FileBytes(const std::string& path) {
  std::error_code ec;
  auto main = std::filesystem::file_size(path, ec);
  std::int64_t total = ec ? 0 : static_cast<std::int64_t>(main);
  auto wal = std::filesystem::file_size(path + "-wal", ec);
  return total + (ec ? 0 : static_cast<std::int64_t>(wal));
}

// Bytes per table and index (SQLite's dbstat), largest first.
std::string Breakdown(const std::string& path) {
  sqlite3* db = nullptr;
  std::string out;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) return out;
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db,
                         "SELECT name, sum(pgsize) AS b FROM dbstat GROUP BY name "
                         "ORDER BY b DESC LIMIT 8",
                         -1, &st, nullptr) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW) {
      char line[160];
      std::snprintf(line, sizeof line, "    %-28s %9.2f MB\n",
                    reinterpret_cast<const char*>(sqlite3_column_text(st, 0)),
                    sqlite3_column_int64(st, 1) / 1e6);
      out += line;
    }
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

struct SimResult {
  std::int64_t bytes = 0;
  double drive_years = 0;
  double seconds = 0;
  std::int64_t judged_expected = 0, judged_found = 0;  // drive 0's seq mb_per_s samples
  std::int64_t snapshots = 0;
  std::string breakdown;
  std::vector<std::int64_t> yearly_bytes;
};

void Check(const Status& s, const char* what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

SimResult Simulate(const Args& args, const std::string& path, bool after, std::int64_t days) {
  std::filesystem::remove(path);
  std::filesystem::remove(path + "-wal");
  std::filesystem::remove(path + "-shm");
  StoreOptions options;
  options.compress = after;
  auto opened = Store::Open(path, options);
  if (!opened.ok()) Die(opened.status().ToString());
  Store& store = **opened;

  const std::vector<std::string> fixtures = {
      "ata-hdd-WDC-WD140EDFZ-14tb-healthy.json", "ata-hdd-toshiba-MG09ACA18TE-18tb.json",
      "ata-hdd-wd-red-WD20EFRX-nas.json", "ata-hdd-hgst-HUS724020ALE640-crc-errors-exit64.json",
      "ata-ssd-samsung-860evo-500g-xall.json", "ata-hdd-wdc-WUH721816ALE6L4-helium-exit64.json"};
  std::vector<DriveModel> models;
  for (const auto& f : fixtures) models.push_back(LoadModel(args.fixtures + "/smartctl/" + f));
  const auto templates = MeasureTemplates();

  FakeClock clock;
  clock.Set(SysTime(std::chrono::seconds(1767225600)));  // 2026-01-01 00:00 UTC, a Thursday
  const std::int64_t t0 = ToUnixSeconds(clock.Now());

  struct DriveState {
    std::string id;
    SmartSnapshot snap;
    const RawTemplate* raw;
    std::uint64_t hours;
  };
  std::vector<DriveState> drives;
  for (int i = 0; i < args.drives; ++i) {
    const DriveModel& m = models[static_cast<std::size_t>(i) % models.size()];
    Drive d;
    d.id = "wwn-0x5000c500a1b2" + std::to_string(1000 + i);
    d.name = "sd" + std::string(1, static_cast<char>('a' + i % 26)) + std::to_string(i / 26);
    d.dev_path = "/dev/" + d.name;
    d.model = m.snapshot.model;
    d.serial = "SER" + std::to_string(100000 + i);
    Check(store.UpsertDrive(d, t0), "UpsertDrive");
    drives.push_back({d.id, m.snapshot, &m.raw, m.snapshot.power_on_hours.value_or(1000)});
  }

  std::mt19937_64 rng(20260101);
  std::normal_distribution<double> noise(0, 0.03);
  auto snapshot = [&](DriveState& d, std::int64_t at) {
    d.snap.power_on_hours = d.hours;
    const int temp = 33 + static_cast<int>((at / kHour) % 7);
    d.snap.temperature_c = temp;
    for (auto& a : d.snap.attributes) {
      if (a.id == 9) a.raw = d.hours, a.raw_string = std::to_string(d.hours);
      if (a.id == 194) a.raw = temp, a.raw_string = std::to_string(temp);
    }
    d.snap.raw_json = d.raw->Render({static_cast<std::uint64_t>(at), d.hours,
                                     static_cast<std::uint64_t>(temp)});
    auto id = store.InsertSmartSnapshot(d.id, at, d.snap);
    if (!id.ok()) Die("InsertSmartSnapshot: " + id.status().ToString());
  };
  auto run = [&](const DriveState& d, const std::string& test, std::int64_t at,
                 const std::vector<BenchPoint>* points) {
    Run r;
    r.drive_id = d.id;
    r.test = test;
    r.trigger = "schedule";
    r.started_at = at;
    r.outcome = RunOutcome::kRunning;
    r.engine = points ? "uring" : "smartctl";
    auto id = store.InsertRun(r);
    if (!id.ok()) Die("InsertRun: " + id.status().ToString());
    r.id = *id;
    if (points) {
      std::vector<BenchPoint> pts = *points;
      for (auto& p : pts) {
        const double f = 1 + noise(rng);
        p.mb_per_s *= f;
        p.iops *= f;
        if (p.access_ms) *p.access_ms /= f;
        if (p.latency) {
          for (double* v : {&p.latency->p50_us, &p.latency->p90_us, &p.latency->p99_us,
                            &p.latency->p999_us, &p.latency->max_us, &p.latency->mean_us})
            *v /= f;
        }
      }
      Check(store.AddMeasurements(r.id, pts), "AddMeasurements");
    }
    r.outcome = RunOutcome::kOk;
    r.ended_at = at + (points ? 240 : 2);
    r.progress = 1;
    Check(store.UpdateRun(r), "UpdateRun");
  };

  auto zfs_sample = [&](std::size_t i, std::int64_t at) {
    ZfsLatencySample z;
    z.at = at;
    z.pool = "tank";
    z.vdev = "raidz2-" + std::to_string(i / 6);
    z.member =
        "/dev/disk/by-id/ata-WDC_WD80EFZZ-68BTXN0_WD-CA0A" + std::to_string(100000 + i) + "-part1";
    z.drive_id = drives[i].id;
    const double f = 1 + noise(rng);
    z.read_ops = 40 * f;
    z.write_ops = 15 * f;
    z.disk_wait_read = 0.0081 * f;
    z.disk_wait_write = 0.0092 * f;
    z.total_wait_read = 0.0110 * f;
    z.total_wait_write = 0.0120 * f;
    z.slow_ios = 0;
    z.sit_out = false;
    ZfsWaitHistogram hist;
    hist.seconds = kHour;
    hist.read.assign(37, 0);
    hist.write.assign(37, 0);
    const std::uint64_t shape[] = {12,    85,    410,  1020, 3100, 8800, 21000,
                                   38200, 27400, 9400, 1800, 240,  31,   3};
    for (std::size_t b = 0; b < std::size(shape); ++b) {
      hist.read[15 + b] = static_cast<std::uint64_t>(static_cast<double>(shape[b]) * f);
      hist.write[15 + b] = static_cast<std::uint64_t>(static_cast<double>(shape[b]) * f / 3);
    }
    z.disk_wait_histogram = hist;
    return z;
  };

  SimResult res;
  RetentionConfig retention;  // the defaults
  const auto wall0 = std::chrono::steady_clock::now();
  std::int64_t weekly_runs = 0;
  for (std::int64_t h = 0; h < days * 24; ++h) {
    const std::int64_t now = t0 + h * kHour;
    const std::int64_t hour_of_week = ((h / 24 + 4) % 7) * 24 + h % 24;  // 0 = Sunday 00:00
    const std::int64_t day_of_month = ((now / kDay) % 30);
    for (std::size_t i = 0; i < drives.size(); ++i) {
      DriveState& d = drives[i];
      d.hours += 1;
      snapshot(d, now + 60);  // discovery
      if ((h + static_cast<std::int64_t>(i)) % 4 == 0) {
        run(d, "smart", now + 1800, nullptr);
        snapshot(d, now + 1800);
      }
      if (hour_of_week == 3 + static_cast<std::int64_t>(i % 3)) {
        for (const char* test : {"zones", "seek", "random", "seq"})
          run(d, test, now + 600, &templates.at(test));
        if (i == 0) ++weekly_runs;
      }
      if (hour_of_week == 3 * 24 + 4 + static_cast<std::int64_t>(i % 2)) {  // Wednesday
        run(d, "smart-short", now, nullptr);
        d.snap.self_tests.insert(d.snap.self_tests.begin(),
                                 SmartSelfTest{"Short offline", "Completed without error", true,
                                               d.hours});
        if (d.snap.self_tests.size() > 21) d.snap.self_tests.resize(21);
      }
      if (day_of_month == 14 && h % 24 == 1 + static_cast<std::int64_t>(i % 6)) {
        run(d, "smart-long", now, nullptr);
      }
      if (i == 0 && h % (60 * 24) == 12)
        d.snap.reallocated_sectors = d.snap.reallocated_sectors.value_or(0) + 1;
    }
    if (after) {
      std::vector<ZfsLatencySample> zfs;
      for (std::size_t i = 0; i < drives.size(); ++i) zfs.push_back(zfs_sample(i, now + 120));
      Check(store.AddZfsLatencySamples(zfs), "AddZfsLatencySamples");
    }
    if (after && h % 24 == 23) {
      auto rep = store.ApplyRetention(retention, now + kHour - 1);
      if (!rep.ok()) Die("ApplyRetention: " + rep.status().ToString());
    }
    if (h > 0 && h % (365 * 24) == 0) res.yearly_bytes.push_back(FileBytes(path));
    clock.Advance(std::chrono::hours(1));
  }
  res.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

  HistoryQuery q;
  q.drive_id = drives[0].id;
  q.test = "seq";
  q.metric = "mb_per_s";
  q.limit = 0;
  auto hist = store.History(q);
  res.judged_expected = weekly_runs;
  res.judged_found = hist.ok() ? static_cast<std::int64_t>(hist->size()) : -1;
  auto snaps = store.SmartHistory(drives[0].id, 0, 0);
  res.snapshots = snaps.ok() ? static_cast<std::int64_t>(snaps->size()) : -1;
  opened->reset();  // closes the store (checkpoint)
  res.bytes = FileBytes(path);
  res.drive_years = args.drives * static_cast<double>(days) / 365.0;
  res.breakdown = Breakdown(path);
  return res;
}

void Print(const char* what, const SimResult& r, double days) {
  std::printf("%s: %.1f days, %.2f drive-years, %.0f s\n", what, days, r.drive_years, r.seconds);
  std::printf("  file %.2f MB = %.3f MB per drive-year\n", r.bytes / 1e6,
              r.bytes / 1e6 / r.drive_years);
  std::printf("  drive 0: %lld SMART snapshots kept, seq mb_per_s samples %lld of %lld runs\n",
              static_cast<long long>(r.snapshots), static_cast<long long>(r.judged_found),
              static_cast<long long>(r.judged_expected));
  for (std::size_t y = 0; y < r.yearly_bytes.size(); ++y)
    std::printf("  after year %zu: %.2f MB\n", y + 1, r.yearly_bytes[y] / 1e6);
  std::printf("  largest tables and indexes:\n%s", r.breakdown.c_str());
}

}  // namespace
}  // namespace dp

int main(int argc, char** argv) {
  dp::Args args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) dp::Die(a + " needs a value");
      return argv[++i];
    };
    if (a == "--drives") args.drives = std::atoi(next().c_str());
    else if (a == "--years") args.years = std::atoi(next().c_str());
    else if (a == "--before-days") args.before_days = std::atoi(next().c_str());
    else if (a == "--dir") args.dir = next();
    else if (a == "--fixtures") args.fixtures = next();
    else if (a == "--after-only") args.after_only = true;
    else dp::Die("usage: db_size [--drives N] [--years N] [--before-days N] [--dir DIR] "
                 "[--fixtures DIR] [--after-only]");
  }
  if (args.drives < 1 || args.years < 1 || args.before_days < 1) dp::Die("counts must be >= 1");
  std::printf("db_size: %d drives, default schedules (discovery hourly, smart every 4 h, "
              "read tests weekly, smart-short weekly, smart-long monthly)\n",
              args.drives);
  double before = 0;
  if (!args.after_only) {
    auto r = dp::Simulate(args, args.dir + "/db_size_before.db", false, args.before_days);
    dp::Print("before (no retention, output stored whole)", r, args.before_days);
    before = r.bytes / 1e6 / r.drive_years;
  }
  auto r = dp::Simulate(args, args.dir + "/db_size_after.db", true, 365LL * args.years);
  dp::Print("after (compressed, retention daily, defaults)", r, 365.0 * args.years);
  const double after = r.bytes / 1e6 / r.drive_years;
  if (before > 0)
    std::printf("MB per drive-year: before %.1f, after %.3f (%.0fx smaller)\n", before, after,
                before / after);
  for (const char* f : {"/db_size_before.db", "/db_size_after.db"}) {
    std::filesystem::remove(args.dir + f);
    std::filesystem::remove(args.dir + f + "-wal");
    std::filesystem::remove(args.dir + f + "-shm");
  }
  return 0;
}
