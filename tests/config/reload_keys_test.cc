// The reload table: every top-level key of the configuration file has a row;
// a change to a restart-only key is named and put back, a change to an applied
// key is taken; docs/configuration.md's two lines list exactly the table's two classes.
#include "config/reload_keys.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace dp {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> TableNames() {
  std::vector<std::string> names;
  for (const ReloadKey& k : ReloadKeys()) names.emplace_back(k.name);
  return names;
}

TEST(ReloadKeysTest, EveryTopLevelKeyOfTheExampleFileHasARowInItsOrder) {
  const std::string text = ReadFile(std::string(DP_SOURCE_DIR) + "/config/diskpulse.json");
  ASSERT_FALSE(text.empty());
  std::vector<std::string> keys;
  const std::regex top(R"re(^  "([a-z_]+)":)re");
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, top)) keys.push_back(m[1]);
  }
  EXPECT_EQ(keys, TableNames());
}

// One change per key, made to a copy of the defaults.
const std::map<std::string, std::function<void(Config&)>>& Changes() {
  static const std::map<std::string, std::function<void(Config&)>> changes = {
      {"listen", [](Config& c) { c.listen_port = 9000; }},
      {"database", [](Config& c) { c.database = "/srv/other.db"; }},
      {"webui_root", [](Config& c) { c.webui_root = "/srv/webui"; }},
      {"pidfile", [](Config& c) { c.pidfile = "/run/other.pid"; }},
      {"log_level", [](Config& c) { c.log_level = "debug"; }},
      {"log_target", [](Config& c) { c.log_target = "syslog"; }},
      {"api_token", [](Config& c) { c.api_token = "another-token"; }},
      {"public_read", [](Config& c) { c.public_read = true; }},
      {"read_token", [](Config& c) { c.read_token = "reader"; }},
      {"metrics_token", [](Config& c) { c.metrics_token = "scraper"; }},
      {"user", [](Config& c) { c.user = "nobody"; }},
      {"replay_dir", [](Config& c) { c.replay_dir = "/srv/recording"; }},
      {"tls", [](Config& c) { c.tls.key_file = "/etc/k.pem"; }},
      {"http", [](Config& c) { c.http.read_timeout_seconds = 3; }},
      {"tools", [](Config& c) { c.tools.timeout_seconds = 5; }},
      {"inventory", [](Config& c) { c.inventory.include = {"loop0"}; }},
      {"bench", [](Config& c) { c.bench.jobs = 4; }},
      {"retention", [](Config& c) { c.retention.smart_full_days = 3; }},
      {"targets", [](Config& c) { c.targets.push_back({"/dev/loop3", "spare"}); }},
      {"schedules", [](Config& c) { c.schedule_list.pop_back(); }},
      {"scheduler", [](Config& c) { c.scheduler.max_concurrent = 1; }},
      {"alerts", [](Config& c) { c.alerts_config.detection.trend_alpha = 1e-6; }},
      {"overrides", [](Config& c) {
         DriveOverride o;
         o.serial = "ZA1";
         o.device_type = "sat";
         c.overrides.push_back(o);
       }},
  };
  return changes;
}

TEST(ReloadKeysTest, ARestartOnlyChangeIsNamedAndPutBackAnAppliedOneIsTaken) {
  for (const ReloadKey& k : ReloadKeys()) {
    const std::string name(k.name);
    auto change = Changes().find(name);
    ASSERT_NE(change, Changes().end()) << "no test change for '" << name << "'";
    const Config running;
    Config next = running;
    change->second(next);
    ASSERT_TRUE(k.changed(running, next)) << name;
    // No other row sees this change.
    for (const ReloadKey& other : ReloadKeys()) {
      if (other.name != k.name) {
        EXPECT_FALSE(other.changed(running, next)) << name << " / " << other.name;
      }
    }
    const std::vector<std::string> named = RestartOnlyChanges(running, next);
    Config kept = next;
    KeepRestartOnly(running, kept);
    if (k.on_reload == OnReload::kNeedsRestart) {
      EXPECT_EQ(named, std::vector<std::string>{name});
      EXPECT_FALSE(k.changed(running, kept)) << name << " was not put back";
    } else {
      EXPECT_TRUE(named.empty()) << name;
      EXPECT_TRUE(k.changed(running, kept)) << name << " was not taken";
    }
  }
}

