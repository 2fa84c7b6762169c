// The issue-5 resources (runs, alerts, drive detail and history, schedule,
// per-drive /metrics) through the router only, against a real store in a
// temporary directory and a real Scheduler on a FakeClock with a holding
// executor: token checks, JSON shapes, and 400/404/405/409/503.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>

#include <condition_variable>
#include <mutex>

#include "alert/alert_dispatcher.h"
#include "alert/alert_service.h"
#include "base/fake_clock.h"
#include "detect/smart_detector.h"
#include "http/api.h"
#include "http/openapi_record_util.h"
#include "runs/store_alert_repository.h"
#include "runs/store_scheduler_store.h"
#include "sched/scheduler.h"
#include "store/store.h"
#include "support/temp_dir.h"

namespace dp::http {
namespace {

using dp::testing::TempDir;
using nlohmann::json;

constexpr const char* kToken = "s3cret-token";

// Holds every job until Release(); reports progress 0.4 first.
class HoldingExecutor final : public JobExecutor {
 public:
  Result<JobResult> Execute(const Job&, JobCancel& cancel, ProgressFn progress) override {
    progress(0.4);
    std::unique_lock lock(mu_);
    ++running_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return released_ || cancel.cancelled(); });
    --running_;
    if (cancel.cancelled()) return Cancelled("cancelled");
    JobResult r;
    r.engine = "fake";
    return r;
  }
  bool WaitRunning() {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(10), [&] { return running_ > 0; });
  }
  void Release() {
    std::lock_guard lock(mu_);
    released_ = true;
    cv_.notify_all();
  }
  // Cancel wakes the job through the JobCancel flag, which is polled here.
  void Poke() { cv_.notify_all(); }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int running_ = 0;
  bool released_ = false;
};

class IdleProbe final : public DriveStateProbe {
 public:
  Result<DriveState> Probe(const std::string&) override { return DriveState{}; }
};

class RecordingSink final : public AlertSink {
 public:
  RecordingSink(std::string name, Status answer) : name_(std::move(name)), answer_(answer) {}
  const std::string& name() const override { return name_; }
  Status Send(const Notification& n) override {
    sent.push_back(n);
    return answer_;
  }
  std::vector<Notification> sent;

 private:
  std::string name_;
  Status answer_;
};

class ResourcesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open(tmp_.Path("dp.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(store).value();
    drive_.id = "wwn-5000c500a1b2c3d4";
    drive_.name = "sda";
    drive_.dev_path = "/dev/sda";
    drive_.model = "ST4000VN008";
    ASSERT_TRUE(store_->UpsertDrive(drive_, 1700000000).ok());
  }
  void TearDown() override {
    if (executor_) executor_->Release();
    if (scheduler_) scheduler_->Stop();
  }

  void StartScheduler() {
    sched_store_ = std::make_unique<StoreSchedulerStore>(*store_);
    executor_ = std::make_unique<HoldingExecutor>();
    SchedulerOptions opts;
    opts.tick = std::chrono::milliseconds(10);
    ScheduleConfig weekly;
    weekly.name = "weekly-read";
    weekly.tests = {"seq"};
    weekly.when = *ParseScheduleWhen("0 3 * * 0");
    scheduler_ = std::make_unique<Scheduler>(clock_, *sched_store_, *executor_, probe_,
                                             std::vector<ScheduleConfig>{weekly},
                                             SchedulerConfig{}, opts);
    scheduler_->UpdateInventory({drive_}, {});
    ASSERT_TRUE(scheduler_->Start().ok());
  }

  std::shared_ptr<const Router> MakeRouter() {
    ApiContext ctx;
    ctx.store = store_.get();
    ctx.clock = &clock_;
    ctx.started_at = clock_.Now();
    ctx.api_token = kToken;
    ctx.scheduler = scheduler_.get();
    ctx.alerts = alerts_.get();
    ctx.dispatcher = dispatcher_.get();
    ctx.host = "nas";
    return BuildApiRouter(ctx);
  }
  Response Call(Method m, const std::string& target, std::string body = "",
                const char* token = kToken) {
    Request r = Request::Make(m, target, std::move(body));
    if (token) r.headers.push_back({"Authorization", std::string("Bearer ") + token});
    return testing::RouteAndRecord(*MakeRouter(), r);
  }
  Response Get(const std::string& target) { return Call(Method::kGet, target, "", nullptr); }
  Response Post(const std::string& target, std::string body = "", const char* token = kToken) {
    return Call(Method::kPost, target, std::move(body), token);
  }
  static std::string ErrorCode(const Response& r) {
    return json::parse(r.body)["error"]["code"].get<std::string>();
  }

  std::int64_t AddRun(const std::string& test, RunOutcome outcome, std::int64_t at,
                      std::vector<BenchPoint> points = {}, std::string reason = "") {
    dp::Run run;
    run.drive_id = drive_.id;
    run.test = test;
    run.trigger = "schedule:weekly-read";
    run.started_at = at;
    run.ended_at = at + 60;
    run.outcome = outcome;
    run.reason = std::move(reason);
    auto id = store_->InsertRun(run);
    EXPECT_TRUE(id.ok());
    if (!points.empty()) {
      EXPECT_TRUE(store_->AddMeasurements(*id, points).ok());
    }
    return *id;
  }
  static BenchPoint SeqPoint(double mb, bool contended = false) {
    BenchPoint p;
    p.test = "seq";
    p.block_size = 1048576;
    p.queue_depth = 8;
    p.bytes = 1000000000;
    p.seconds = 5;
    p.mb_per_s = mb;
    p.iops = mb;
    p.latency = LatencySummary{1000, 2000, 5000, 8000, 9000, 1200};
    p.contended = contended;
    return p;
  }
  std::int64_t AddAlert(const std::string& condition, const std::string& state = "open") {
    Alert a;
    a.drive_id = drive_.id;
    a.condition = condition;
    a.severity = "warning";
    a.state = state;
    a.summary = "sda: seq throughput dropped 18%";
    a.evidence_json = R"({"baseline_median":200,"current":164,"runs":[{"run_id":1}]})";
    a.opened_at = 1700000100;
    a.updated_at = 1700000100;
    if (state == "resolved") a.resolved_at = 1700000200;
    auto id = store_->InsertAlert(a);
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    return *id;
  }

  TempDir tmp_;
  FakeClock clock_;
  Drive drive_;
  std::unique_ptr<Store> store_;
  IdleProbe probe_;
  std::unique_ptr<StoreSchedulerStore> sched_store_;
  std::unique_ptr<HoldingExecutor> executor_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<StoreAlertRepository> repo_;
  std::unique_ptr<AlertService> alerts_;
  std::unique_ptr<AlertDispatcher> dispatcher_;
};

// --- runs

TEST_F(ResourcesTest, PostRunWithoutSchedulerIs503) {
  Response r = Post("/api/v1/runs", R"({"drive":"sda","test":"seq"})");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(ErrorCode(r), "unavailable");
}

TEST_F(ResourcesTest, PostRunNeedsTheToken) {
  StartScheduler();
  EXPECT_EQ(Post("/api/v1/runs", R"({"drive":"sda"})", nullptr).status, 401);
  EXPECT_EQ(Post("/api/v1/runs", R"({"drive":"sda"})", "wrong").status, 401);
  ApiContext ctx;  // no token configured: mutating calls are disabled
  ctx.store = store_.get();
  ctx.clock = &clock_;
  ctx.scheduler = scheduler_.get();
  Request req = Request::Make(Method::kPost, "/api/v1/runs", R"({"drive":"sda"})");
  req.headers.push_back({"Authorization", "Bearer anything"});
  EXPECT_EQ(testing::RouteAndRecord(*BuildApiRouter(ctx), req).status, 403);
  auto runs = store_->ListRuns(RunFilter{});
  ASSERT_TRUE(runs.ok());
  EXPECT_TRUE(runs->empty()) << "a refused request must not queue a run";
}

