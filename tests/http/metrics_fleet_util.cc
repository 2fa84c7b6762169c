#include "http/metrics_fleet_util.h"

#include <gtest/gtest.h>

#include <sstream>

#include "support/daemon_process.h"

namespace dp::testing {
namespace {

// A sink that always answers the same.
class FixedSink final : public AlertSink {
 public:
  FixedSink(std::string name, Status answer) : name_(std::move(name)), answer_(answer) {}
  const std::string& name() const override { return name_; }
  Status Send(const Notification&) override { return answer_; }

 private:
  std::string name_;
  Status answer_;
};

BenchPoint SeqPoint(double mb) {
  BenchPoint p;
  p.test = "seq";
  p.block_size = 1048576;
  p.queue_depth = 8;
  p.bytes = 1000000000;
  p.seconds = 5;
  p.mb_per_s = mb;
  p.iops = mb;
  p.latency = LatencySummary{1000, 2000, 5000, 8000, 9000, 1200};
  return p;
}

}  // namespace

MetricsFleet::MetricsFleet() : clock(FromUnixSeconds(1700000000 + 30 * 86400)) {
  db_path_ = tmp_.Path("dp.db");
  auto store = Store::Open(db_path_);
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  if (!store.ok()) return;
  store_ = std::move(store).value();

  sda.id = "wwn-5000c500a1b2c3d4";
  sda.name = "sda";
  sda.dev_path = "/dev/sda";
  sda.model = "ST4000VN008-2DR166";
  sda.serial = "ZDH1ABCD";
  sda.firmware = "SC60";
  sda.transport = "sata";
  sda.size_bytes = 4000787030016;
  nvme.id = "Samsung_SSD_980_S64DNX0T123456";
  nvme.name = "nvme0n1";
  nvme.dev_path = "/dev/nvme0n1";
  nvme.model = "Samsung SSD 980 500GB";
  nvme.serial = "S64DNX0T123456";
  nvme.transport = "nvme";
  nvme.size_bytes = 500107862016;
  gone.id = "path-/dev/sdc";
  gone.name = "sdc";
  gone.dev_path = "/dev/sdc";
  gone.model = "Odd \"Model\" \\ with\nnewline";
  for (const Drive* d : {&sda, &nvme, &gone})
    EXPECT_TRUE(store_->UpsertDrive(*d, 1700000000).ok());
  EXPECT_TRUE(store_->MarkMissingExcept({sda.id, nvme.id}, 1700003600).ok());

  SmartSnapshot ata;
  ata.protocol = "ATA";
  ata.health_passed = true;
  ata.temperature_c = 38;
  ata.power_on_hours = 21000;
  ata.power_cycles = 40;
  ata.reallocated_sectors = 8;
  ata.pending_sectors = 0;
  ata.offline_uncorrectable = 0;
  ata.udma_crc_errors = 3;
  ata.reported_uncorrectable = 0;
  EXPECT_TRUE(store_->InsertSmartSnapshot(sda.id, 1700000000, ata).ok());
  SmartSnapshot nv;
  nv.protocol = "NVMe";
  nv.health_passed = true;
  nv.temperature_c = 45;
  nv.power_on_hours = 900;
  nv.nvme = NvmeHealth{};
  nv.nvme->critical_warning = 0;
  nv.nvme->media_errors = 0;
  nv.nvme->percentage_used = 7;
  nv.nvme->available_spare = 100;
  nv.nvme->available_spare_threshold = 10;
  EXPECT_TRUE(store_->InsertSmartSnapshot(nvme.id, 1700000000, nv).ok());

  // A week of daily seq runs at ~200 MB/s, then one at 160.
  for (int day = 0; day < 7; ++day)
    AddRun(sda, "seq", RunOutcome::kOk, 1700000000 + day * 86400, {SeqPoint(day % 2 ? 201 : 199)});
  AddRun(sda, "seq", RunOutcome::kOk, 1700000000 + 7 * 86400, {SeqPoint(160)});
  AddRun(sda, "seq", RunOutcome::kFailed, 1700000000 + 8 * 86400);
  AddRun(sda, "smart", RunOutcome::kOk, 1700000000 + 8 * 86400);
  AddRun(sda, "seq", RunOutcome::kQueued, 1700000000 + 9 * 86400);
  BenchPoint seek;
  seek.test = "seek";
  seek.stroke = "full";
  seek.access_ms = 14.5;
  AddRun(sda, "seek", RunOutcome::kOk, 1700000000 + 86400, {seek});
  BenchPoint random;
  random.test = "random";
  random.block_size = 4096;
  random.queue_depth = 32;
  random.iops = 95000;
  random.mb_per_s = 389.1;
  random.latency = LatencySummary{300, 400, 900, 1500, 3000, 340};
  AddRun(nvme, "random", RunOutcome::kOk, 1700000000 + 86400, {random});

  Alert slow;
  slow.drive_id = sda.id;
  slow.condition = "slowdown:seq:qd8-1m:mb_per_s";
  slow.severity = "warning";
  slow.summary = "sda: seq throughput dropped 20%";
  slow.evidence_json = "{}";
  slow.opened_at = slow.updated_at = 1700000000 + 7 * 86400;
  slow.notify_count = 1;  // told: an alarm on every surface
  EXPECT_TRUE(store_->InsertAlert(slow).ok());
  Alert old = slow;
  old.condition = "smart:reallocated";
  old.state = "resolved";
  old.resolved_at = old.opened_at + 3600;
  EXPECT_TRUE(store_->InsertAlert(old).ok());

  // One notification through a working and a failing sink (no retry).
  dispatcher_ = std::make_unique<AlertDispatcher>();
  SinkPolicy once;
  once.max_attempts = 1;
  dispatcher_->AddSink(std::make_unique<FixedSink>("webhook-0", Status::Ok()), once);
  dispatcher_->AddSink(std::make_unique<FixedSink>("mail \"ops\"", Unavailable("refused")), once);
  dispatcher_->Start();
  dispatcher_->Submit(MakeNotification(NotifyKind::kOpened, slow, clock.Now(), "nas"));
  EXPECT_TRUE(dispatcher_->WaitIdle(std::chrono::seconds(10)));
}

std::int64_t MetricsFleet::AddRun(const Drive& d, const std::string& test, RunOutcome outcome,
                                  std::int64_t at, const std::vector<BenchPoint>& points) {
  dp::Run run;
  run.drive_id = d.id;
  run.test = test;
  run.trigger = "schedule:weekly";
  run.started_at = at;
  run.ended_at = at + 60;
  run.outcome = outcome;
  auto id = store_->InsertRun(run);
  EXPECT_TRUE(id.ok()) << id.status().ToString();
  if (!id.ok()) return 0;
  if (!points.empty()) {
    EXPECT_TRUE(store_->AddMeasurements(*id, points).ok());
  }
  return *id;
}

http::ApiContext MetricsFleet::Context() const {
  http::ApiContext ctx;
  ctx.store = store_.get();
  ctx.clock = &clock;
  ctx.started_at = FromUnixSeconds(1700000000);
  ctx.dispatcher = dispatcher_.get();
  return ctx;
}

std::string MetricsFleet::Scrape() const {
  http::Response r =
      http::BuildApiRouter(Context())->Route(http::Request::Make(http::Method::kGet, "/metrics"));
  EXPECT_EQ(r.status, 200);
  return r.body;
}

std::optional<double> SampleValue(const std::string& exposition, const std::string& series) {
  std::istringstream in(exposition);
  std::string line;
  while (std::getline(in, line))
    if (line.size() > series.size() + 1 && line.compare(0, series.size(), series) == 0 &&
        line[series.size()] == ' ')
      return std::stod(line.substr(series.size() + 1));
  return std::nullopt;
}

std::optional<std::pair<int, std::string>> RunPromtool(const std::vector<std::string>& args,
                                                        const std::string& stdin_file) {
  if (RunProgram({"/bin/sh", "-c", "command -v promtool"}).exit_code != 0) return std::nullopt;
  std::string cmd = "promtool";
  for (const std::string& a : args) cmd += " '" + a + "'";
  if (!stdin_file.empty()) cmd += " < '" + stdin_file + "'";
  ProgramResult r = RunProgram({"/bin/sh", "-c", cmd}, std::chrono::seconds(120));
  return std::make_pair(r.exit_code, r.output);
}

}  // namespace dp::testing
