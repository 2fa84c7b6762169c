#include "config/schedule_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "config/config.h"

namespace dp {
namespace {

using ::testing::HasSubstr;

std::string Errors(const std::string& text) {
  auto r = ParseConfig(text, "diskpulse.json");
  EXPECT_FALSE(r.ok()) << "parsed: " << text;
  return r.ok() ? "" : r.status().message();
}

TEST(ScheduleConfigTest, ParsesTheDocumentedExample) {
  const char* text = R"({
    "bench": {"scratch_dir": {"tank": "/mnt/tank/diskpulse"}},
    "targets": [{"path": "/dev/loop3", "name": "bench-a"}],
    "schedules": [
      {"name": "weekly-read", "tests": ["zones", "seek"], "when": "0 3 * * sun",
       "jitter": "2h", "drives": ["sda", "wwn-5000c500a1b2c3d4"],
       "models": ["WDC WD80*"], "pools": ["tank"],
       "targets": [{"path": "/dev/loop3", "name": "bench-a"}, {"path": "/dev/loop4"}]},
      {"name": "smart", "tests": "smart", "when": "@every 4h", "jitter": 600},
      {"tests": ["pool-write", "parallel"], "when": "@monthly", "enabled": false}
    ],
    "scheduler": {"max_concurrent": 3, "max_per_controller": 2, "busy_above": 0.2,
                  "max_temperature_c": 50, "defer_window": "2h", "retry_every": 300}
  })";
  auto r = ParseConfig(text, "x.json");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Config& c = *r;
  ASSERT_EQ(c.schedule_list.size(), 3u);
  const ScheduleConfig& w = c.schedule_list[0];
  EXPECT_EQ(w.name, "weekly-read");
  EXPECT_EQ(w.tests, (std::vector<std::string>{"zones", "seek"}));
  ASSERT_TRUE(w.when.cron);
  EXPECT_EQ(w.when.cron->days_of_week, 1u);
  EXPECT_EQ(w.jitter_seconds, 7200);
  EXPECT_EQ(w.select.drives,
            (std::vector<std::string>{"sda", "wwn-5000c500a1b2c3d4", "bench-a", "loop4"}));
  EXPECT_EQ(w.select.models, std::vector<std::string>{"WDC WD80*"});
  EXPECT_EQ(w.select.pools, std::vector<std::string>{"tank"});
  // The schedule's targets join the top-level ones, once per path.
  ASSERT_EQ(c.targets.size(), 2u);
  EXPECT_EQ(c.targets[1].path, "/dev/loop4");
  EXPECT_EQ(c.targets[1].name, "loop4");

  const ScheduleConfig& s = c.schedule_list[1];
  EXPECT_EQ(s.tests, std::vector<std::string>{"smart"});
  EXPECT_EQ(s.when.every_seconds, 4 * 3600);
  EXPECT_EQ(s.jitter_seconds, 600);
  EXPECT_EQ(c.schedule_list[2].name, "schedule-2");
  EXPECT_FALSE(c.schedule_list[2].enabled);

  EXPECT_EQ(c.scheduler.max_concurrent, 3);
  EXPECT_EQ(c.scheduler.max_per_controller, 2);
  EXPECT_DOUBLE_EQ(c.scheduler.busy_above, 0.2);
  EXPECT_EQ(c.scheduler.max_temperature_c, 50);
  EXPECT_EQ(c.scheduler.defer_window_seconds, 7200);
  EXPECT_EQ(c.scheduler.retry_seconds, 300);
}

TEST(ScheduleConfigTest, DefaultsWhenAbsentNothingWhenEmpty) {
  auto r = ParseConfig("{}", "x.json");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->schedule_list.size(), DefaultSchedules().size());
  std::vector<std::string> names;
  for (const auto& s : r->schedule_list) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"smart", "weekly-read", "smart-short", "smart-long"}));
  for (const auto& s : r->schedule_list) {
    EXPECT_GT(s.jitter_seconds, 0) << s.name << " is staggered";
    for (const auto& t : s.tests) EXPECT_TRUE(IsKnownTest(t)) << t;
  }
  EXPECT_EQ(r->scheduler.max_concurrent, 2);
  auto none = ParseConfig(R"({"schedules": []})", "x.json");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->schedule_list.empty());
}