TEST_F(ResourcesTest, PostRunRejectsBadInput) {
  StartScheduler();
  EXPECT_EQ(ErrorCode(Post("/api/v1/runs", R"({"drive":"sdz","test":"seq"})")), "unknown_drive");
  EXPECT_EQ(Post("/api/v1/runs", R"({"drive":"sdz"})").status, 400);
  Response t = Post("/api/v1/runs", R"({"drive":"sda","test":"fast"})");
  EXPECT_EQ(t.status, 400);
  EXPECT_EQ(ErrorCode(t), "unknown_test");
  EXPECT_EQ(Post("/api/v1/runs", R"({"test":"seq"})").status, 400);
  EXPECT_EQ(Post("/api/v1/runs", "{not json").status, 400);
  EXPECT_EQ(Post("/api/v1/runs", "[1]").status, 400);
  EXPECT_EQ(Post("/api/v1/runs", R"({"drive":"sda","force":"yes"})").status, 400);
}

TEST_F(ResourcesTest, RunNowShowsProgressThenResultAndIsListed) {
  StartScheduler();
  Response posted = Post("/api/v1/runs", R"({"drive":"sda","test":"seq"})");
  ASSERT_EQ(posted.status, 202) << posted.body;
  auto id = json::parse(posted.body)["id"].get<std::int64_t>();
  EXPECT_EQ(*posted.Header("Location"), "/api/v1/runs/" + std::to_string(id));

  ASSERT_TRUE(executor_->WaitRunning());
  auto live = json::parse(Get("/api/v1/runs/" + std::to_string(id)).body);
  EXPECT_EQ(live["outcome"], "running");
  EXPECT_DOUBLE_EQ(live["progress"].get<double>(), 0.4);
  EXPECT_EQ(live["active"], true);
  EXPECT_EQ(live["drive_id"], drive_.id);
  EXPECT_EQ(live["trigger"], "api");

  auto list = json::parse(Get("/api/v1/runs?drive=sda").body);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["outcome"], "running");
  EXPECT_DOUBLE_EQ(list[0]["progress"].get<double>(), 0.4);

  executor_->Release();
  scheduler_->WaitIdle();
  auto done = json::parse(Get("/api/v1/runs/" + std::to_string(id)).body);
  EXPECT_EQ(done["outcome"], "ok");
  EXPECT_EQ(done["active"], false);
  EXPECT_TRUE(done["points"].is_array());
}

TEST_F(ResourcesTest, CancelRunningRunThenCancelAgainIsConflict) {
  StartScheduler();
  auto id = json::parse(Post("/api/v1/runs", R"({"drive":"/dev/sda","test":"seq"})").body)["id"]
                .get<std::int64_t>();
  ASSERT_TRUE(executor_->WaitRunning());
  std::string path = "/api/v1/runs/" + std::to_string(id) + "/cancel";
  EXPECT_EQ(Post(path, "", nullptr).status, 401);
  EXPECT_EQ(Post(path).status, 202);
  executor_->Poke();
  scheduler_->WaitIdle();
  auto run = json::parse(Get("/api/v1/runs/" + std::to_string(id)).body);
  EXPECT_EQ(run["outcome"], "cancelled");
  Response again = Post(path);
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(Post("/api/v1/runs/999/cancel").status, 404);
}

