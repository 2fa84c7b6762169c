// One set of rules for every section of the configuration file (the core
// keys, targets, schedules, scheduler, alerts and its sinks and detection):
// each rule is tried on each section, and the whole message is asserted, so
// the format "FILE:LINE: key.path: what is wrong" cannot drift in one of them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "config/config.h"

namespace dp {
namespace {

struct Case {
  const char* text;
  const char* message;  // the whole status message
};

// Each text puts the offending key on its own line, so that LINE is checked.
void ExpectRejected(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    auto r = ParseConfig(c.text, "/etc/diskpulse.json");
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(r.status().message(), c.message) << c.text;
  }
}

TEST(ConfigRulesTest, AWrongTypeInEverySection) {
  ExpectRejected({
      {"{\n  \"api_token\": 5\n}",
       "/etc/diskpulse.json:2: api_token: expected a string, found an integer"},
      {"{\"tls\":\n  {\"cert_file\": [], \"key_file\": \"k\"}\n}",
       "/etc/diskpulse.json:2: tls.cert_file: expected a string, found an array"},
      {"{\"http\": {\n  \"max_connections\": \"64\"}}",
       "/etc/diskpulse.json:2: http.max_connections: expected a number, found a string"},
      {"{\"tools\": {\n  \"smartctl\": null}}",
       "/etc/diskpulse.json:2: tools.smartctl: expected a string, found null"},
      {"{\"inventory\": {\n  \"exclude\": {\"sda\": true}}}",
       "/etc/diskpulse.json:2: inventory.exclude: expected an array of strings, found an "
       "object"},
      {"{\"bench\": {\n  \"busy_threshold\": true}}",
       "/etc/diskpulse.json:2: bench.busy_threshold: expected a number, found a boolean"},
      {"{\"retention\": {\n  \"enabled\": \"yes\"}}",
       "/etc/diskpulse.json:2: retention.enabled: expected true or false, found a string"},
      {"{\"targets\": [\n  {\"path\": 3}]}",
       "/etc/diskpulse.json:2: targets[0].path: expected a string, found an integer"},
      {"{\"targets\": [\n  \"/dev/sda\"]}",
       "/etc/diskpulse.json:2: targets[0]: expected an object, found a string"},
      {"{\"schedules\": [{\"tests\": \"seq\", \"when\": \"@daily\",\n  \"enabled\": 1}]}",
       "/etc/diskpulse.json:2: schedules[0].enabled: expected true or false, found an integer"},
      {"{\"schedules\": [{\"tests\": \"seq\",\n  \"when\": 5}]}",
       "/etc/diskpulse.json:2: schedules[0].when: expected a cron expression or \"@every 6h\", "
       "found an integer"},
      {"{\"schedules\": [{\"tests\": \"seq\", \"when\": \"@daily\",\n  \"jitter\": true}]}",
       "/etc/diskpulse.json:2: schedules[0].jitter: expected a duration like \"30m\" or a "
       "number of seconds, found a boolean"},
      {"{\"scheduler\": {\n  \"max_concurrent\": \"2\"}}",
       "/etc/diskpulse.json:2: scheduler.max_concurrent: expected a number, found a string"},
      {"{\"alerts\": {\n  \"resolve_after_clear_runs\": \"3\"}}",
       "/etc/diskpulse.json:2: alerts.resolve_after_clear_runs: expected a number, found a "
       "string"},
      {"{\"alerts\": {\"webhooks\": [{\"url\": \"http://h/\",\n  \"verify_tls\": \"no\"}]}}",
       "/etc/diskpulse.json:2: alerts.webhooks[0].verify_tls: expected true or false, found a "
       "string"},
      {"{\"alerts\": {\"webhooks\": [{\"url\": \"http://h/\", \"headers\": {\n  \"X\": 1}}]}}",
       "/etc/diskpulse.json:2: alerts.webhooks[0].headers.X: expected a string, found an "
       "integer"},
      {"{\"alerts\": {\"mail\": [{\"to\": \"a@b\",\n  \"from\": false}]}}",
       "/etc/diskpulse.json:2: alerts.mail[0].from: expected a string, found a boolean"},
      {"{\"alerts\": {\"syslog\": {\n  \"enabled\": 1}}}",
       "/etc/diskpulse.json:2: alerts.syslog.enabled: expected true or false, found an integer"},
      {"{\"alerts\": {\"detection\": {\n  \"trend_alpha\": \"low\"}}}",
       "/etc/diskpulse.json:2: alerts.detection.trend_alpha: expected a number, found a string"},
  });
}

TEST(ConfigRulesTest, OutOfRangeInEverySection) {
  ExpectRejected({
      {"{\"http\": {\n  \"max_connections\": 0}}",
       "/etc/diskpulse.json:2: http.max_connections: must be between 1 and 100000, found 0"},
      {"{\"tools\": {\n  \"timeout_seconds\": 86401}}",
       "/etc/diskpulse.json:2: tools.timeout_seconds: must be between 1 and 86400, found 86401"},
      {"{\"inventory\": {\n  \"interval_seconds\": 59}}",
       "/etc/diskpulse.json:2: inventory.interval_seconds: must be between 60 and 604800, "
       "found 59"},
      {"{\"bench\": {\n  \"busy_threshold\": 1.5}}",
       "/etc/diskpulse.json:2: bench.busy_threshold: must be between 0 and 1, found 1.5"},
      {"{\"retention\": {\n  \"interval_hours\": 0}}",
       "/etc/diskpulse.json:2: retention.interval_hours: must be between 1 and 744, found 0"},
      {"{\"schedules\": [{\"tests\": \"seq\", \"when\": \"@daily\",\n  \"jitter\": \"40d\"}]}",
       "/etc/diskpulse.json:2: schedules[0].jitter: must be between 0s and 4w3d, found "
       "\"40d\""},
      {"{\"schedules\": [{\"tests\": \"seq\", \"when\": \"@daily\",\n  \"jitter\": -5}]}",
       "/etc/diskpulse.json:2: schedules[0].jitter: must be between 0s and 4w3d, found -5"},
      {"{\"scheduler\": {\n  \"max_concurrent\": 65}}",
       "/etc/diskpulse.json:2: scheduler.max_concurrent: must be between 1 and 64, found 65"},
      {"{\"scheduler\": {\n  \"busy_above\": 2}}",
       "/etc/diskpulse.json:2: scheduler.busy_above: must be between 0 and 1, found 2"},
      {"{\"scheduler\": {\n  \"retry_every\": 0}}",
       "/etc/diskpulse.json:2: scheduler.retry_every: must be between 1s and 10 years, found 0"},
      {"{\"alerts\": {\n  \"resolve_after_clear_runs\": 0}}",
       "/etc/diskpulse.json:2: alerts.resolve_after_clear_runs: must be between 1 and 1000, "
       "found 0"},
      {"{\"alerts\": {\"webhooks\": [{\"url\": \"http://h/\",\n  \"max_attempts\": 101}]}}",
       "/etc/diskpulse.json:2: alerts.webhooks[0].max_attempts: must be between 1 and 100, "
       "found 101"},
      {"{\"alerts\": {\"mail\": [{\"to\": \"a@b\",\n  \"timeout_seconds\": 0}]}}",
       "/etc/diskpulse.json:2: alerts.mail[0].timeout_seconds: must be between 1 and 3600, "
       "found 0"},
      {"{\"alerts\": {\"detection\": {\n  \"band_sigmas\": 0.5}}}",
       "/etc/diskpulse.json:2: alerts.detection.band_sigmas: must be between 1 and 20, found "
       "0.5"},
  });
}

// A fraction where a whole number is needed is reported as such even when it
// is also out of range: the whole-number rule comes first.
TEST(ConfigRulesTest, NotWholeComesBeforeOutOfRangeInEverySection) {
  ExpectRejected({
      {"{\"http\": {\n  \"max_connections\": 0.5}}",
       "/etc/diskpulse.json:2: http.max_connections: expected a whole number, found 0.5"},
      {"{\"tools\": {\n  \"timeout_seconds\": 1.5}}",
       "/etc/diskpulse.json:2: tools.timeout_seconds: expected a whole number, found 1.5"},
      {"{\"inventory\": {\n  \"interval_seconds\": 59.5}}",
       "/etc/diskpulse.json:2: inventory.interval_seconds: expected a whole number, found 59.5"},
      {"{\"bench\": {\n  \"jobs\": 0.5}}",
       "/etc/diskpulse.json:2: bench.jobs: expected a whole number, found 0.5"},
      {"{\"retention\": {\n  \"detail_days\": 0.5}}",
       "/etc/diskpulse.json:2: retention.detail_days: expected a whole number, found 0.5"},
      {"{\"schedules\": [{\"tests\": \"seq\", \"when\": \"@daily\",\n  \"jitter\": 1.5}]}",
       "/etc/diskpulse.json:2: schedules[0].jitter: expected a whole number, found 1.5"},
      {"{\"scheduler\": {\n  \"max_concurrent\": 0.5}}",
       "/etc/diskpulse.json:2: scheduler.max_concurrent: expected a whole number, found 0.5"},
      {"{\"scheduler\": {\n  \"defer_window\": 0.5}}",
       "/etc/diskpulse.json:2: scheduler.defer_window: expected a whole number, found 0.5"},
      {"{\"alerts\": {\n  \"queue_capacity\": 0.5}}",
       "/etc/diskpulse.json:2: alerts.queue_capacity: expected a whole number, found 0.5"},
      {"{\"alerts\": {\"webhooks\": [{\"url\": \"http://h/\",\n  \"timeout_seconds\": 0.5}]}}",
       "/etc/diskpulse.json:2: alerts.webhooks[0].timeout_seconds: expected a whole number, "
       "found 0.5"},
      {"{\"alerts\": {\"mail\": [{\"to\": \"a@b\",\n  \"max_attempts\": 2.5}]}}",
       "/etc/diskpulse.json:2: alerts.mail[0].max_attempts: expected a whole number, found 2.5"},
      {"{\"alerts\": {\"detection\": {\n  \"baseline_runs\": 5.5}}}",
       "/etc/diskpulse.json:2: alerts.detection.baseline_runs: expected a whole number, found "
       "5.5"},
  });
}

// A whole value written as a float is whole, and judged by its range.
TEST(ConfigRulesTest, AWholeValueWrittenAsAFloatIsWhole) {
  auto r = ParseConfig(R"({"http": {"max_connections": 8.0}, "scheduler": {"retry_every": 6e2},
                           "alerts": {"detection": {"baseline_runs": 6.0}}})",
                       "/etc/diskpulse.json");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->http.max_connections, 8);
  EXPECT_EQ(r->scheduler.retry_seconds, 600);
  EXPECT_EQ(r->alerts_config.detection.baseline_runs, 6);
  ExpectRejected({{"{\"http\": {\n  \"max_body_bytes\": 1e40}}",
                   "/etc/diskpulse.json:2: http.max_body_bytes: must be between 0 and "
                   "1.07374e+09, found 1e+40"}});
}