TEST(ScheduleConfigTest, InvalidCronNamesTheKeyAndLine) {
  std::string e = Errors(R"({
  "schedules": [
    {"name": "a", "tests": ["seq"], "when": "0 3 * * *"},
    {"name": "b", "tests": ["seq"], "when": "@every 1h"},
    {"name": "c", "tests": ["seq"],
     "when": "61 * * * *"}
  ]
})");
  EXPECT_EQ(e,
            "diskpulse.json:6: schedules[2].when: invalid cron expression '61 * * * *': "
            "minute 61 out of range 0-59");
}

TEST(ScheduleConfigTest, RejectsUnknownTestsKeysAndBadValues) {
  EXPECT_THAT(Errors(R"({"schedules": [{"tests": ["seq", "speed"], "when": "@daily"}]})"),
              HasSubstr("schedules[0].tests: unknown test 'speed' (expected one of seq, zones, "
                        "seek"));
  EXPECT_THAT(Errors(R"({"schedules": [{"tests": ["seq"], "when": "@daily", "drive": ["sda"]}]})"),
              HasSubstr("schedules[0].drive: unknown key (misspelt?)"));
  EXPECT_THAT(Errors(R"({"schedules": [{"when": "@daily"}]})"),
              HasSubstr("schedules[0].tests: required"));
  EXPECT_THAT(Errors(R"({"schedules": [{"tests": []}]})"),
              HasSubstr("schedules[0].when: required"));
  EXPECT_THAT(Errors(R"({"schedules": [{"tests": [], "when": "@daily"}]})"),
              HasSubstr("schedules[0].tests: must name at least one test"));
  EXPECT_THAT(Errors(R"({"schedules": [{"tests": ["seq", "seq"], "when": "@daily"}]})"),
              HasSubstr("listed twice"));
  EXPECT_THAT(Errors(R"({"schedules": [{"tests": ["seq"], "when": "@every 6"}]})"),
              HasSubstr("schedules[0].when: invalid interval '@every 6'"));
  EXPECT_THAT(Errors(R"({"schedules": [{"tests": ["seq"], "when": "@every 6x"}]})"),
              HasSubstr("invalid duration '6x'"));
  EXPECT_THAT(Errors(R"({"schedules": [{"tests": ["seq"], "when": 5}]})"),
              HasSubstr("schedules[0].when: expected a cron expression"));
  EXPECT_THAT(Errors(R"({"schedules": [{"tests": ["seq"], "when": "@daily", "jitter": "soon"}]})"),
              HasSubstr("schedules[0].jitter: invalid duration 'soon'"));
  EXPECT_THAT(Errors(R"({"schedules": [{"name": "x y", "tests": ["seq"], "when": "@daily"}]})"),
              HasSubstr("schedules[0].name: expected a name"));
  EXPECT_THAT(Errors(R"({"schedules": [{"name": "x", "tests": ["seq"], "when": "@daily"},
                                       {"name": "x", "tests": ["seek"], "when": "@daily"}]})"),
              HasSubstr("schedules[1].name: duplicate schedule name 'x'"));
  EXPECT_THAT(Errors(R"({"schedules": [{"tests": ["pool-write"], "when": "@daily"}]})"),
              HasSubstr("pool-write needs bench.scratch_dir"));
  EXPECT_THAT(Errors(R"({"schedules": [42]})"), HasSubstr("schedules[0]: expected an object"));
  EXPECT_THAT(Errors(R"({"schedules": {}})"), HasSubstr("schedules: expected an array"));
  EXPECT_THAT(Errors(R"({"schedules": [{"tests": ["seq"], "when": "@daily",
                                        "targets": [{"name": "x"}]}]})"),
              HasSubstr("schedules[0].targets[0].path: required: the device or file to test"));
  EXPECT_THAT(Errors(R"({"scheduler": {"max_concurrent": 0}})"),
              HasSubstr("scheduler.max_concurrent: must be between 1 and 64, found 0"));
  EXPECT_THAT(Errors(R"({"scheduler": {"busy_above": 2}})"),
              HasSubstr("scheduler.busy_above: must be between 0 and 1, found 2"));
  EXPECT_THAT(Errors(R"({"scheduler": {"retry": "1m"}})"),
              HasSubstr("scheduler.retry: unknown key"));
  EXPECT_THAT(Errors(R"({"scheduler": {"defer_window": "later"}})"),
              HasSubstr("scheduler.defer_window: invalid duration 'later'"));
}

