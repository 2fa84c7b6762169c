#include "config/config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace dp {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

Result<Config> Parse(const std::string& text) { return ParseConfig(text, "/etc/diskpulse.json"); }

// The error message of a config that must be refused.
std::string ErrorOf(const std::string& text) {
  auto c = Parse(text);
  EXPECT_FALSE(c.ok()) << text;
  if (c.ok()) return "";
  EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
  return c.status().message();
}

TEST(ConfigDefaultsTest, EmptyObjectGivesEveryDefault) {
  auto r = Parse("{}");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Config& c = *r;
  EXPECT_EQ(c.source, "/etc/diskpulse.json");
  EXPECT_EQ(c.listen, "127.0.0.1:8470");
  EXPECT_EQ(c.listen_host, "127.0.0.1");
  EXPECT_EQ(c.listen_port, 8470);
  EXPECT_EQ(c.database, "/var/lib/diskpulse/diskpulse.db");
  EXPECT_EQ(c.webui_root, "/usr/share/diskpulse/webui");
  EXPECT_EQ(c.pidfile, "");
  EXPECT_EQ(c.log_level, "info");
  EXPECT_EQ(c.log_target, "stderr");
  EXPECT_EQ(c.api_token, "");
  EXPECT_EQ(c.user, "");
  EXPECT_EQ(c.replay_dir, "");
  EXPECT_FALSE(c.tls.enabled());
  EXPECT_EQ(c.tls.cert_file, "");
  EXPECT_EQ(c.tls.key_file, "");
  EXPECT_EQ(c.http.max_connections, 1024);
  EXPECT_EQ(c.http.read_timeout_seconds, 10);
  EXPECT_EQ(c.http.max_body_bytes, 1u << 20);
  EXPECT_EQ(c.http.max_header_bytes, 16u * 1024);
  EXPECT_EQ(c.tools.smartctl, "smartctl");
  EXPECT_EQ(c.tools.zpool, "zpool");
  EXPECT_EQ(c.tools.geom, "geom");
  EXPECT_EQ(c.tools.diskinfo, "diskinfo");
  EXPECT_EQ(c.tools.camcontrol, "camcontrol");
  EXPECT_EQ(c.tools.timeout_seconds, 60);
  EXPECT_TRUE(c.inventory.include.empty());
  EXPECT_TRUE(c.inventory.exclude.empty());
  EXPECT_EQ(c.inventory.sysfs_root, "/sys");
  EXPECT_EQ(c.inventory.dev_root, "/dev");
  EXPECT_EQ(c.bench.engine, "auto");
  EXPECT_TRUE(c.bench.scratch_dir.empty());
  EXPECT_DOUBLE_EQ(c.bench.min_free_percent, 10);
  EXPECT_EQ(c.bench.max_seconds, 60);
  EXPECT_EQ(c.bench.max_bytes, 8ULL << 30);
  EXPECT_DOUBLE_EQ(c.bench.busy_threshold, 0.05);
  EXPECT_TRUE(c.targets.empty());
}

TEST(ConfigDefaultsTest, EmptyFileIsAClearError) {
  std::string e = ErrorOf("");
  EXPECT_THAT(e, StartsWith("/etc/diskpulse.json"));
  EXPECT_THAT(e, HasSubstr("empty"));
  EXPECT_THAT(ErrorOf("  // only a comment\n"), HasSubstr("empty"));
}

// A number too large for a double is a clear error at its place, not a
// crash (nlohmann throws out_of_range for it, not parse_error).
TEST(ConfigDefaultsTest, NumberOverflowIsAClearError) {
  std::string e = ErrorOf("{\n  \"http\": {\"max_connections\": 1e400}\n}\n");
  EXPECT_THAT(e, StartsWith("/etc/diskpulse.json:2:"));
  EXPECT_THAT(e, HasSubstr("number overflow"));
}