TEST(ConfigRulesTest, UnknownKeysInEverySection) {
  ExpectRejected({
      {"{\n  \"colour\": 1\n}", "/etc/diskpulse.json:2: colour: unknown key (misspelt?)"},
      {"{\"tls\": {\n  \"cert\": \"\"}}",
       "/etc/diskpulse.json:2: tls.cert: unknown key (misspelt?)"},
      {"{\"http\": {\n  \"timeout\": 1}}",
       "/etc/diskpulse.json:2: http.timeout: unknown key (misspelt?)"},
      {"{\"tools\": {\n  \"smartcl\": \"x\"}}",
       "/etc/diskpulse.json:2: tools.smartcl: unknown key (misspelt?)"},
      {"{\"inventory\": {\n  \"exclude_drives\": []}}",
       "/etc/diskpulse.json:2: inventory.exclude_drives: unknown key (misspelt?)"},
      {"{\"bench\": {\n  \"threads\": 2}}",
       "/etc/diskpulse.json:2: bench.threads: unknown key (misspelt?)"},
      {"{\"retention\": {\n  \"days\": 2}}",
       "/etc/diskpulse.json:2: retention.days: unknown key (misspelt?)"},
      {"{\"targets\": [{\"path\": \"/dev/a\",\n  \"nmae\": \"a\"}]}",
       "/etc/diskpulse.json:2: targets[0].nmae: unknown key (misspelt?)"},
      {"{\"schedules\": [{\"tests\": \"seq\", \"when\": \"@daily\",\n  \"drive\": \"sda\"}]}",
       "/etc/diskpulse.json:2: schedules[0].drive: unknown key (misspelt?)"},
      {"{\"scheduler\": {\n  \"retry\": \"1m\"}}",
       "/etc/diskpulse.json:2: scheduler.retry: unknown key (misspelt?)"},
      {"{\"alerts\": {\n  \"reminders\": true}}",
       "/etc/diskpulse.json:2: alerts.reminders: unknown key (misspelt?)"},
      {"{\"alerts\": {\"webhooks\": [{\"url\": \"http://h/\",\n  \"colour\": 1}]}}",
       "/etc/diskpulse.json:2: alerts.webhooks[0].colour: unknown key (misspelt?)"},
      {"{\"alerts\": {\"mail\": [{\"to\": \"a@b\",\n  \"cc\": \"c@d\"}]}}",
       "/etc/diskpulse.json:2: alerts.mail[0].cc: unknown key (misspelt?)"},
      {"{\"alerts\": {\"syslog\": {\n  \"level\": \"info\"}}}",
       "/etc/diskpulse.json:2: alerts.syslog.level: unknown key (misspelt?)"},
      {"{\"alerts\": {\"detection\": {\n  \"sigmas\": 2}}}",
       "/etc/diskpulse.json:2: alerts.detection.sigmas: unknown key (misspelt?)"},
  });
}