TEST(ReloadKeysTest, NothingChangedNamesNothing) {
  const Config a, b;
  EXPECT_TRUE(RestartOnlyChanges(a, b).empty());
}

// Sections are compared as parsed, not as written.
std::vector<std::string> ChangesBetween(const std::string& running, const std::string& next) {
  auto a = ParseConfig(running, "a.json");
  auto b = ParseConfig(next, "b.json");
  EXPECT_TRUE(a.ok() && b.ok()) << running << " / " << next;
  if (!a.ok() || !b.ok()) return {"?"};
  return RestartOnlyChanges(*a, *b);
}

TEST(ReloadKeysTest, TheSameMeaningWrittenOtherwiseIsNoChange) {
  EXPECT_TRUE(ChangesBetween(R"({"schedules": [{"tests": "seq", "when": "@daily"}]})",
                             R"({"schedules": [{"when": "@daily", "tests": ["seq"]}]})")
                  .empty());
  EXPECT_TRUE(ChangesBetween(R"({"alerts": {"syslog": true}})",
                             R"({"alerts": {"syslog": {"enabled": true}}})")
                  .empty());
  // An explicit default is no change either.
  EXPECT_TRUE(ChangesBetween("{}", R"({"alerts": {"detection": {"baseline_runs": 5}}})").empty());
}

TEST(ReloadKeysTest, AParsedDifferenceIsNamed) {
  using Names = std::vector<std::string>;
  // No "schedules" key means the default schedules; [] means none.
  EXPECT_EQ(ChangesBetween("{}", R"({"schedules": []})"), Names{"schedules"});
  EXPECT_EQ(ChangesBetween(R"({"schedules": [{"tests": "seq", "when": "@daily"}]})",
                           R"({"schedules": [{"tests": "seq", "when": "@weekly"}]})"),
            Names{"schedules"});
  EXPECT_EQ(ChangesBetween(R"({"alerts": {"webhooks": [{"url": "http://a/"}]}})",
                           R"({"alerts": {"webhooks": [{"url": "http://b/"}]}})"),
            Names{"alerts"});
  EXPECT_EQ(ChangesBetween("{}", R"({"alerts": {"detection": {"cusum_h": 9}}})"),
            Names{"alerts"});
}

// The backquoted names of the line of a page that starts with `lead`, with a
// trailing ".*" (a group's keys) taken off.
std::set<std::string> ListedNames(const std::string& page, const std::string& lead) {
  std::set<std::string> names;
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(lead, 0) != 0) continue;
    const std::string list = line.substr(lead.size(), line.find(". A reload") - lead.size());
    const std::regex quoted("`([a-z_]+)(\\.\\*)?`");
    for (std::sregex_iterator it(list.begin(), list.end(), quoted), end; it != end; ++it)
      names.insert((*it)[1]);
  }
  return names;
}

TEST(ReloadKeysTest, TheConfigurationPageListsTheTablesTwoClasses) {
  const std::string page = ReadFile(std::string(DP_SOURCE_DIR) + "/docs/configuration.md");
  ASSERT_FALSE(page.empty());
  std::set<std::string> applied, restart;
  for (const ReloadKey& k : ReloadKeys())
    (k.on_reload == OnReload::kApplied ? applied : restart).insert(std::string(k.name));
  EXPECT_EQ(ListedNames(page, "Applied by a reload (`SIGHUP`): "), applied);
  EXPECT_EQ(ListedNames(page, "Need a restart: "), restart);
}

}  // namespace
}  // namespace dp