TEST_F(ResourcesTest, RunsFromTheStoreWithoutScheduler) {
  std::int64_t ok = AddRun("seq", RunOutcome::kOk, 1700000000, {SeqPoint(201.5)});
  AddRun("seq", RunOutcome::kDeferred, 1700003600, {}, "busy");
  auto one = json::parse(Get("/api/v1/runs/" + std::to_string(ok)).body);
  EXPECT_EQ(one["outcome"], "ok");
  ASSERT_EQ(one["points"].size(), 1u);
  EXPECT_DOUBLE_EQ(one["points"][0]["mb_per_s"].get<double>(), 201.5);
  EXPECT_DOUBLE_EQ(one["points"][0]["p99_us"].get<double>(), 5000);

  auto list = json::parse(Get("/api/v1/runs?drive=" + drive_.id + "&limit=1").body);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["outcome"], "deferred");
  EXPECT_EQ(list[0]["reason"], "busy");
  EXPECT_EQ(json::parse(Get("/api/v1/runs?outcome=ok").body).size(), 1u);

  EXPECT_EQ(Get("/api/v1/runs/12345").status, 404);
  EXPECT_EQ(Get("/api/v1/runs/abc").status, 404);
  EXPECT_EQ(Get("/api/v1/runs?drive=nope").status, 404);
  EXPECT_EQ(Get("/api/v1/runs?limit=0").status, 400);
  EXPECT_EQ(Get("/api/v1/runs?outcome=great").status, 400);
  Response del = Call(Method::kDelete, "/api/v1/runs/1");
  EXPECT_EQ(del.status, 405);
  EXPECT_EQ(Call(Method::kPut, "/api/v1/runs").status, 405);
}

// --- alerts

TEST_F(ResourcesTest, AlertsListFiltersByState) {
  std::int64_t open = AddAlert("slowdown:seq:qd8-1m:mb_per_s");
  AddAlert("smart:reallocated", "resolved");
  auto active = json::parse(Get("/api/v1/alerts").body);
  ASSERT_EQ(active.size(), 1u);
  EXPECT_EQ(active[0]["id"], open);
  EXPECT_EQ(active[0]["state"], "open");
  EXPECT_EQ(active[0]["evidence"]["baseline_median"], 200);
  EXPECT_EQ(json::parse(Get("/api/v1/alerts?state=all").body).size(), 2u);
  EXPECT_EQ(json::parse(Get("/api/v1/alerts?state=resolved").body).size(), 1u);
  EXPECT_EQ(json::parse(Get("/api/v1/alerts?state=acknowledged").body).size(), 0u);
  EXPECT_EQ(json::parse(Get("/api/v1/alerts?state=all&drive=sda").body).size(), 2u);
  EXPECT_EQ(Get("/api/v1/alerts?state=weird").status, 400);
  EXPECT_EQ(Get("/api/v1/alerts/" + std::to_string(open)).status, 200);
  EXPECT_EQ(Get("/api/v1/alerts/777").status, 404);
}

// An alert says what happened, how sure and what to do; a SMART alert's
// count is the raw count the drive's SMART table gives (not the normalised
// value or the worst beside it).
TEST_F(ResourcesTest, AlertsCarryTheirWordsAndTheSmartTablesFigure) {
  repo_ = std::make_unique<StoreAlertRepository>(*store_);
  alerts_ = std::make_unique<AlertService>(*repo_, nullptr, clock_, AlertServiceOptions{});
  auto snapshot = [](std::uint64_t pending) {
    SmartSnapshot s;
    s.protocol = "ATA";
    s.health_passed = true;
    s.pending_sectors = pending;
    SmartAttribute a;
    a.id = 197;
    a.name = "Current_Pending_Sector";
    a.value = 200;
    a.worst = 200;
    a.raw = pending;
    a.raw_string = std::to_string(pending);
    s.attributes.push_back(a);
    return s;
  };
  const SmartSnapshot before = snapshot(107), now = snapshot(128);
  ASSERT_TRUE(store_->InsertSmartSnapshot(drive_.id, 1700000000, before).ok());
  ASSERT_TRUE(store_->InsertSmartSnapshot(drive_.id, 1700086400, now).ok());
  clock_.Set(FromUnixSeconds(1700086400));
  ASSERT_TRUE(alerts_
                  ->OnVerdicts(detect::EvaluateSmart(drive_.id, "sda", &before, now, 1700086400,
                                                     DetectionConfig{}))
                  .ok());
  auto list = json::parse(Get("/api/v1/alerts").body);
  ASSERT_EQ(list.size(), 1u) << list.dump();
  const json& a = list[0];
  EXPECT_EQ(a["condition"], "smart:pending_sectors");
  EXPECT_EQ(a["headline"],
            "sda has 128 sectors it could not read (pending), 21 more than at the check before");
  EXPECT_EQ(a["confidence"], "Certain (read from SMART, under an hour)");
  EXPECT_NE(a["advice"].get<std::string>().find("order a replacement"), std::string::npos);
  // The same figure as the SMART table's newest raw count.
  auto smart = json::parse(Get("/api/v1/drives/sda/smart").body);
  EXPECT_EQ(smart["figures"]["pending_sectors"].back(), 128);
  for (const json& attr : smart["attributes"]) {
    if (attr["id"] == 197) {
      EXPECT_EQ(attr["raw"].back(), 128);
    }
  }
  EXPECT_NE(a["headline"].get<std::string>().find(
                std::to_string(smart["figures"]["pending_sectors"].back().get<int>())),
            std::string::npos);
  // One alert by id says the same.
  auto one = json::parse(Get("/api/v1/alerts/" + std::to_string(a["id"].get<int>())).body);
  EXPECT_EQ(one["headline"], a["headline"]);
  EXPECT_EQ(one["advice"], a["advice"]);
}