// The top-level targets and a schedule's own are read by one reader.
TEST(ConfigRulesTest, TargetsSayTheSameInBothPlaces) {
  ExpectRejected({
      {"{\"targets\": [\n  {\"name\": \"a\"}]}",
       "/etc/diskpulse.json:2: targets[0].path: required: the device or file to test"},
      {"{\"schedules\": [{\"tests\": \"seq\", \"when\": \"@daily\", \"targets\": [\n"
       "  {\"name\": \"a\"}]}]}",
       "/etc/diskpulse.json:2: schedules[0].targets[0].path: required: the device or file to "
       "test"},
      {"{\"targets\": [{\"path\": \"/dev/a\",\n  \"name\": 1}]}",
       "/etc/diskpulse.json:2: targets[0].name: expected a string, found an integer"},
      {"{\"schedules\": [{\"tests\": \"seq\", \"when\": \"@daily\", \"targets\": [\n"
       "  {\"path\": \"/dev/a\", \"name\": 1}]}]}",
       "/etc/diskpulse.json:2: schedules[0].targets[0].name: expected a string, found an "
       "integer"},
      {"{\n  \"targets\": {\"path\": \"/dev/a\"}}",
       "/etc/diskpulse.json:2: targets: expected an array of objects, found an object"},
      {"{\"schedules\": [{\"tests\": \"seq\", \"when\": \"@daily\",\n"
       "  \"targets\": {\"path\": \"/dev/a\"}}]}",
       "/etc/diskpulse.json:2: schedules[0].targets: expected an array of objects, found an "
       "object"},
  });
}