TEST(ConfigGoodTest, FullConfigIsReadWhole) {
  const std::string text = R"({
    /* every core key, none at its default */
    "listen": "[::1]:9000",          // IPv6 loopback
    "database": "/srv/dp/dp.db",
    "webui_root": "/srv/dp/webui",
    "pidfile": "/run/diskpulsed.pid",
    "log_level": "debug",
    "log_target": "syslog",
    "api_token": "s3cret",
    "user": "diskpulse",
    "replay_dir": "/srv/dp/replay",
    "tls": {"cert_file": "/etc/ssl/dp.pem", "key_file": "/etc/ssl/dp.key"},
    "http": {"max_connections": 8, "read_timeout_seconds": 3, "max_body_bytes": 4096,
             "max_header_bytes": 2048},
    "tools": {"smartctl": "/usr/sbin/smartctl", "zpool": "/sbin/zpool", "geom": "/sbin/geom",
              "diskinfo": "/usr/sbin/diskinfo", "camcontrol": "/sbin/camcontrol",
              "timeout_seconds": 5},
    "inventory": {"include": ["loop3"], "exclude": ["sdz", "/dev/sdy"],
                  "sysfs_root": "/tmp/sys", "dev_root": "/tmp/dev"},
    "bench": {"engine": "pread", "scratch_dir": {"tank": "/tank/scratch"}, "min_free_percent": 20,
              "max_seconds": 30, "max_bytes": 1073741824, "busy_threshold": 0.1},
    "targets": [{"path": "/dev/loop3", "name": "loopy"}, {"path": "/srv/img/disk.img"}]
  })";
  auto r = Parse(text);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Config& c = *r;
  EXPECT_EQ(c.listen_host, "::1");
  EXPECT_EQ(c.listen_port, 9000);
  EXPECT_EQ(c.database, "/srv/dp/dp.db");
  EXPECT_EQ(c.webui_root, "/srv/dp/webui");
  EXPECT_EQ(c.pidfile, "/run/diskpulsed.pid");
  EXPECT_EQ(c.log_level, "debug");
  EXPECT_EQ(c.log_target, "syslog");
  EXPECT_EQ(c.api_token, "s3cret");
  EXPECT_EQ(c.user, "diskpulse");
  EXPECT_EQ(c.replay_dir, "/srv/dp/replay");
  EXPECT_TRUE(c.tls.enabled());
  EXPECT_EQ(c.tls.key_file, "/etc/ssl/dp.key");
  EXPECT_EQ(c.http.max_connections, 8);
  EXPECT_EQ(c.http.read_timeout_seconds, 3);
  EXPECT_EQ(c.http.max_body_bytes, 4096u);
  EXPECT_EQ(c.http.max_header_bytes, 2048u);
  EXPECT_EQ(c.tools.smartctl, "/usr/sbin/smartctl");
  EXPECT_EQ(c.tools.camcontrol, "/sbin/camcontrol");
  EXPECT_EQ(c.tools.timeout_seconds, 5);
  EXPECT_EQ(c.inventory.include, std::vector<std::string>{"loop3"});
  EXPECT_EQ(c.inventory.exclude, (std::vector<std::string>{"sdz", "/dev/sdy"}));
  EXPECT_EQ(c.inventory.sysfs_root, "/tmp/sys");
  EXPECT_EQ(c.bench.engine, "pread");
  EXPECT_EQ(c.bench.scratch_dir, (std::map<std::string, std::string>{{"tank", "/tank/scratch"}}));
  EXPECT_DOUBLE_EQ(c.bench.min_free_percent, 20);
  EXPECT_EQ(c.bench.max_seconds, 30);
  EXPECT_EQ(c.bench.max_bytes, 1ULL << 30);
  EXPECT_DOUBLE_EQ(c.bench.busy_threshold, 0.1);
  ASSERT_GE(c.targets.size(), 2u);
  EXPECT_EQ(c.targets[0].path, "/dev/loop3");
  EXPECT_EQ(c.targets[0].name, "loopy");
  EXPECT_EQ(c.targets[1].name, "disk.img");  // defaults to the basename
}