TEST_F(ResourcesTest, AckNeedsTokenAndService) {
  std::int64_t id = AddAlert("slowdown:seq:qd8-1m:mb_per_s");
  std::string path = "/api/v1/alerts/" + std::to_string(id) + "/ack";
  EXPECT_EQ(Post(path).status, 503);  // no alert service
  repo_ = std::make_unique<StoreAlertRepository>(*store_);
  alerts_ = std::make_unique<AlertService>(*repo_, nullptr, clock_, AlertServiceOptions{});
  EXPECT_EQ(Post(path, "", nullptr).status, 401);
  Response r = Post(path);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["state"], "acknowledged");
  EXPECT_EQ((*store_->GetAlert(id))->state, "acknowledged");
  EXPECT_EQ(Post("/api/v1/alerts/4242/ack").status, 404);
  std::int64_t resolved = AddAlert("smart:pending", "resolved");
  EXPECT_EQ(Post("/api/v1/alerts/" + std::to_string(resolved) + "/ack").status, 409);
  EXPECT_EQ(Get(path).status, 405);
}

TEST_F(ResourcesTest, AlertsTestReportsEverySink) {
  EXPECT_EQ(Post("/api/v1/alerts/test").status, 503);
  dispatcher_ = std::make_unique<AlertDispatcher>();
  auto good = std::make_unique<RecordingSink>("webhook-0", Status::Ok());
  auto bad = std::make_unique<RecordingSink>("mail", Unavailable("sendmail exited 75"));
  RecordingSink* good_ptr = good.get();
  dispatcher_->AddSink(std::move(good), SinkPolicy{});
  dispatcher_->AddSink(std::move(bad), SinkPolicy{});
  EXPECT_EQ(Post("/api/v1/alerts/test", "", nullptr).status, 401);
  Response r = Post("/api/v1/alerts/test");
  ASSERT_EQ(r.status, 200) << r.body;
  auto sinks = json::parse(r.body)["sinks"];
  ASSERT_EQ(sinks.size(), 2u);
  EXPECT_EQ(sinks[0]["sink"], "webhook-0");
  EXPECT_EQ(sinks[0]["ok"], true);
  EXPECT_EQ(sinks[1]["ok"], false);
  EXPECT_EQ(sinks[1]["error"], "sendmail exited 75");
  ASSERT_EQ(good_ptr->sent.size(), 1u);
  EXPECT_EQ(good_ptr->sent[0].kind, NotifyKind::kTest);
  EXPECT_EQ(good_ptr->sent[0].host, "nas");
}

// --- drives