TEST(ScheduleConfigTest, Durations) {
  EXPECT_EQ(*ParseDurationSeconds("30s"), 30);
  EXPECT_EQ(*ParseDurationSeconds("15m"), 900);
  EXPECT_EQ(*ParseDurationSeconds("6h"), 21600);
  EXPECT_EQ(*ParseDurationSeconds("2d"), 172800);
  EXPECT_EQ(*ParseDurationSeconds("1w"), 604800);
  EXPECT_EQ(*ParseDurationSeconds("1h30m"), 5400);
  EXPECT_EQ(*ParseDurationSeconds("45"), 45);
  for (const char* bad : {"", "h", "1h30", "1y", "-5m", "1.5h", "99999999999999d"})
    EXPECT_FALSE(ParseDurationSeconds(bad).ok()) << bad;
  EXPECT_EQ(FormatDuration(5400), "1h30m");
  EXPECT_EQ(FormatDuration(0), "0s");
  EXPECT_EQ(FormatDuration(8 * 86400), "1w1d");
}

TEST(ScheduleConfigTest, When) {
  auto every = ParseScheduleWhen("@every 30s");
  ASSERT_TRUE(every.ok());
  EXPECT_TRUE(every->is_interval());
  EXPECT_EQ(every->every_seconds, 30);
  auto cron = ParseScheduleWhen("@weekly");
  ASSERT_TRUE(cron.ok());
  EXPECT_FALSE(cron->is_interval());
  EXPECT_TRUE(cron->cron.has_value());
  EXPECT_EQ(ParseScheduleWhen("@every 0s").status().message(),
            "invalid interval '@every 0s': must be at least 1s");
}

}  // namespace
}  // namespace dp

namespace dp {
namespace {

TEST(ScheduleConfigTest, TheShippedExampleSpellsOutTheDefaults) {
  auto r = LoadConfigFile(std::string(DP_SOURCE_DIR) + "/config/diskpulse.json");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto defaults = DefaultSchedules();
  ASSERT_EQ(r->schedule_list.size(), defaults.size());
  for (std::size_t i = 0; i < defaults.size(); ++i) {
    EXPECT_EQ(r->schedule_list[i].name, defaults[i].name);
    EXPECT_EQ(r->schedule_list[i].tests, defaults[i].tests);
    EXPECT_EQ(r->schedule_list[i].when.text, defaults[i].when.text);
    EXPECT_EQ(r->schedule_list[i].jitter_seconds, defaults[i].jitter_seconds);
  }
  SchedulerConfig d;
  EXPECT_EQ(r->scheduler.max_concurrent, d.max_concurrent);
  EXPECT_EQ(r->scheduler.max_per_controller, d.max_per_controller);
  EXPECT_EQ(r->scheduler.busy_above, d.busy_above);
  EXPECT_EQ(r->scheduler.max_temperature_c, d.max_temperature_c);
  EXPECT_EQ(r->scheduler.defer_window_seconds, d.defer_window_seconds);
  EXPECT_EQ(r->scheduler.retry_seconds, d.retry_seconds);
}

}  // namespace
}  // namespace dp