TEST(ConfigGoodTest, TheShippedExampleIsValid) {
  std::string path = std::string(DP_SOURCE_DIR) + "/config/diskpulse.json";
  auto r = LoadConfigFile(path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->source, path);
  EXPECT_EQ(r->listen, "127.0.0.1:8470");
  EXPECT_EQ(r->database, "./var/diskpulse.db");
}

TEST(ConfigGoodTest, CommentsOfBothKindsAreAllowed) {
  auto r =
      Parse("// leading\n{ /* inline */ \"log_level\": /* here too */ \"error\" // trailing\n}\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->log_level, "error");
}

TEST(ConfigGoodTest, ListenForms) {
  auto v4 = Parse(R"({"listen": "0.0.0.0:80"})");
  ASSERT_TRUE(v4.ok());
  EXPECT_EQ(v4->listen_host, "0.0.0.0");
  EXPECT_EQ(v4->listen_port, 80);
  auto any_port = Parse(R"({"listen": "127.0.0.1:0"})");
  ASSERT_TRUE(any_port.ok());
  EXPECT_EQ(any_port->listen_port, 0);
  auto name = Parse(R"({"listen": "localhost:8470"})");
  ASSERT_TRUE(name.ok());
  EXPECT_EQ(name->listen_host, "localhost");
}

TEST(ConfigBadTest, MalformedJsonGivesFileLineAndColumn) {
  // A missing comma: the parser stops at the start of line 3's key.
  std::string e = ErrorOf("{\n  \"listen\": \"127.0.0.1:1\"\n  \"database\": \"x\"\n}\n");
  // Line 3, where the key that lacks its comma is.
  EXPECT_THAT(e, StartsWith("/etc/diskpulse.json:3:"));
  EXPECT_THAT(e, HasSubstr(": malformed JSON: "));
  EXPECT_THAT(e, HasSubstr("syntax error"));
  // A trailing comma.
  EXPECT_THAT(ErrorOf("{\"listen\": \"a:1\",\n}"), StartsWith("/etc/diskpulse.json:2:1: "));
  // A bad literal keeps its explanation.
  std::string lit = ErrorOf("{\n\"api_token\": tru\n}");
  EXPECT_THAT(lit, StartsWith("/etc/diskpulse.json:2:"));
  EXPECT_THAT(lit, HasSubstr("invalid literal"));
  // Cut short.
  EXPECT_THAT(ErrorOf("{\"listen\": "), HasSubstr("malformed JSON"));
}

TEST(ConfigBadTest, RootMustBeAnObject) {
  EXPECT_THAT(ErrorOf("[]"), HasSubstr("must be a JSON object"));
  EXPECT_THAT(ErrorOf("\"listen\""), StartsWith("/etc/diskpulse.json: "));
}

TEST(ConfigBadTest, UnknownKeysNameFileLineAndPath) {
  EXPECT_EQ(ErrorOf("{\n  \"lisen\": \"127.0.0.1:8470\"\n}"),
            "/etc/diskpulse.json:2: lisen: unknown key (misspelt?)");
  EXPECT_EQ(ErrorOf("{\n  \"http\": {\n    \"max_conections\": 5\n  }\n}"),
            "/etc/diskpulse.json:3: http.max_conections: unknown key (misspelt?)");
  EXPECT_EQ(ErrorOf("{\"targets\": [{\"path\": \"/dev/x\", \"nmae\": \"x\"}]}"),
            "/etc/diskpulse.json:1: targets[0].nmae: unknown key (misspelt?)");
}

TEST(ConfigBadTest, WrongTypes) {
  EXPECT_EQ(ErrorOf("{\"listen\": 8470}"),
            "/etc/diskpulse.json:1: listen: expected a string, found an integer");
  EXPECT_EQ(ErrorOf("{\"http\": {\"max_connections\": \"64\"}}"),
            "/etc/diskpulse.json:1: http.max_connections: expected a number, found a string");
  EXPECT_EQ(ErrorOf("{\"http\": {\"max_connections\": 1.5}}"),
            "/etc/diskpulse.json:1: http.max_connections: expected a whole number, found 1.5");
  EXPECT_EQ(ErrorOf("{\"tls\": []}"),
            "/etc/diskpulse.json:1: tls: expected an object, found an array");
  // A single string is a one-item list (config/json_walker.h); other types are not.
  EXPECT_EQ(ErrorOf("{\"inventory\": {\"exclude\": 5}}"),
            "/etc/diskpulse.json:1: inventory.exclude: expected an array of strings, found an "
            "integer");
  EXPECT_THAT(ErrorOf("{\"inventory\": {\"include\": [\"loop1\", 2]}}"),
              HasSubstr("inventory.include[1]: expected a string, found an integer"));
  EXPECT_THAT(ErrorOf("{\"targets\": {\"path\": \"/dev/x\"}}"),
              HasSubstr("targets: expected an array"));
  EXPECT_THAT(ErrorOf("{\"targets\": [\"/dev/x\"]}"),
              HasSubstr("targets[0]: expected an object, found a string"));
  EXPECT_THAT(ErrorOf("{\"log_level\": null}"), HasSubstr("log_level: expected a string"));
  EXPECT_THAT(ErrorOf("{\"bench\": {\"busy_threshold\": true}}"),
              HasSubstr("bench.busy_threshold: expected a number, found a boolean"));
}

TEST(ConfigBadTest, OutOfRangeNumbers) {
  EXPECT_EQ(ErrorOf("{\"http\": {\"max_connections\": 0}}"),
            "/etc/diskpulse.json:1: http.max_connections: must be between 1 and 100000, "
            "found 0");
  EXPECT_THAT(ErrorOf("{\"http\": {\"max_body_bytes\": -1}}"),
              HasSubstr("http.max_body_bytes: must be between 0 and"));
  EXPECT_THAT(ErrorOf("{\"bench\": {\"busy_threshold\": 1.5}}"),
              HasSubstr("bench.busy_threshold: must be between 0 and 1, found 1.5"));
  EXPECT_THAT(ErrorOf("{\"tools\": {\"timeout_seconds\": 0}}"),
              HasSubstr("tools.timeout_seconds: must be between 1 and 86400, found 0"));
  EXPECT_THAT(ErrorOf("{\"http\": {\"read_timeout_seconds\": 99999999999999999999}}"),
              HasSubstr("http.read_timeout_seconds: must be between 1 and 3600"));
}

TEST(ConfigTest, ZfsSampleMinutes) {
  auto c = Parse("{}");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->inventory.zfs_sample_minutes, 60);
  auto off = Parse(R"({"inventory": {"zfs_sample_minutes": 0}})");
  ASSERT_TRUE(off.ok()) << off.status().ToString();
  EXPECT_EQ(off->inventory.zfs_sample_minutes, 0);
  EXPECT_EQ(ErrorOf(R"({"inventory": {"zfs_sample_minutes": 1441}})"),
            "/etc/diskpulse.json:1: inventory.zfs_sample_minutes: must be between 0 and 1440, "
            "found 1441");
  EXPECT_THAT(ErrorOf(R"({"inventory": {"zfs_sample_minutes": "hourly"}})"),
              HasSubstr("inventory.zfs_sample_minutes: expected a number, found a string"));
}

