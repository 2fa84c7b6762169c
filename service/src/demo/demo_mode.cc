#include "demo/demo_mode.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <deque>
#include <filesystem>

#include "alert/alert_service.h"
#include "base/fake_clock.h"
#include "base/log.h"
#include "watch/health_checks.h"
#include "runs/run_evaluator.h"
#include "runs/store_alert_repository.h"
#include "store/store.h"

namespace dp {
namespace {

constexpr std::int64_t kDay = 86400;
constexpr std::int64_t kWeek = 7 * kDay;
constexpr int kJudgedWeeks = 30;

Result<std::vector<ScheduleConfig>> DemoSchedules() {
  struct Spec {
    const char* name;
    std::vector<std::string> tests;
    const char* when;
  };
  const std::vector<Spec> specs = {
      {"demo-smart", {"smart"}, "@every 5m"},
      {"demo-seq", {"seq"}, "@every 3m"},
      {"demo-profile", {"zones", "seek", "random"}, "@every 15m"},
  };
  std::vector<ScheduleConfig> out;
  for (const Spec& s : specs) {
    ScheduleConfig c;
    c.name = s.name;
    c.tests = s.tests;
    DP_ASSIGN_OR_RETURN(c.when, ParseScheduleWhen(s.when));
    out.push_back(std::move(c));
  }
  return out;
}

// One stored run of `test` at `at` with its points (or a SMART snapshot).
Result<Run> StoreRun(Store& store, const DemoWorld& world, const Drive& d,
                     const std::string& test, std::int64_t at, const std::string& trigger) {
  Run run;
  run.drive_id = d.id;
  run.test = test;
  run.trigger = trigger;
  run.started_at = at;
  run.ended_at = at + 120;
  run.outcome = RunOutcome::kOk;
  run.progress = 1;
  run.engine = "simulated";
  if (test == "smart") {
    DP_ASSIGN_OR_RETURN(SmartSnapshot s, world.Smart(d.id, at));
    DP_RETURN_IF_ERROR(store.InsertSmartSnapshot(d.id, at, s).status());
    run.engine = "smartctl (replayed capture)";
    DP_ASSIGN_OR_RETURN(run.id, store.InsertRun(run));
    return run;
  }
  DP_ASSIGN_OR_RETURN(std::vector<BenchPoint> points, world.Measure(d.id, test, at));
  DP_ASSIGN_OR_RETURN(run.id, store.InsertRun(run));
  DP_RETURN_IF_ERROR(store.AddMeasurements(run.id, points));
  return run;
}

Status Seed(Store& store, const DemoWorld& world, const DetectionConfig& detection,
            std::int64_t now, int weeks, DemoSetup& setup) {
  for (const Drive& d : world.drives()) DP_RETURN_IF_ERROR(store.UpsertDrive(d, world.epoch()));
  DP_RETURN_IF_ERROR(store.RecordPools(world.pools(), world.epoch()));

  FakeClock clock;
  StoreAlertRepository repo(store);
  AlertServiceOptions alert_options;
  alert_options.notify = false;
  AlertService alerts(repo, nullptr, clock, alert_options);
  std::deque<std::pair<std::string, std::string>> confirm;
  RunEvaluator evaluator(store, &alerts, detection,
                         [&](const std::string& drive_id, const std::string& test,
                             std::int64_t of_run) {
                           (void)of_run;
                           confirm.emplace_back(drive_id, test);
                         });
  auto judge = [&](const Run& run) -> Status {
    clock.Set(FromUnixSeconds(run.started_at + 120));
    return evaluator.Evaluate(run).status();
  };

  // Sunday 03:00-ish, drive after drive, like the default weekly schedule.
  const std::int64_t first = now - static_cast<std::int64_t>(weeks) * kWeek;
  for (int w = 0; w < weeks; ++w) {
    const std::int64_t week = first + w * kWeek;
    const bool judged = w >= weeks - kJudgedWeeks;
    for (std::size_t i = 0; i < world.drives().size(); ++i) {
      const Drive& d = world.drives()[i];
      std::int64_t at = week + static_cast<std::int64_t>(i) * 1500;
      for (const std::string& test : DemoWorld::ReadTests()) {
        DP_ASSIGN_OR_RETURN(Run run, StoreRun(store, world, d, test, at, "schedule:weekly-read"));
        ++setup.seeded_runs;
        if (judged) DP_RETURN_IF_ERROR(judge(run));
        at += 180;
      }
      // A confirmation re-test an hour later (the daemon waits
      // retest_delay_minutes; the seeded weeks keep the old spacing, which the
      // planted problems were sized for).
      while (!confirm.empty()) {
        auto [drive_id, test] = confirm.front();
        confirm.pop_front();
        for (const Drive& c : world.drives()) {
          if (c.id != drive_id) continue;
          DP_ASSIGN_OR_RETURN(Run run, StoreRun(store, world, c, test, at + 3600, "confirm"));
          ++setup.seeded_runs;
          DP_RETURN_IF_ERROR(judge(run));
        }
      }
      // SMART once a day (the page's temperature history), judged weekly,
      // and the newest judged too: the page's SMART table shows that one,
      // and an alert that told an older count would disagree with it.
      for (int day = 0; day < 7; ++day) {
        // At a different hour each day, so the history shows the daily swing.
        auto sat_of = [&](int dd) {
          const std::int64_t hour = (dd * 7 + w * 5 + static_cast<std::int64_t>(i)) % 24;
          return week + dd * kDay + hour * 3600 + static_cast<std::int64_t>(i) * 60;
        };
        const std::int64_t sat = sat_of(day);
        if (sat > now) break;
        const bool newest = w == weeks - 1 && (day == 6 || sat_of(day + 1) > now);
        if ((day == 0 && judged) || newest) {
          DP_ASSIGN_OR_RETURN(Run run, StoreRun(store, world, d, "smart", sat, "schedule:smart"));
          DP_RETURN_IF_ERROR(judge(run));
        } else {
          DP_ASSIGN_OR_RETURN(SmartSnapshot s, world.Smart(d.id, sat));
          DP_RETURN_IF_ERROR(store.InsertSmartSnapshot(d.id, sat, s).status());
        }
      }
    }
  }
  // What a discovery pass would find now: the drive that went missing, the
  // overdue scrub and self-test (the demo runs no discovery of its own).
  const Drive& lost = world.lost_drive();
  DP_RETURN_IF_ERROR(store.UpsertDrive(lost, world.epoch()));
  DP_RETURN_IF_ERROR(store.UpsertDrive(lost, world.lost_at() - 600));
  std::vector<std::string> present;
  for (const Drive& d : world.drives()) present.push_back(d.id);
  DP_RETURN_IF_ERROR(store.MarkMissingExcept(present, world.lost_at()));
  DP_RETURN_IF_ERROR(store.RecordPools(world.pools(), now));
  clock.Set(FromUnixSeconds(now));
  DP_RETURN_IF_ERROR(ApplyHealth(store, alerts, world.pools(), true, now, detection));
  DP_ASSIGN_OR_RETURN(std::vector<Alert> active, store.ListAlerts(AlertFilter{"active", "", 0}));
  setup.alerts = static_cast<int>(active.size());
  return Status::Ok();
}

}  // namespace

Result<DemoSetup> PrepareDemo(Config& config, std::int64_t now, int weeks) {
  // $TMPDIR if set; else /dev/shm where there is one (a RAM disk: seeding
  // commits thousands of transactions), else the system's temporary folder.
  std::filesystem::path base = std::filesystem::temp_directory_path();
  std::error_code ec;
  if (!std::getenv("TMPDIR") && std::filesystem::is_directory("/dev/shm", ec) &&
      ::access("/dev/shm", W_OK) == 0)
    base = "/dev/shm";
  std::string pattern = (base / "diskpulse-demo-XXXXXX").string();
  if (!::mkdtemp(pattern.data()))
    return ErrnoStatus(errno, "cannot make a temporary folder for the demo");
  DemoSetup setup;
  setup.dir = pattern;
  auto world = std::make_shared<DemoWorld>(
      now - static_cast<std::int64_t>(weeks) * kWeek - 30 * kDay, now);
  setup.world = world;

  config.database = setup.dir + "/diskpulse.db";
  config.pidfile.clear();
  config.replay_dir.clear();
  config.user.clear();
  config.targets.clear();
  if (config.api_token.empty()) config.api_token = "demo";
  DP_ASSIGN_OR_RETURN(config.schedule_list, DemoSchedules());
  config.scheduler.max_concurrent = 2;
  config.scheduler.max_per_controller = 2;

  auto store = Store::Open(config.database);
  if (!store.ok()) {
    RemoveDemo(setup);
    return store.status();
  }
  Status seeded = Seed(**store, *world, config.alerts_config.detection, now, weeks, setup);
  if (!seeded.ok()) {
    RemoveDemo(setup);
    return seeded.WithContext("cannot seed the demo database");
  }
  return setup;
}

void RemoveDemo(const DemoSetup& setup) {
  if (setup.dir.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(setup.dir, ignored);
}

}  // namespace dp
