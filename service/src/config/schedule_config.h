// ScheduleConfig, SchedulerConfig: the typed form of the config file's
// "schedules" array and "scheduler" object. Lives in config/
// (layer 2) so ParseConfig validates them for `--check-config`, naming the
// key ("FILE:LINE: schedules[2].when: invalid cron expression ..."); sched/ (layer 3)
// does the arithmetic. Plain value types; every field states its default.
//
// Example (all keys but "tests" and "when" optional):
//   "schedules": [
//     {"name": "weekly-read", "tests": ["zones", "seek"], "when": "0 3 * * sun",
//      "jitter": "2h", "drives": ["sda", "wwn-5000c500a1b2c3d4"],
//      "models": ["WDC WD80*"], "pools": ["tank"],
//      "targets": [{"path": "/dev/loop3", "name": "bench-a"}]},
//     {"name": "smart", "tests": ["smart"], "when": "@every 4h"}
//   ],
//   "scheduler": {"max_concurrent": 2, "max_per_controller": 1,
//                 "busy_above": 0.10, "max_temperature_c": 55,
//                 "defer_window": "6h", "retry_every": "15m"}
// Without a "schedules" key the defaults of DefaultSchedules() apply;
// "schedules": [] schedules nothing.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "config/cron_expr.h"

namespace dp {

class JsonWalker;
struct TargetConfig;

// The tests a schedule may name, in the order `diskpulse` documents them.
const std::vector<std::string>& KnownTests();
bool IsKnownTest(std::string_view test);

// "30s", "15m", "6h", "2d", "1w", combinations "1h30m", or a bare number of
// seconds, up to kLongestDurationSeconds. Errors say what was expected.
Result<std::int64_t> ParseDurationSeconds(std::string_view text);
constexpr std::int64_t kLongestDurationSeconds = 366LL * 86400 * 10;  // "10 years"
// 21600 -> "6h", 5400 -> "1h30m", 0 -> "0s".
std::string FormatDuration(std::int64_t seconds);

// When a schedule is due: a cron expression in local time, or a fixed
// interval counted from the last run ("@every 6h").
struct ScheduleWhen {
  std::string text;                // as written
  std::optional<CronExpr> cron;    // set for cron expressions and aliases
  std::int64_t every_seconds = 0;  // > 0 for "@every DURATION"
  bool is_interval() const { return every_seconds > 0; }
  bool operator==(const ScheduleWhen&) const = default;
};
// "0 3 * * sun", "@weekly", "@every 6h"; errors like
// "invalid cron expression '61 * * * *': minute 61 out of range 0-59".
Result<ScheduleWhen> ParseScheduleWhen(std::string_view text);

// Which drives/pools a schedule applies to. All empty: every drive,
// explicit targets included (and every pool for pool-level tests). Otherwise
// a drive is selected when any list matches it.
struct DriveSelection {
  std::vector<std::string> drives;  // drive ids or names (sda, bench-a, wwn-...)
  std::vector<std::string> models;  // shell globs over the model (fnmatch: "WDC WD80*")
  std::vector<std::string> pools;   // pool names: all their members (and the pool itself)
  bool empty() const { return drives.empty() && models.empty() && pools.empty(); }
  bool operator==(const DriveSelection&) const = default;
};

struct ScheduleConfig {
  std::string name;                 // unique; default "schedule-N" (N = index)
  std::vector<std::string> tests;   // required, each one of KnownTests()
  ScheduleWhen when;                // required
  std::int64_t jitter_seconds = 0;  // each drive starts at a fixed offset in [0, jitter)
  DriveSelection select;
  bool enabled = true;
  // pool-write runs only on these pools (those with a bench.scratch_dir);
  // nullopt: on any pool (a run asked for by hand).
  std::optional<std::vector<std::string>> write_pools;
  bool operator==(const ScheduleConfig&) const = default;
};

// Scheduler-wide limits and deferral rules.
struct SchedulerConfig {
  int max_concurrent = 2;      // tests running at once, overall (SMART reads not counted)
  int max_per_controller = 1;  // tests at once behind one controller/HBA
  double busy_above = 0.10;    // foreign busy share above which a drive is "busy"
  int max_temperature_c = 55;  // hotter drives are deferred ("temperature")
  std::int64_t defer_window_seconds =
      6 * 3600;                          // a deferred run is retried this long, then skipped
  std::int64_t retry_seconds = 15 * 60;  // between retries of a deferred run
  bool operator==(const SchedulerConfig&) const = default;
};

// What a NAS owner would pick (documented in config/diskpulse.json):
//   smart        ["smart"]                      "@every 4h"    jitter 30m
//   weekly-read  ["zones","seek","random","seq"] "0 3 * * sun" jitter 3h
//   smart-short  ["smart-short"]                "0 4 * * wed"  jitter 2h
//   smart-long   ["smart-long"]                 "0 1 15 * *"   jitter 6d
// Read tests are weekly on Sunday night, the short self-test mid-week away
// from them, the long self-test monthly spread over ~a week so the members of
// one pool don't all run it on the same day.
std::vector<ScheduleConfig> DefaultSchedules();

// Reads the root's "schedules" array, when present, into `out` (replacing the
// defaults), adding each schedule's "targets" to `targets` (once per path).
// `bench_scratch_dir` is config bench.scratch_dir (pool-write needs it).
void ReadSchedules(JsonWalker& root, const std::map<std::string, std::string>& bench_scratch_dir,
                   std::vector<ScheduleConfig>& out, std::vector<TargetConfig>& targets);

// Reads the "scheduler" object.
void ReadScheduler(JsonWalker& scheduler, SchedulerConfig& out);

}  // namespace dp