TEST(ConfigBadTest, BadListen) {
  EXPECT_THAT(ErrorOf(R"({"listen": "localhost"})"),
              HasSubstr("listen: expected host:port, found 'localhost'"));
  EXPECT_THAT(ErrorOf(R"({"listen": ":8470"})"), HasSubstr("listen: missing host"));
  EXPECT_THAT(ErrorOf(R"({"listen": "127.0.0.1:99999"})"),
              HasSubstr("listen: port must be a number from 0 to 65535, found '99999'"));
  EXPECT_THAT(ErrorOf(R"({"listen": "127.0.0.1:http"})"), HasSubstr("found 'http'"));
  EXPECT_THAT(ErrorOf(R"({"listen": "127.0.0.1:"})"), HasSubstr("port must be a number"));
  EXPECT_THAT(ErrorOf(R"({"listen": "[::1]8470"})"), HasSubstr("expected [ipv6]:port"));
  EXPECT_THAT(ErrorOf(R"({"listen": ""})"), HasSubstr("listen: "));
}

TEST(ConfigBadTest, TlsHalfSet) {
  EXPECT_THAT(ErrorOf(R"({"tls": {"cert_file": "/etc/ssl/dp.pem"}})"),
              HasSubstr("tls.key_file: cert_file and key_file go together"));
  EXPECT_THAT(ErrorOf(R"({"tls": {"key_file": "/etc/ssl/dp.key"}})"),
              HasSubstr("tls.cert_file: cert_file and key_file go together"));
}