TEST_F(ResourcesTest, DriveDetailHasSmartAndPools) {
  auto bare = json::parse(Get("/api/v1/drives/sda").body);
  EXPECT_EQ(bare["id"], drive_.id);
  EXPECT_TRUE(bare["smart"].is_null());
  EXPECT_EQ(bare["pools"], json::array());

  SmartSnapshot s;
  s.protocol = "ATA";
  s.temperature_c = 38;
  s.reallocated_sectors = 3;
  s.health_passed = true;
  ASSERT_TRUE(store_->InsertSmartSnapshot(drive_.id, 1700000000, s).ok());
  Pool p;
  p.name = "tank";
  p.state = "ONLINE";
  Vdev v;
  v.name = "mirror-0";
  v.type = "mirror";
  v.role = "data";
  PoolMember m;
  m.path = "sda";
  m.state = "ONLINE";
  m.drive_id = drive_.id;
  m.checksum_errors = 2;
  v.members.push_back(m);
  p.vdevs.push_back(v);
  ASSERT_TRUE(store_->RecordPools({p}, 1700000000).ok());

  auto j = json::parse(Get("/api/v1/drives/" + drive_.id).body);
  EXPECT_EQ(j["smart"]["temperature_c"], 38);
  EXPECT_EQ(j["smart"]["reallocated_sectors"], 3);
  ASSERT_EQ(j["pools"].size(), 1u);
  EXPECT_EQ(j["pools"][0]["pool"], "tank");
  EXPECT_EQ(j["pools"][0]["vdev"], "mirror-0");
  EXPECT_EQ(j["pools"][0]["checksum_errors"], 2);
  EXPECT_EQ(Get("/api/v1/drives/sdq").status, 404);
}

TEST_F(ResourcesTest, HistoryGivesSeriesWithFlagsAndBaseline) {
  for (int i = 0; i < 6; ++i) AddRun("seq", RunOutcome::kOk, 1700000000 + i * 86400,
                                     {SeqPoint(200 + i % 3)});
  AddRun("seq", RunOutcome::kOk, 1700000000 + 6 * 86400, {SeqPoint(120, /*contended=*/true)});
  Response r = Get("/api/v1/drives/sda/history?test=seq&metric=mb_per_s");
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = json::parse(r.body);
  EXPECT_EQ(j["unit"], "MB/s");
  EXPECT_EQ(j["direction"], "higher_is_better");
  ASSERT_EQ(j["series"].size(), 1u);
  const auto& s = j["series"][0];
  EXPECT_EQ(s["key"], "qd8-1m");
  ASSERT_EQ(s["samples"].size(), 7u);
  EXPECT_LT(s["samples"][0]["at"].get<long long>(), s["samples"][6]["at"].get<long long>());
  EXPECT_EQ(s["samples"][6]["contended"], true);
  ASSERT_TRUE(s["baseline"].is_object());
  EXPECT_EQ(s["baseline"]["ready"], true);
  EXPECT_EQ(s["baseline"]["runs"], 6);  // the contended run is not part of it
  EXPECT_NEAR(s["baseline"]["median"].get<double>(), 201, 1);
  EXPECT_LT(s["baseline"]["low"].get<double>(), 200);
  EXPECT_GT(s["baseline"]["high"].get<double>(), 202);

  auto p99 = json::parse(Get("/api/v1/drives/sda/history?test=seq&metric=p99_us").body);
  EXPECT_EQ(p99["direction"], "lower_is_better");
  EXPECT_DOUBLE_EQ(p99["series"][0]["samples"][0]["value"].get<double>(), 5000);
  auto empty = json::parse(Get("/api/v1/drives/sda/history?test=seek&metric=access_ms").body);
  EXPECT_EQ(empty["series"], json::array());

  EXPECT_EQ(Get("/api/v1/drives/sda/history").status, 400);
  EXPECT_EQ(Get("/api/v1/drives/sda/history?test=bogus&metric=iops").status, 400);
  EXPECT_EQ(Get("/api/v1/drives/nope/history?test=seq&metric=iops").status, 404);
}