// Wherever a list of strings is taken, a single string is a one-item list.
TEST(ConfigRulesTest, ABareStringIsAOneItemListInEverySection) {
  auto r = ParseConfig(R"({
    "inventory": {"include": "loop3", "exclude": "sdz"},
    "schedules": [{"tests": "seq", "when": "@daily", "drives": "sda", "models": "WDC*",
                   "pools": "tank"}],
    "alerts": {"mail": [{"to": "root@localhost", "command": "/usr/sbin/sendmail"}]}
  })",
                       "/etc/diskpulse.json");
  ASSERT_TRUE(r.ok()) << r.status().message();
  using L = std::vector<std::string>;
  EXPECT_EQ(r->inventory.include, L{"loop3"});
  EXPECT_EQ(r->inventory.exclude, L{"sdz"});
  ASSERT_EQ(r->schedule_list.size(), 1u);
  const ScheduleConfig& s = r->schedule_list[0];
  EXPECT_EQ(s.tests, L{"seq"});
  EXPECT_EQ(s.select.drives, L{"sda"});
  EXPECT_EQ(s.select.models, L{"WDC*"});
  EXPECT_EQ(s.select.pools, L{"tank"});
  ASSERT_EQ(r->alerts_config.mail.size(), 1u);
  EXPECT_EQ(r->alerts_config.mail[0].to, L{"root@localhost"});
  EXPECT_EQ(r->alerts_config.mail[0].command, L{"/usr/sbin/sendmail"});
}