TEST(ConfigBadTest, TargetsNeedAPath) {
  EXPECT_THAT(ErrorOf("{\"targets\": [\n  {\"path\": \"/dev/a\"},\n  {\"name\": \"b\"}\n]}"),
              HasSubstr("targets[1].path: required"));
  EXPECT_THAT(ErrorOf(R"({"targets": [{"path": ""}]})"), HasSubstr("targets[0].path: required"));
}

TEST(ConfigBadTest, EnumeratedStrings) {
  EXPECT_THAT(ErrorOf(R"({"log_level": "verbose"})"),
              HasSubstr("log_level: expected debug, info, warning or error, found 'verbose'"));
  EXPECT_THAT(ErrorOf(R"({"log_target": "file"})"),
              HasSubstr("log_target: expected stderr or syslog, found 'file'"));
  EXPECT_THAT(ErrorOf(R"({"bench": {"engine": "aio"}})"),
              HasSubstr("bench.engine: expected auto, pread or uring, found 'aio'"));
  EXPECT_THAT(ErrorOf(R"({"database": ""})"), HasSubstr("database: must name a file"));
}

TEST(ConfigBadTest, EveryProblemIsReportedOnItsOwnLine) {
  std::string e = ErrorOf(
      "{\n"
      "  \"listen\": 1,\n"
      "  \"http\": {\"max_connections\": 0},\n"
      "  \"colour\": \"blue\"\n"
      "}\n");
  EXPECT_THAT(e, HasSubstr("/etc/diskpulse.json:2: listen: expected a string"));
  EXPECT_THAT(e, HasSubstr("/etc/diskpulse.json:3: http.max_connections: must be between"));
  EXPECT_THAT(e, HasSubstr("/etc/diskpulse.json:4: colour: unknown key"));
  EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 2);
}

TEST(ConfigBadTest, LinePointsAtTheKeyInItsSection) {
  // "name" and "path" occur in several places; the line must be the offending one.
  std::string e = ErrorOf(
      "{\n"
      "  \"replay_dir\": \"path\",\n"
      "  \"tools\": {\"timeout_seconds\": 5},\n"
      "  \"http\": {\n"
      "    \"timeout_seconds\": 5\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(e, "/etc/diskpulse.json:5: http.timeout_seconds: unknown key (misspelt?)");
  std::string v = ErrorOf(
      "{\n"
      "  \"api_token\": \"max_connections\",\n"
      "  \"http\": {\"max_connections\": -4}\n"
      "}\n");
  EXPECT_THAT(v, StartsWith("/etc/diskpulse.json:3: http.max_connections:"));
}

// A pool-write scratch directory belongs to one pool: one string for every
// pool, a directory shared by two pools, and one on another file system
// than its pool are configuration errors at the key's line.
TEST(ConfigBadTest, ScratchDirectoryBelongsToItsPool) {
  EXPECT_THAT(ErrorOf("{\n  \"bench\": {\n    \"scratch_dir\": \"/tank/x\"\n  }\n}\n"),
              StartsWith("/etc/diskpulse.json:3: bench.scratch_dir: expected an object of pool -> "
                         "directory"));
  EXPECT_THAT(ErrorOf(R"({"bench": {"scratch_dir": {"tank": "/srv/x", "backup": "/srv/x/y"}}})"),
              HasSubstr("bench.scratch_dir.tank: /srv/x is (or shares a tree with) pool backup's"));
  EXPECT_THAT(ErrorOf(R"({"bench": {"scratch_dir": {"tank": "scratch"}}})"),
              HasSubstr("bench.scratch_dir.tank: expected an absolute directory on pool tank"));
  // This test's own folder is on whatever the machine has, not on a pool
  // named tank.
  testing::TempDir dir;
  const std::string e = ErrorOf("{\n  \"bench\": {\n    \"scratch_dir\": {\n      \"tank\": \"" +
                                dir.path().string() + "\"\n    }\n  }\n}\n");
  EXPECT_THAT(e, StartsWith("/etc/diskpulse.json:4: bench.scratch_dir.tank: " + dir.path().string() +
                            " is on a"));
  EXPECT_THAT(e, HasSubstr("not on pool tank"));
  // A schedule's pool-write on a pool without a directory.
  EXPECT_THAT(ErrorOf(R"({"bench": {"scratch_dir": {"tank": "/tank/x"}},
                          "schedules": [{"tests": ["pool-write"], "when": "@daily",
                                         "pools": ["backup"]}]})"),
              HasSubstr("schedules[0].pools: pool-write on 'backup' needs its directory"));
  auto c = Parse(R"({"bench": {"scratch_dir": {"tank": "/tank/x", "backup": "/backup/x"}},
                     "schedules": [{"tests": ["pool-write", "seq"], "when": "@daily"}]})");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->schedule_list[0].write_pools, (std::vector<std::string>{"backup", "tank"}));
}