// points=N thins each series to at most N samples for a chart, keeping the
// dip; the band is the same; fewer samples than N come whole.
TEST_F(ResourcesTest, HistoryThinsSeriesToThePointsAskedKeepingTheDip) {
  for (int i = 0; i < 40; ++i)
    AddRun("seq", RunOutcome::kOk, 1700000000 + i * 86400, {SeqPoint(i == 23 ? 130 : 200 + i % 3)});
  const json whole = json::parse(Get("/api/v1/drives/sda/history?test=seq&metric=mb_per_s").body);
  Response r = Get("/api/v1/drives/sda/history?test=seq&metric=mb_per_s&points=10");
  ASSERT_EQ(r.status, 200) << r.body;
  const json thin = json::parse(r.body);
  ASSERT_EQ(thin["series"].size(), 1u);
  const json& samples = thin["series"][0]["samples"];
  EXPECT_LE(samples.size(), 10u);
  EXPECT_GE(samples.size(), 5u);
  EXPECT_EQ(thin["series"][0]["samples_total"], 40);
  EXPECT_EQ(whole["series"][0]["samples"].size(), 40u);
  EXPECT_EQ(whole["series"][0]["samples_total"], 40);
  EXPECT_TRUE(std::any_of(samples.begin(), samples.end(),
                          [](const json& p) { return p["value"].get<double>() == 130; }))
      << samples;
  EXPECT_EQ(thin["series"][0]["baseline"], whole["series"][0]["baseline"]);
  const json all = json::parse(Get("/api/v1/drives/sda/history?test=seq&metric=mb_per_s&points=40").body);
  EXPECT_EQ(all["series"][0]["samples"], whole["series"][0]["samples"]);
  for (const char* bad : {"1", "0", "10001", "x"})
    EXPECT_EQ(Get(std::string("/api/v1/drives/sda/history?test=seq&metric=mb_per_s&points=") + bad).status, 400)
        << bad;
}

// A start that agreed too well is widened by the runs waiting to join it,
// and the history says so beside the figure (the band is the detector's).
TEST_F(ResourcesTest, HistoryNamesTheWaitingRunsThatWidenedTheBand) {
  const double values[] = {200, 204, 198, 201, 199, 190, 197, 186};
  for (int i = 0; i < 8; ++i)
    AddRun("seq", RunOutcome::kOk, 1700000000 + i * 7 * 86400, {SeqPoint(values[i])});
  auto seq = json::parse(Get("/api/v1/drives/sda/history?test=seq&metric=mb_per_s").body);
  const auto& b = seq["series"][0]["baseline"];
  ASSERT_TRUE(b.is_object()) << seq.dump();
  EXPECT_EQ(b["runs"], 5);
  // 190 and 197 wait (186, the newest, not yet): their scatter is wider
  // than the five runs'.
  EXPECT_EQ(b["noise_waiting_runs"], 2);
  EXPECT_EQ(b["noise_pooled"], false);
  EXPECT_GT(b["noise_percent"].get<double>(), 1.2 * b["noise_own_percent"].get<double>());
}

// The band drawn is the detector's: a series' spread pooled with the series
// that read the same path (here the three zones beside seq), and the
// series' own spread beside it.
TEST_F(ResourcesTest, HistoryBandUsesTheReadPathsPooledSpread) {
  const double zone_level[] = {250, 200, 120};
  const char* zone_name[] = {"outer", "middle", "inner"};
  for (int i = 0; i < 8; ++i) {
    const std::int64_t at = 1700000000 + i * 86400;
    AddRun("seq", RunOutcome::kOk, at, {SeqPoint(i % 2 ? 201 : 199)});
    std::vector<BenchPoint> zones;
    for (int z = 0; z < 3; ++z) {
      BenchPoint p = SeqPoint(zone_level[z] * (i % 2 ? 1.04 : 0.96));
      p.test = "zones";
      p.zone = zone_name[z];
      zones.push_back(p);
    }
    AddRun("zones", RunOutcome::kOk, at + 600, zones);
  }
  auto seq = json::parse(Get("/api/v1/drives/sda/history?test=seq&metric=mb_per_s").body);
  const auto& b = seq["series"][0]["baseline"];
  ASSERT_TRUE(b.is_object()) << seq.dump();
  EXPECT_EQ(b["noise_pooled"], true);
  EXPECT_NEAR(b["noise_own_percent"].get<double>(), 0.55, 0.1);
  // Three zones of CV ~4% beside seq's 0.5%: the pooled figure is mostly theirs.
  EXPECT_GT(b["noise_percent"].get<double>(), 3.0);
  auto zones = json::parse(Get("/api/v1/drives/sda/history?test=zones&metric=mb_per_s").body);
  ASSERT_EQ(zones["series"].size(), 4u);
  for (int z = 0; z < 3; ++z) EXPECT_EQ(zones["series"][z]["baseline"]["noise_pooled"], true);
  // And their combined series, as detection judges it: the geometric mean of
  // the three, on its own spread (the zones moved together here: ~4%).
  const auto& combined = zones["series"][3];
  EXPECT_EQ(combined["key"], "combined");
  ASSERT_EQ(combined["samples"].size(), 8u);
  EXPECT_NEAR(combined["samples"][0]["value"].get<double>(), std::cbrt(250.0 * 200 * 120) * 0.96,
              1e-6);
  EXPECT_EQ(combined["baseline"]["noise_pooled"], false);
  EXPECT_NEAR(combined["baseline"]["noise_percent"].get<double>(), 4.4, 0.6) << combined.dump();
}

