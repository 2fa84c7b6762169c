#include "demo/demo_world.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <numbers>

#include "demo/demo_captures.h"
#include "base/fake_clock.h"
#include "bench/bench_options.h"
#include "bench/bench_runner.h"
#include "bench/bench_target.h"
#include "smart/smartctl_parser.h"

namespace dp {
namespace {

constexpr std::int64_t kDay = 86400;
constexpr double kMonth = 30.44 * kDay;

// A deterministic value in [-1, 1) from a drive index and a time.
double Wobble(std::uint64_t drive, std::int64_t at, std::uint64_t salt) {
  std::uint64_t x = drive * 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint64_t>(at) * 0xBF58476D1CE4E5B9ULL ^ salt;
  x ^= x >> 31;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 29;
  return static_cast<double>(x % 2000000) / 1000000.0 - 1.0;
}

SmartSnapshot ParsedCapture(std::string_view capture) {
  auto reading = ParseSmartctlOutput(capture, 0);
  return reading.ok() ? reading->snapshot : SmartSnapshot{};
}

void SetRaw(SmartSnapshot& s, int id, std::uint64_t raw) {
  for (SmartAttribute& a : s.attributes)
    if (a.id == id) {
      a.raw = raw;
      a.raw_string = std::to_string(raw);
    }
}

}  // namespace

const std::vector<std::string>& DemoWorld::ReadTests() {
  static const std::vector<std::string> kTests = {"seq", "zones", "seek", "random"};
  return kTests;
}

DemoWorld::DemoWorld(std::int64_t epoch, std::int64_t live_from)
    : epoch_(epoch),
      live_from_(live_from),
      hdd_smart_(ParsedCapture(DemoHddCapture())),
      nvme_smart_(ParsedCapture(DemoNvmeCapture())) {
  Pool tank;
  tank.name = "tank";
  tank.state = "ONLINE";
  tank.scan.function = "scrub";
  tank.scan.state = "finished";
  {
    // As zpool prints it: local time, ctime layout. 50 days ago: overdue.
    const std::time_t last_scrub = static_cast<std::time_t>(live_from_ - 50 * kDay);
    std::tm tm{};
    ::localtime_r(&last_scrub, &tm);
    char when[64] = {};
    std::strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", &tm);
    tank.scan.text = std::string("scrub repaired 0B in 05:12:44 with 0 errors on ") + when;
  }
  tank.errors = "No known data errors";
  Vdev data{"raidz2-0", "raidz2", "data", "ONLINE", {}};
  Vdev log{"nvme0n1", "disk", "log", "ONLINE", {}};
  Vdev spare{"sdg", "disk", "spare", "AVAIL", {}};

  auto add_hdd = [&](const std::string& name, int index, Vdev& vdev) {
    Drive d;
    d.name = name;
    d.serial = "WD-WCC4MDEMO" + std::to_string(100 + index);
    d.wwn = "50014ee2b" + std::to_string(1000000 + index);
    d.dev_path = "/dev/" + name;
    d.model = hdd_smart_.model.empty() ? "WDC WD20EFRX-68EUZN0" : hdd_smart_.model;
    // The capture's firmware field was redacted by its contributor.
    d.firmware = hdd_smart_.firmware.empty() || hdd_smart_.firmware == "REDACTED"
                     ? "82.00A82"
                     : hdd_smart_.firmware;
    d.size_bytes = hdd_smart_.capacity_bytes.value_or(2000398934016);
    d.logical_block_size = 512;
    d.physical_block_size = 4096;
    d.rotational = true;
    d.rotation_rpm = 5400;
    d.transport = "sata";
    d.controller = "demo-ahci0";
    d.id = MakeDriveId(d.wwn, d.model, d.serial, d.dev_path);
    d.stable_paths = {"/dev/disk/by-id/ata-" + d.model + "_" + d.serial,
                      "/dev/disk/by-id/wwn-0x" + *d.wwn};
    Sim s;
    s.model = SimulatedDrive::Hdd();
    s.model.size_bytes = d.size_bytes;
    s.model.rpm = 5400;
    s.model.outer_mb_per_s = 175;
    s.model.inner_mb_per_s = 85;
    s.model.full_stroke_ms = 18;
    s.model.seed = static_cast<std::uint64_t>(index) + 1;
    s.temperature_offset = index % 3;
    s.self_tests = true;
    drives_.push_back(d);
    sims_.push_back(s);
    PoolMember m;
    m.path = "/dev/disk/by-id/wwn-0x" + *d.wwn + "-part1";
    m.drive_id = d.id;
    m.state = vdev.role == "spare" ? "AVAIL" : "ONLINE";
    if (vdev.role != "spare") {
      m.read_errors = 0;
      m.write_errors = 0;
      m.checksum_errors = 0;
    }
    vdev.members.push_back(m);
  };
  const char* names[] = {"sda", "sdb", "sdc", "sdd", "sde", "sdf"};
  for (int i = 0; i < 6; ++i) add_hdd(names[i], i, data);
  add_hdd("sdg", 6, spare);

  // The degrading, the pending-sector and the slow sibling.
  sims_[1].decay_per_month = 0.025;
  sims_[1].decay_from = live_from_ - static_cast<std::int64_t>(5 * kMonth);
  sims_[3].pending_from = live_from_ - 10 * 7 * kDay;
  sims_[4].model.throughput_scale = 0.8;
  // Its weekly self-test stopped running three weeks ago.
  sims_[5].self_tests_until = live_from_ - 3 * 7 * kDay;
  // A seventh disk like the others that dropped off the bus.
  lost_ = drives_[5];
  lost_.name = "sdh";
  lost_.dev_path = "/dev/sdh";
  lost_.serial = "WD-WCC4MDEMO107";
  lost_.wwn = "50014ee2b1000007";
  lost_.id = MakeDriveId(lost_.wwn, lost_.model, lost_.serial, lost_.dev_path);
  lost_.stable_paths = {"/dev/disk/by-id/ata-" + lost_.model + "_" + lost_.serial,
                        "/dev/disk/by-id/wwn-0x" + *lost_.wwn};

  Drive n;
  n.name = "nvme0n1";
  n.serial = nvme_smart_.serial.empty() ? "S4EUNX0DEMO001" : nvme_smart_.serial;
  n.model = nvme_smart_.model.empty() ? "Samsung SSD 970 EVO Plus 250GB" : nvme_smart_.model;
  n.id = MakeDriveId(std::nullopt, n.model, n.serial, "/dev/nvme0n1");
  n.dev_path = "/dev/nvme0n1";
  n.firmware = nvme_smart_.firmware;
  n.size_bytes = nvme_smart_.capacity_bytes.value_or(250059350016);
  n.rotational = false;
  n.rotation_rpm = 0;
  n.transport = "nvme";
  n.controller = "demo-nvme0";
  n.stable_paths = {"/dev/disk/by-id/nvme-" + n.id};
  Sim ns;
  ns.model = SimulatedDrive::Ssd();
  ns.model.size_bytes = n.size_bytes;
  ns.model.outer_mb_per_s = ns.model.inner_mb_per_s = 1900;
  ns.nvme = true;
  ns.temperature_offset = 4;
  drives_.push_back(n);
  sims_.push_back(ns);
  PoolMember lm;
  lm.path = "/dev/nvme0n1";
  lm.drive_id = n.id;
  lm.state = "ONLINE";
  lm.read_errors = lm.write_errors = lm.checksum_errors = 0;
  log.members.push_back(lm);

  tank.vdevs = {data, log, spare};
  pools_ = {tank};
}

const DemoWorld::Sim* DemoWorld::SimOf(const std::string& drive_id) const {
  for (std::size_t i = 0; i < drives_.size(); ++i)
    if (drives_[i].id == drive_id || drives_[i].name == drive_id) return &sims_[i];
  return nullptr;
}

Result<std::vector<BenchPoint>> DemoWorld::Measure(const std::string& drive_id,
                                                   const std::string& test,
                                                   std::int64_t at) const {
  const Sim* sim = SimOf(drive_id);
  if (!sim) return InvalidArgument("the demo has no drive '" + drive_id + "'");
  DP_ASSIGN_OR_RETURN(BenchTest bench_test, ParseBenchTest(test));
  if (bench_test != BenchTest::kSeq && bench_test != BenchTest::kZones &&
      bench_test != BenchTest::kSeek && bench_test != BenchTest::kRandom)
    return InvalidArgument("the demo does not simulate '" + test + "'");
  const std::size_t index = static_cast<std::size_t>(sim - sims_.data());
  SimulatedDrive model = sim->model;
  model.seed = index * 1000003 + static_cast<std::uint64_t>(at / 60);
  // Run-to-run wobble of about 1%, as a quiet real disk shows.
  model.throughput_scale *= 1 + 0.01 * Wobble(index, at, 1);
  if (sim->decay_per_month > 0 && at > sim->decay_from) {
    model.decay_per_age = sim->decay_per_month;
    model.age = static_cast<double>(at - sim->decay_from) / kMonth;
  }
  BenchOptions options;
  options.tests = {bench_test};
  // Simulated time. Sequential figures are steady after half a second; a
  // seek or random test at HDD rates does a few dozen reads in that time,
  // whose access times and p99 then swing by ~10% from run to run (a
  // rotational delay is uniform over a revolution) and made healthy demo
  // drives look slower than their siblings. Four seconds give the few
  // hundred reads a real run's figures rest on.
  options.seconds = bench_test == BenchTest::kSeek || bench_test == BenchTest::kRandom ? 4.0 : 0.5;
  options.idle_check_seconds = 0;
  FakeClock clock;
  clock.Set(FromUnixSeconds(at));
  SimulatedTarget target(drives_[index].dev_path, model, clock);
  DP_ASSIGN_OR_RETURN(BenchReport report, RunReadTests(target, options, nullptr, nullptr));
  if (!report.error.empty()) return IoError(report.error);
  return report.results;
}

Result<SmartSnapshot> DemoWorld::Smart(const std::string& drive_id, std::int64_t at) const {
  const Sim* sim = SimOf(drive_id);
  if (!sim) return InvalidArgument("the demo has no drive '" + drive_id + "'");
  const std::size_t index = static_cast<std::size_t>(sim - sims_.data());
  const Drive& d = drives_[index];
  SmartSnapshot s = sim->nvme ? nvme_smart_ : hdd_smart_;
  s.raw_json.clear();
  s.device_path = d.dev_path;
  s.firmware = d.firmware;
  s.serial = d.serial;
  s.wwn = d.wwn;
  const double hours_since = static_cast<double>(at - epoch_) / 3600;
  const std::uint64_t poh = 1200 + static_cast<std::uint64_t>(std::max(0.0, hours_since));
  s.power_on_hours = poh;
  // Warmer in the afternoon, a little noise on top.
  const double day_phase = 2 * std::numbers::pi * static_cast<double>(at % kDay) / kDay;
  int temperature = static_cast<int>(std::lround(34 + sim->temperature_offset +
                                                 2.5 * std::sin(day_phase - 2.0) +
                                                 0.8 * Wobble(index, at, 2)));
  s.temperature_c = temperature;
  SetRaw(s, 9, poh);
  SetRaw(s, 194, static_cast<std::uint64_t>(temperature));
  if (s.nvme) s.nvme->percentage_used = static_cast<int>(hours_since / (24 * 365) * 3);
  if (sim->self_tests) {
    // A short self-test every week since installation (until it stopped).
    std::int64_t last = at - (at - epoch_) % (7 * kDay);
    if (sim->self_tests_until > 0 && last > sim->self_tests_until)
      last = sim->self_tests_until - (sim->self_tests_until - epoch_) % (7 * kDay);
    SmartSelfTest t;
    t.type = "Short offline";
    t.status = "Completed without error";
    t.passed = true;
    t.lifetime_hours = 1200 + static_cast<std::uint64_t>(std::max<std::int64_t>(0, last - epoch_) / 3600);
    s.self_tests = {t};
  }
  if (sim->pending_from > 0) {
    // A few new ones a day (so every daily or weekly check finds more), then
    // one every 5 minutes while the demo runs.
    auto grown = [&](std::int64_t t) {
      if (t <= sim->pending_from) return std::uint64_t{0};
      const double weeks = static_cast<double>(t - sim->pending_from) / (7 * kDay);
      return static_cast<std::uint64_t>(2 * std::pow(weeks, 1.8)) + 1;
    };
    std::uint64_t pending = grown(std::min(at, live_from_));
    if (at > live_from_) pending += static_cast<std::uint64_t>((at - live_from_) / 300);
    s.pending_sectors = pending;
    SetRaw(s, 197, pending);
  }
  return s;
}

}  // namespace dp