TEST(LoadConfigFileTest, MissingUnreadableAndDirectory) {
  testing::TempDir dir;
  auto missing = LoadConfigFile(dir.Path("nope.json"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(),
            dir.Path("nope.json") + ": cannot read configuration: No such file or directory");

  auto directory = LoadConfigFile(dir.path().string());
  ASSERT_FALSE(directory.ok());
  EXPECT_THAT(directory.status().message(),
              StartsWith(dir.path().string() + ": cannot read configuration"));
  EXPECT_THAT(directory.status().message(), HasSubstr("directory"));

  std::string good = dir.Write("good.json", "{\"log_level\": \"warning\"}");
  auto ok = LoadConfigFile(good);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->log_level, "warning");
  EXPECT_EQ(ok->source, good);

  std::string bad = dir.Write("bad.json", "{\n\"nope\": 1}");
  auto e = LoadConfigFile(bad);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message(), bad + ":2: nope: unknown key (misspelt?)");
}

}  // namespace
}  // namespace dp

namespace dp {
namespace {

TEST(ConfigRetentionTest, KeysAreReadAndChecked) {
  auto c = ParseConfig(R"({"retention": {"enabled": false, "interval_hours": 6,
      "smart_full_days": 3, "smart_daily_days": 30, "smart_runs_days": 10,
      "histogram_days": 20, "detail_days": 40}})",
                       "t.json");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_FALSE(c->retention.enabled);
  EXPECT_EQ(c->retention.interval_hours, 6);
  EXPECT_EQ(c->retention.smart_full_days, 3);
  EXPECT_EQ(c->retention.smart_daily_days, 30);
  EXPECT_EQ(c->retention.smart_runs_days, 10);
  EXPECT_EQ(c->retention.histogram_days, 20);
  EXPECT_EQ(c->retention.detail_days, 40);

  auto bad = ParseConfig(R"({"retention": {"smart_full_days": 0}})", "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(),
              ::testing::HasSubstr("retention.smart_full_days: must be between 1 and 3650"));
  bad = ParseConfig(R"({"retention": {"smart_full_days": 30, "smart_daily_days": 7}})", "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(),
              ::testing::HasSubstr("retention.smart_daily_days: must be at least smart_full_days"));
  bad = ParseConfig(R"({"retention": {"enabled": "yes"}})", "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), ::testing::HasSubstr("retention.enabled: expected true"));
  bad = ParseConfig(R"({"retention": {"keep": 1}})", "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), ::testing::HasSubstr("retention.keep"));
}

}  // namespace
}  // namespace dp