// A drive that dropped and stayed slow for longer than the window: the band
// drawn is still the one formed at its healthy start (as detection's is).
TEST_F(ResourcesTest, HistoryBandComesFromTheStartWhenTheWindowIsCut) {
  for (int i = 0; i < 10; ++i)
    AddRun("seq", RunOutcome::kOk, 1700000000 + i * 3600, {SeqPoint(i % 2 ? 201 : 199)});
  for (int i = 10; i < 40; ++i)
    AddRun("seq", RunOutcome::kOk, 1700000000 + i * 3600, {SeqPoint(170 + i % 3)});
  auto cut = json::parse(Get("/api/v1/drives/sda/history?test=seq&metric=mb_per_s&limit=20").body);
  ASSERT_EQ(cut["series"].size(), 1u);
  EXPECT_EQ(cut["series"][0]["samples"].size(), 20u);
  ASSERT_TRUE(cut["series"][0]["baseline"].is_object()) << cut.dump();
  EXPECT_NEAR(cut["series"][0]["baseline"]["median"].get<double>(), 200, 1.5) << cut.dump();
  auto whole = json::parse(Get("/api/v1/drives/sda/history?test=seq&metric=mb_per_s").body);
  EXPECT_NEAR(whole["series"][0]["baseline"]["median"].get<double>(), 200, 1.5);
}

// --- schedule and metrics

TEST_F(ResourcesTest, ScheduleFromSchedulerOrPlan) {
  ApiContext ctx;
  ctx.store = store_.get();
  ctx.clock = &clock_;
  ScheduleConfig daily;
  daily.name = "daily-smart";
  daily.tests = {"smart"};
  daily.when = *ParseScheduleWhen("@every 6h");
  ctx.schedules = {daily};
  auto plan = json::parse(
      testing::RouteAndRecord(*BuildApiRouter(ctx), Request::Make(Method::kGet, "/api/v1/schedule?count=2")).body);
  EXPECT_EQ(plan["source"], "plan");
  ASSERT_EQ(plan["targets"].size(), 1u);
  EXPECT_EQ(plan["targets"][0]["schedule"], "daily-smart");
  EXPECT_EQ(plan["targets"][0]["label"], "sda");
  EXPECT_EQ(plan["targets"][0]["due"].size(), 2u);

  StartScheduler();
  auto live = json::parse(Get("/api/v1/schedule").body);
  EXPECT_EQ(live["source"], "scheduler");
  ASSERT_EQ(live["targets"].size(), 1u);
  EXPECT_EQ(live["targets"][0]["schedule"], "weekly-read");
  EXPECT_EQ(live["targets"][0]["due"].size(), 3u);
  EXPECT_EQ(Get("/api/v1/schedule?count=0").status, 400);
}

}  // namespace
}  // namespace dp::http
