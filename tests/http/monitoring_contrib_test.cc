// contrib/prometheus and contrib/grafana against the real thing: promtool
// checks and unit-tests the alert rules and checks the Prometheus config,
// amtool checks the Alertmanager example, the dashboard is well-formed JSON,
// and every diskpulse_* series the rules, their tests and the dashboard use
// is one the real /metrics exposition has (MetricsFleet). Skipped with a
// reason where promtool or amtool is missing (scripts/setup.sh installs them).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <ctime>

#include "http/metrics_fleet_util.h"
#include "model/condition.h"
#include "store/store.h"
#include "support/capability.h"
#include "support/daemon_process.h"
#include "support/http_client.h"
#include "support/temp_dir.h"

namespace dp::http {
namespace {

using dp::testing::ReadFile;

const std::string kContrib = std::string(DP_SOURCE_DIR) + "/contrib";

void ExpectPromtoolOk(const std::vector<std::string>& args) {
  auto r = dp::testing::RunPromtool(args);
  if (!r) DP_SKIP_WITHOUT("promtool", "promtool is not installed (Debian package prometheus)");
  EXPECT_EQ(r->first, 0) << r->second;
  EXPECT_NE(r->second.find("SUCCESS"), std::string::npos) << r->second;
}

TEST(MonitoringContrib, PromtoolChecksTheRules) {
  ExpectPromtoolOk({"check", "rules", kContrib + "/prometheus/diskpulse_rules.yml"});
}

TEST(MonitoringContrib, RuleUnitTestsPass) {
  ExpectPromtoolOk({"test", "rules", kContrib + "/prometheus/diskpulse_rules_test.yml"});
}

// One sample of an exposition: name, labels (in order), value.
struct Sample {
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;
  std::string Label(const std::string& key) const {
    for (const auto& [k, v] : labels)
      if (k == key) return v;
    return "";
  }
};

std::vector<Sample> Samples(const std::string& exposition, const std::set<std::string>& names) {
  static const std::regex line(R"(^([a-z_]+)\{(.*)\} (\S+)$)");
  static const std::regex label(R"re(([a-z_]+)="((?:[^"\\]|\\.)*)")re");
  std::vector<Sample> out;
  std::istringstream in(exposition);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (!std::regex_match(l, m, line) || !names.count(m[1])) continue;
    Sample s{m[1], {}};
    const std::string body = m[2];
    for (auto it = std::sregex_iterator(body.begin(), body.end(), label);
         it != std::sregex_iterator(); ++it)
      s.labels.emplace_back((*it)[1], (*it)[2]);
    out.push_back(std::move(s));
  }
  return out;
}

std::string Quoted(const std::string& v) {
  std::string out = "\"";
  for (char c : v) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

// The rules against what a running daemon exposes: its store holds an alert
// the owner was told of of every kind the detectors raise (a drive's, the
// pool's, the scrub's, the box's) and a watch; diskpulsed serves it, and the
// /metrics it answers over HTTP is promtool's input. DiskpulseAlert must
// fire once for every told alert the daemon exposes, with its kind and what
// it is about, and never for the watch. A series the daemon cannot emit, or
// a kind it cannot carry, fails here.
TEST(MonitoringContrib, EveryAlertKindTheDaemonExposesReachesAlertmanager) {
  if (!dp::testing::RunPromtool({"--version"}))
    DP_SKIP_WITHOUT("promtool", "promtool is not installed (Debian package prometheus)");
  dp::testing::TempDir dir;
  std::filesystem::create_directories(dir.Path("var"));
  const std::int64_t now = std::time(nullptr);
  {
    auto store = Store::Open(dir.Path("var/diskpulse.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    for (const char* name : {"sda", "sdb"}) {
      Drive d;
      d.id = std::string("wwn-") + name;
      d.name = name;
      d.dev_path = std::string("/dev/") + name;
      d.model = "ST4000VN008";
      d.serial = std::string("ZDH-") + name;
      ASSERT_TRUE((*store)->UpsertDrive(d, now - 3 * 86400).ok());
    }
    struct Open {
      std::string drive, condition, severity;
      int notified;
    };
    const std::vector<Open> opened = {
        {"wwn-sda", "slowdown:drive", "warning", 1},
        {"wwn-sda", "trend:drive", "warning", 1},
        {"wwn-sda", "peer:seq:qd8-1m:mb_per_s", "warning", 1},
        {"", "environment:box", "warning", 1},
        {"wwn-sda", "smart:reallocated", "warning", 1},
        {"", "zfs:tank:state", "warning", 1},
        {"wwn-sdb", "missing", "critical", 1},
        {"", "pool:tank:state", "critical", 1},
        {"", "scrub:tank:overdue", "warning", 1},
        {"wwn-sda", "wear:percentage_used", "warning", 1},
        {"wwn-sda", "selftest:overdue", "info", 1},
        {"wwn-sda", "smart:udma_crc_errors", "warning", 0},  // a watch
    };
    for (const Open& o : opened) {
      Alert a;
      a.drive_id = o.drive;
      a.condition = o.condition;
      a.severity = o.severity;
      a.summary = o.condition;
      a.evidence_json = o.condition == "environment:box"
                            ? R"({"condition":"environment:tank/raidz2-0:seq:qd8-1m:mb_per_s"})"
                            : "{}";
      a.opened_at = a.updated_at = now - 3600;
      a.notify_count = o.notified;
      a.last_notified_at = o.notified ? std::optional<std::int64_t>(now - 3600) : std::nullopt;
      ASSERT_TRUE((*store)->InsertAlert(a).ok());
    }
  }
  auto daemon = dp::testing::DaemonProcess::Start(dir);
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  const auto scrape = dp::testing::HttpGet((*daemon)->port(), "/metrics");
  ASSERT_EQ(scrape.status, 200) << scrape.error << scrape.body;

  const auto samples = Samples(scrape.body, {"diskpulse_alert", "diskpulse_drive_info"});
  std::map<std::string, Sample> info;  // by drive
  std::set<std::string> told_kinds;
  int watches = 0;
  std::string series, expected;
  for (const Sample& s : samples) {
    std::string labels = "job=\"diskpulse\",instance=\"nas1:8470\"";
    for (const auto& [k, v] : s.labels) labels += "," + k + "=" + Quoted(v);
    std::string line = s.name + "{" + labels + "}";
    for (std::size_t at = 0; (at = line.find('\'', at)) != std::string::npos; at += 2)
      line.insert(at, "'");
    series += "      - series: '" + line + "'\n        values: '1x10'\n";
    if (s.name == "diskpulse_drive_info") info[s.Label("drive")] = s;
  }
  for (const Sample& s : samples) {
    if (s.name != "diskpulse_alert") continue;
    const std::string state = s.Label("state");
    if (state == "watching") ++watches;
    if (state != "notified" && state != "acknowledged") continue;
    told_kinds.insert(s.Label("kind"));
    std::string labels = "              job: diskpulse\n              instance: \"nas1:8470\"\n";
    for (const auto& [k, v] : s.labels)
      if (!v.empty()) labels += "              " + k + ": " + Quoted(v) + "\n";
    std::string where;
    const std::string drive = s.Label("drive");
    if (!drive.empty()) {
      ASSERT_TRUE(info.count(drive)) << drive << " has an alert and no diskpulse_drive_info";
      const Sample& d = info[drive];
      for (const char* k : {"name", "model", "serial"})
        labels += "              " + std::string(k) + ": " + Quoted(d.Label(k)) + "\n";
      where = "drive " + d.Label("name") + " (" + d.Label("model") + ", " + d.Label("serial") + ")";
    } else if (!s.Label("vdev").empty()) {
      where = s.Label("vdev");
    } else if (!s.Label("pool").empty()) {
      where = "pool " + s.Label("pool");
    } else {
      where = "the box";
    }
    expected += "          - exp_labels:\n" + labels + "            exp_annotations:\n" +
                "              summary: " +
                Quoted("nas1:8470: " + s.Label("severity") + " " + s.Label("kind") +
                       " alert on " + where) +
                "\n              description: " +
                Quoted("diskpulse alert " + s.Label("condition") + " is " + state +
                       "; the page's alert list and `diskpulse alerts` on nas1:8470 say what "
                       "and what to do.") +
                "\n";
  }
  // The daemon exposes a told alert of every kind, and the watch as one.
  for (ConditionKind kind : kConditionKinds)
    EXPECT_TRUE(told_kinds.count(std::string(ConditionKindName(kind))))
        << ConditionKindName(kind) << " is not exposed as a told alert:\n" << scrape.body;
  EXPECT_EQ(watches, 1) << scrape.body;

  const std::string yaml = "rule_files:\n  - " + kContrib +
                           "/prometheus/diskpulse_rules.yml\nevaluation_interval: 1m\ntests:\n"
                           "  - interval: 1m\n    input_series:\n" +
                           series +
                           "    alert_rule_test:\n      - eval_time: 5m\n"
                           "        alertname: DiskpulseAlert\n        exp_alerts:\n" +
                           expected;
  const std::string path = dir.Path("scraped_test.yml");
  std::ofstream(path) << yaml;
  auto r = dp::testing::RunPromtool({"test", "rules", path});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->first, 0) << r->second << "\n" << yaml;
}

// The daemon's list of kinds (model/condition.h) is the detectors' own:
// every condition a detector builds starts with a kind in the list.
TEST(MonitoringContrib, AlertKindListCoversEveryDetector) {
  const std::regex made(R"re(condition = (?:JoinCondition\(\{)?"([a-z_]+)[:"])re");
  int found = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(DP_SOURCE_DIR) + "/service/src/detect")) {
    if (entry.path().extension() != ".cc") continue;
    const std::string text = ReadFile(entry.path().string());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), made);
         it != std::sregex_iterator(); ++it) {
      ++found;
      const std::string kind = (*it)[1];
      EXPECT_NE(ConditionKindOf(kind + ":x"), ConditionKind::kOther)
          << entry.path().filename() << " raises '" << kind
          << "' alerts, a kind missing from model/condition.h";
    }
  }
  EXPECT_GE(found, 6);
}

TEST(MonitoringContrib, PrometheusConfigIsValid) {
  ExpectPromtoolOk({"check", "config", kContrib + "/prometheus/prometheus.yml"});
}

TEST(MonitoringContrib, AlertmanagerConfigIsValid) {
  if (dp::testing::RunProgram({"/bin/sh", "-c", "command -v amtool"}).exit_code != 0)
    DP_SKIP_WITHOUT("amtool", "amtool is not installed (Debian package prometheus-alertmanager)");
  auto r = dp::testing::RunProgram(
      {"/bin/sh", "-c", "amtool check-config '" + kContrib + "/prometheus/alertmanager.yml'"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

std::set<std::string> DiskpulseNames(const std::string& text) {
  std::set<std::string> out;
  static const std::regex name(R"(diskpulse_[a-z0-9_]+\b(?!\.))");  // not file names
  for (auto it = std::sregex_iterator(text.begin(), text.end(), name); it != std::sregex_iterator();
       ++it)
    out.insert(it->str());
  return out;
}

// Every string of the dashboard that holds a query (targets' expr,
// template variables' query/definition), at any depth.
void CollectQueries(const nlohmann::json& j, std::string& out, int& exprs) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if ((key == "expr" || key == "query" || key == "definition") && value.is_string()) {
        out += value.get<std::string>() + "\n";
        if (key == "expr") ++exprs;
      }
      CollectQueries(value, out, exprs);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) CollectQueries(v, out, exprs);
  }
}

class ContribSeriesTest : public ::testing::Test {
 protected:
  void ExpectExposed(const std::string& what, const std::string& text) {
    std::set<std::string> names = DiskpulseNames(text);
    EXPECT_GT(names.size(), 5u) << what;
    for (const std::string& n : names)
      EXPECT_NE(exposition_.find("# TYPE " + n + " "), std::string::npos)
          << what << " uses " << n << ", which /metrics does not have";
  }
  dp::testing::MetricsFleet fleet_;
  std::string exposition_ = fleet_.Scrape();
};

TEST_F(ContribSeriesTest, RulesUseOnlyExposedSeries) {
  ExpectExposed("diskpulse_rules.yml", ReadFile(kContrib + "/prometheus/diskpulse_rules.yml"));
  ExpectExposed("diskpulse_rules_test.yml",
                ReadFile(kContrib + "/prometheus/diskpulse_rules_test.yml"));
}

TEST_F(ContribSeriesTest, DashboardIsJsonAndUsesOnlyExposedSeries) {
  std::string text = ReadFile(kContrib + "/grafana/diskpulse-dashboard.json");
  ASSERT_FALSE(text.empty());
  nlohmann::json dash = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(dash.is_discarded()) << "contrib/grafana/diskpulse-dashboard.json is not JSON";
  ASSERT_TRUE(dash["panels"].is_array());
  EXPECT_GT(dash["panels"].size(), 10u);
  std::set<std::string> vars;
  for (const auto& v : dash["templating"]["list"]) vars.insert(v["name"].get<std::string>());
  EXPECT_EQ(vars, (std::set<std::string>{"datasource", "instance", "drive"}));
  std::string queries;
  int exprs = 0;
  CollectQueries(dash, queries, exprs);
  EXPECT_GT(exprs, 20);
  ExpectExposed("the dashboard", queries);
  // Names that are not diskpulse's own are Prometheus's (up) or PromQL.
  EXPECT_EQ(queries.find("mb_per_second"), std::string::npos);
}

}  // namespace
}  // namespace dp::http
