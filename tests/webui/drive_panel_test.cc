// The drive panel as a browser shows it: an in-process HTTP server (the real
// router and static files from webui/) over a seeded store; headless Chromium
// opens / and /#drive=ID and the rendered DOM must show the drives, the trend
// charts with contended points and baseline band, the open alert with its
// evidence and ack button, the recent runs with their reasons, the
// temperature history and attribute sparklines from the SMART history, and the
// re-baseline button with "baseline since <date> (<reason>)".
// Skipped (with the reason) when Chromium is not installed. With
// DP_SCREENSHOT_DIR set, a screenshot is saved there for people to look at.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <tuple>

#include "base/command_runner.h"
#include "base/fake_clock.h"
#include "http/api.h"
#include "http/server.h"
#include "store/store.h"
#include "support/capability.h"
#include "support/temp_dir.h"
#include "webui/browser_util.h"

namespace dp {
namespace {

using dp::testing::TempDir;

std::string Chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (::access(p, X_OK) == 0) return p;
  return "";
}

BenchPoint Point(const std::string& test, double mb, double iops, double p99_us,
                 std::optional<double> access_ms = std::nullopt, bool contended = false) {
  BenchPoint p;
  p.test = test;
  p.block_size = test == "seq" ? 1048576 : 4096;
  p.queue_depth = test == "seq" ? 8 : 1;
  p.bytes = 100000000;
  p.seconds = 2;
  p.mb_per_s = mb;
  p.iops = iops;
  p.access_ms = access_ms;
  if (p99_us > 0) p.latency = LatencySummary{p99_us / 3, p99_us / 2, p99_us, p99_us * 1.5,
                                             p99_us * 2, p99_us / 2.5};
  p.contended = contended;
  return p;
}

// A month of daily runs on sda: steady, one contended dip, then a drop.
void Seed(Store& store, std::int64_t now) {
  Drive a;
  a.id = "wwn-5000c500a1b2c3d4";
  a.name = "sda";
  a.dev_path = "/dev/sda";
  a.model = "ST4000VN008-2DR166";
  a.serial = "ZDH1ABCD";
  a.size_bytes = 4000787030016;
  a.rotational = true;
  a.rotation_rpm = 5980;
  a.transport = "sata";
  ASSERT_TRUE(store.UpsertDrive(a, now).ok());
  Drive b = a;
  b.id = "wwn-5000c500a1b2c3d5";
  b.name = "sdb";
  b.dev_path = "/dev/sdb";
  b.serial = "ZDH1ABCE";
  ASSERT_TRUE(store.UpsertDrive(b, now).ok());

  const std::int64_t start = now - 30 * 86400;
  // Re-baselined before the month's runs (the band is formed from them all).
  RebaselineMark mark;
  mark.drive_id = a.id;
  mark.at = start - 3600;
  mark.reason = "firmware changed from SC60 to SC61";
  mark.who = "discovery";
  ASSERT_TRUE(store.InsertRebaseline(mark).ok());
  std::int64_t last_seq = 0;
  for (int day = 0; day < 30; ++day) {
    std::int64_t at = start + day * 86400;
    double noise = (day * 37 % 11 - 5) * 0.6;
    bool contended = day == 12;
    double seq = (day >= 27 ? 165 : 201) + noise - (contended ? 70 : 0);
    Run run;
    run.drive_id = a.id;
    run.test = "seq";
    run.trigger = "schedule:weekly-read";
    run.started_at = at;
    run.ended_at = at + 40;
    run.outcome = RunOutcome::kOk;
    run.contended = contended;
    auto id = store.InsertRun(run);
    ASSERT_TRUE(id.ok());
    last_seq = *id;
    ASSERT_TRUE(store.AddMeasurements(*id, {Point("seq", seq, seq, 9000 + noise * 40,
                                                  std::nullopt, contended)})
                    .ok());
    if (day % 3 == 0) {
      run.test = "random";
      run.contended = false;
      auto rid = store.InsertRun(run);
      ASSERT_TRUE(rid.ok());
      ASSERT_TRUE(store.AddMeasurements(*rid, {Point("random", 0.5, 120 + noise, 21000 + noise * 300)})
                      .ok());
      run.test = "seek";
      auto sid = store.InsertRun(run);
      ASSERT_TRUE(sid.ok());
      BenchPoint s = Point("seek", 0, 0, 0, 12.5 + noise * 0.1);
      s.stroke = "full";
      ASSERT_TRUE(store.AddMeasurements(*sid, {s}).ok());
    }
  }
  Run deferred;
  deferred.drive_id = a.id;
  deferred.test = "zones";
  deferred.trigger = "schedule:weekly-read";
  deferred.started_at = now - 3600;
  deferred.ended_at = now - 3500;
  deferred.outcome = RunOutcome::kSkipped;
  deferred.reason = "scrub: pool tank is scrubbing (deferral window over)";
  ASSERT_TRUE(store.InsertRun(deferred).ok());

  Alert alert;
  alert.drive_id = a.id;
  alert.condition = "slowdown:seq:qd8-1m:mb_per_s";
  alert.severity = "warning";
  alert.summary = "sda: seq qd8-1m throughput dropped 18% (165 MB/s vs baseline 201 MB/s)";
  alert.evidence_json =
      R"({"unit":"MB/s","current":165.2,"baseline":{"median":201.1,"runs":12},)"
      R"("band":{"low":185.0,"high":217.2},"change_percent":17.9,)"
      R"("runs":[{"run_id":)" + std::to_string(last_seq - 3) +
      R"(,"value":166.0,"outside":true},{"run_id":)" + std::to_string(last_seq) +
      R"(,"value":165.2,"outside":true}]})";
  alert.opened_at = now - 7200;
  alert.updated_at = now - 7200;
  alert.words.headline = "sda reads 18% slower than it used to";
  alert.words.confidence = "Possible (1 rule, 2 hours)";
  alert.words.advice = "Check the drive's cable and connector";
  ASSERT_TRUE(store.InsertAlert(alert).ok());

  // Two days of SMART every 4 hours (12 readings, the newest at 36 °C) with
  // two attributes: reallocated sectors rising, the temperature.
  for (int i = 0; i < 12; ++i) {
    SmartSnapshot smart;
    smart.protocol = "ATA";
    smart.health_passed = true;
    smart.temperature_c = i == 11 ? 36 : 30 + i % 5;
    smart.power_on_hours = 23811 - 4 * (11 - i);
    smart.reallocated_sectors = i / 4;
    smart.pending_sectors = 0;
    const int t = *smart.temperature_c;
    for (auto [id, name, value, raw] :
         {std::tuple<int, const char*, int, std::uint64_t>{5, "Reallocated_Sector_Ct", 100,
                                                           *smart.reallocated_sectors},
          {194, "Temperature_Celsius", 100 - t,
           static_cast<std::uint64_t>(t) | 20ULL << 16 | 45ULL << 32}}) {
      SmartAttribute attr;
      attr.id = id;
      attr.name = name;
      attr.value = attr.worst = value;
      attr.thresh = id == 5 ? 10 : 0;
      attr.raw = raw;
      // As smartctl prints them: the temperature's raw packs its minimum and
      // maximum beside the current reading.
      attr.raw_string = id == 194 ? std::to_string(t) + " (Min/Max 20/45)" : std::to_string(raw);
      smart.attributes.push_back(attr);
    }
    ASSERT_TRUE(store.InsertSmartSnapshot(a.id, now - (11 - i) * 4 * 3600, smart).ok());
  }

  // ZFS's own view: sda far above its raidz1 siblings (one of them unmapped).
  std::vector<ZfsLatencySample> zfs;
  const std::vector<std::tuple<std::string, std::string, double>> members = {
      {"/dev/sda1", a.id, 0.040}, {"/dev/sdb1", b.id, 0.0080}, {"/dev/sdc1", "", 0.0084}};
  for (std::int64_t at : {now - 7200, now - 3600}) {
    for (const auto& [member, drive, wait] : members) {
      ZfsLatencySample z;
      z.at = at;
      z.pool = "tank";
      z.vdev = "raidz1-0";
      z.member = member;
      z.drive_id = drive;
      z.read_ops = 20;
      z.disk_wait_read = wait;
      z.slow_ios = 3;
      // OpenZFS 2.4 sits the slow one out; every member has an hour's waits.
      if (at == now - 3600) z.sit_out = member == "/dev/sda1";
      ZfsWaitHistogram h;
      h.seconds = 3600;
      h.read.assign(37, 0);
      h.read[member == "/dev/sda1" ? 25 : 22] = 900;
      h.read[23] = 100;
      z.disk_wait_histogram = h;
      zfs.push_back(z);
    }
  }
  ASSERT_TRUE(store.AddZfsLatencySamples(zfs).ok());
}

TEST(DrivePanelTest, RendersDrivesChartsAlertAndRuns) {
  const std::string chromium = Chromium();
  if (chromium.empty())
    DP_SKIP_WITHOUT("chromium",
                    "chromium is not installed (scripts/setup.sh installs it with "
                    "DP_SETUP_BROWSER=1)");
  TempDir tmp;
  auto store = Store::Open(tmp.Path("dp.db"));
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  SystemClock clock;
  const std::int64_t now = ToUnixSeconds(clock.Now());
  Seed(**store, now);
  if (::testing::Test::HasFatalFailure()) return;

  http::ApiContext ctx;
  ctx.store = store->get();
  ctx.clock = &clock;
  ctx.started_at = clock.Now();
  ctx.webui_root = std::string(DP_SOURCE_DIR) + "/webui";
  ctx.api_token = "t";
  http::ServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  auto server = http::Server::Bind(options, http::BuildApiRouter(ctx));
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  (*server)->Start();
  const std::string url = (*server)->url() + "#drive=sda";

  std::vector<std::string> argv = {
      chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
      "--no-first-run", "--disable-background-networking", "--disable-component-update",
      "--disable-sync", "--disable-extensions", "--user-data-dir=" + tmp.Path("profile"),
      "--virtual-time-budget=10000", "--window-size=1280,2200",
  };
  PosixCommandRunner runner;
  if (const char* dir = std::getenv("DP_SCREENSHOT_DIR")) {
    CommandSpec shot;
    shot.argv = argv;
    shot.timeout = std::chrono::seconds(90);
    shot.argv.push_back("--screenshot=" + std::string(dir) + "/drive_panel.png");
    shot.argv.push_back(url);
    auto r = runner.Run(shot);
    EXPECT_TRUE(r.ok() && r->exit_code == 0) << (r.ok() ? r->stderr_text : r.status().message());
  }
  auto dump_dom = [&](const std::string& page) -> std::string {
    CommandSpec dump;
    dump.argv = argv;
    dump.timeout = std::chrono::seconds(90);
    dump.argv.push_back("--dump-dom");
    dump.argv.push_back(page);
    auto r = runner.Run(dump);
    EXPECT_TRUE(r.ok()) << r.status().message();
    if (!r.ok()) return "";
    EXPECT_EQ(r->exit_code, 0) << r->stderr_text;
    return r->stdout_text;
  };
  // The overview: the drives, and the alert counted on the drive's card.
  {
    const std::string overview = dump_dom((*server)->url());
    EXPECT_NE(overview.find(R"(id="drives" data-state="list")"), std::string::npos) << overview;
    EXPECT_NE(overview.find("1 open"), std::string::npos);
  }
  // An alert's evidence is drawn when its details are first opened.
  {
    auto b = dp::testing::Browser::Launch(chromium, tmp.Path("profile-evidence"));
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    ASSERT_TRUE((*b)->Open(url).ok());
    ASSERT_TRUE((*b)->WaitFor("document.querySelector('#drive-alerts .alert-details') !== null").ok());
    EXPECT_EQ((*b)->Eval("document.querySelectorAll('#drive-alerts .evidence').length")->get<int>(), 0)
        << "evidence is drawn before it is asked for";
    ASSERT_TRUE((*b)->Eval("document.querySelector('#drive-alerts .alert-details summary').click(); true").ok());
    ASSERT_TRUE((*b)->WaitFor("document.querySelector('#drive-alerts .evidence') !== null").ok());
    EXPECT_TRUE((*b)->Eval("document.querySelector('#drive-alerts .ev-run.outside') !== null")->get<bool>());
  }
  const std::string dom = dump_dom(url);
  (*server)->Stop();
  ASSERT_FALSE(dom.empty());

  // The open panel, a page of its own: the overview's cards are not drawn.
  EXPECT_NE(dom.find(R"(id="drives" data-state="loading")"), std::string::npos) << dom;
  EXPECT_EQ(dom.find("drive-card"), std::string::npos);
  EXPECT_NE(dom.find("ST4000VN008-2DR166"), std::string::npos);
  EXPECT_NE(dom.find(R"(data-state="loaded" data-drive-id="wwn-5000c500a1b2c3d4")"),
            std::string::npos)
      << dom;
  EXPECT_NE(dom.find("36 °C"), std::string::npos);
  // Charts: the seq chart has 30 points, a contended one, a baseline band.
  std::size_t seq = dom.find(R"(id="chart-seq-mbps" data-points="30")");
  ASSERT_NE(seq, std::string::npos) << dom;
  std::size_t seq_end = dom.find("</figure>", seq);
  std::string chart = dom.substr(seq, seq_end - seq);
  EXPECT_NE(chart.find("<svg"), std::string::npos);
  EXPECT_NE(chart.find("class=\"band\""), std::string::npos);
  EXPECT_NE(chart.find("class=\"pt contended\""), std::string::npos);
  EXPECT_NE(chart.find("<polyline"), std::string::npos);
  EXPECT_NE(dom.find(R"(id="chart-random-p99" data-points="10")"), std::string::npos);
  EXPECT_NE(dom.find(R"(id="chart-seek-access" data-points="10")"), std::string::npos);
  // SMART over time: the temperature chart draws all 12 readings, and each
  // attribute row has its sparkline of the 12.
  std::size_t temp = dom.find(R"(id="chart-temperature" data-points="12")");
  ASSERT_NE(temp, std::string::npos) << dom;
  EXPECT_NE(dom.substr(temp, dom.find("</figure>", temp) - temp).find("<polyline"),
            std::string::npos);
  for (const char* attr : {R"(data-attr="5")", R"(data-attr="194")"}) {
    std::size_t row = dom.find(attr);
    ASSERT_NE(row, std::string::npos) << attr << dom;
    std::string tr = dom.substr(row, dom.find("</tr>", row) - row);
    EXPECT_NE(tr.find(R"(class="spark")"), std::string::npos) << tr;
    EXPECT_NE(tr.find("spark-line"), std::string::npos) << tr;
  }
  // A packed raw value reads as smartctl prints it, with the 48-bit number
  // beside it, and its sparkline draws the temperature, not the number.
  {
    std::size_t row = dom.find(R"(data-attr="194")");
    std::string tr = dom.substr(row, dom.find("</tr>", row) - row);
    EXPECT_NE(tr.find("36 (Min/Max 20/45)"), std::string::npos) << tr;
    EXPECT_NE(tr.find(std::to_string(36ULL | 20ULL << 16 | 45ULL << 32)), std::string::npos) << tr;
    EXPECT_NE(tr.find(R"(data-spark-last="36")"), std::string::npos) << tr;
  }
  // The alert (in the page's alert list and in the panel): its headline, how
  // sure and what to do first, the summary and evidence behind "details".
  {
    const std::size_t item = dom.find("class=\"alert sev-warning");
    ASSERT_NE(item, std::string::npos) << dom;
    const std::size_t details = dom.find("<details class=\"alert-details", item);
    ASSERT_NE(details, std::string::npos) << dom;
    const std::size_t headline = dom.find("sda reads 18% slower than it used to", item);
    const std::size_t advice = dom.find("Check the drive's cable and connector", item);
    const std::size_t sure = dom.find("Possible (1 rule, 2 hours)", item);
    const std::size_t summary = dom.find("throughput dropped 18%", item);
    EXPECT_LT(headline, details);
    EXPECT_LT(advice, details);
    EXPECT_LT(sure, details);
    EXPECT_GT(summary, details);
    EXPECT_LT(summary, dom.find("</details>", details)) << "the statistics are one click away";
  }
  EXPECT_NE(dom.find("throughput dropped 18%"), std::string::npos);
  EXPECT_NE(dom.find("data-ack=\""), std::string::npos);
  EXPECT_NE(dom.find("201"), std::string::npos);
  // The re-baseline button and when the baseline starts, with the reason.
  EXPECT_NE(dom.find(R"(id="rebaseline")"), std::string::npos) << dom;
  std::size_t since = dom.find(R"(id="baseline-since")");
  ASSERT_NE(since, std::string::npos) << dom;
  std::string since_text = dom.substr(since, dom.find("</div>", since) - since);
  EXPECT_NE(since_text.find("baseline since "), std::string::npos) << since_text;
  EXPECT_NE(since_text.find("(firmware changed from SC60 to SC61)"), std::string::npos)
      << since_text;
  // Recent runs with outcome and reason.
  EXPECT_NE(dom.find(R"(id="runs-table")"), std::string::npos);
  // ZFS's own view beside the siblings (zfs_view.js).
  EXPECT_NE(dom.find(R"(id="zfs-samples")"), std::string::npos) << dom;
  EXPECT_NE(dom.find("tank / raidz1-0 / /dev/sda1: disk wait 40.0 ms, 4.9"), std::string::npos);
  EXPECT_NE(dom.find("median 8.20 ms; SLOW 3; ZFS sits it out of reads"), std::string::npos);
  // The read disk waits beside the siblings', from zpool iostat -w.
  EXPECT_NE(dom.find(R"(id="zfs-histogram")"), std::string::npos) << dom;
  EXPECT_NE(dom.find("Read disk waits over 2 h: this drive (2000 I/Os) and its 2 siblings (4000)"),
            std::string::npos);
  EXPECT_NE(dom.find("≤ 67 ms"), std::string::npos);
  EXPECT_NE(dom.find("scrub: pool tank is scrubbing"), std::string::npos);
}

}  // namespace
}  // namespace dp