// A list's bad element is named by its index, in every section; an empty
// string is never an element.
TEST(ConfigRulesTest, ABadListElementIsNamedByItsIndex) {
  ExpectRejected({
      {"{\"inventory\": {\"include\": [\"loop3\",\n  7]}}",
       "/etc/diskpulse.json:2: inventory.include[1]: expected a string, found an integer"},
      {"{\"inventory\": {\n  \"exclude\": \"\"}}",
       "/etc/diskpulse.json:2: inventory.exclude: must not be empty"},
      {"{\"schedules\": [{\"when\": \"@daily\", \"tests\": [\"seq\",\n  \"\"]}]}",
       "/etc/diskpulse.json:2: schedules[0].tests[1]: must not be empty"},
      {"{\"schedules\": [{\"tests\": \"seq\", \"when\": \"@daily\",\n  \"pools\": [null]}]}",
       "/etc/diskpulse.json:2: schedules[0].pools[0]: expected a string, found null"},
      {"{\"alerts\": {\"mail\": [{\"to\": [\"a@b\",\n  5]}]}}",
       "/etc/diskpulse.json:2: alerts.mail[0].to[1]: expected a string, found an integer"},
      {"{\"alerts\": {\"mail\": [{\"to\": \"a@b\",\n  \"command\": 5}]}}",
       "/etc/diskpulse.json:2: alerts.mail[0].command: expected an array of strings, found an "
       "integer"},
      // A command line in one string would be run as one program name.
      {"{\"alerts\": {\"mail\": [{\"to\": \"a@b\",\n  \"command\": \"/usr/sbin/sendmail -t\"}]}}",
       "/etc/diskpulse.json:2: alerts.mail[0].command: runs without a shell: give the program "
       "and each argument as items of a list, e.g. [\"/usr/sbin/sendmail\", \"-t\"]"},
  });
}

TEST(ConfigRulesTest, EnumeratedStringsSayWhatIsAllowed) {
  ExpectRejected({
      {"{\n  \"log_target\": \"file\"\n}",
       "/etc/diskpulse.json:2: log_target: expected stderr or syslog, found 'file'"},
      {"{\"inventory\": {\n  \"platform\": \"aix\"}}",
       "/etc/diskpulse.json:2: inventory.platform: expected linux or freebsd, found 'aix'"},
      {"{\"bench\": {\n  \"engine\": \"aio\"}}",
       "/etc/diskpulse.json:2: bench.engine: expected auto, pread or uring, found 'aio'"},
      {"{\"alerts\": {\"webhooks\": [{\"url\": \"http://h/\",\n  \"min_severity\": \"low\"}]}}",
       "/etc/diskpulse.json:2: alerts.webhooks[0].min_severity: expected info, warning or "
       "critical, found 'low'"},
      {"{\"alerts\": {\"syslog\": {\n  \"facility\": \"kern\"}}}",
       "/etc/diskpulse.json:2: alerts.syslog.facility: expected daemon, user or "
       "local0..local7, found 'kern'"},
  });
}

// Every section's problems at once, each on its own line, in the file's
// line order (the checks run section by section, unknown keys last).
TEST(ConfigRulesTest, EveryProblemOfEverySectionAtOnce) {
  ExpectRejected({{R"({
  "colour": 1,
  "http": {"max_connections": 0.5},
  "schedules": [
    {"tests": "seq", "when": "@daily",
     "jitter": "1y"}
  ],
  "scheduler": {"busy_above": -1},
  "alerts": {
    "detection": {"cusum": 1,
                  "band_sigmas": 99}
  }
})",
                   "/etc/diskpulse.json:2: colour: unknown key (misspelt?)\n"
                   "/etc/diskpulse.json:3: http.max_connections: expected a whole number, found "
                   "0.5\n"
                   "/etc/diskpulse.json:6: schedules[0].jitter: invalid duration '1y' (expected "
                   "e.g. 30s, 15m, 6h, 2d, 1w or 1h30m)\n"
                   "/etc/diskpulse.json:8: scheduler.busy_above: must be between 0 and 1, found "
                   "-1\n"
                   "/etc/diskpulse.json:10: alerts.detection.cusum: unknown key (misspelt?)\n"
                   "/etc/diskpulse.json:11: alerts.detection.band_sigmas: must be between 1 and "
                   "20, found 99"}});
}

}  // namespace
}  // namespace dp
