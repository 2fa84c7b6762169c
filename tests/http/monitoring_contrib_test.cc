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

#include "http/metrics_fleet_util.h"
#include "model/condition.h"
#include "support/capability.h"
#include "support/daemon_process.h"
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

// The rules forward every kind of alert the daemon raises: for each kind in
// its list, an open alert of that kind on a drive fires one alert in
// Prometheus with that kind (promtool evaluates the real rule file).
TEST(MonitoringContrib, EveryAlertKindReachesAlertmanager) {
  dp::testing::TempDir tmp;
  std::string yaml = "rule_files:\n  - " + kContrib +
                     "/prometheus/diskpulse_rules.yml\nevaluation_interval: 1m\ntests:\n";
  for (ConditionKind kind_kind : kConditionKinds) {
    const std::string_view kind = ConditionKindName(kind_kind);
    const std::string k(kind);
    yaml += "  - interval: 1m\n    input_series:\n"
            "      - series: 'diskpulse_drive_info{job=\"diskpulse\",instance=\"nas1:8470\","
            "drive=\"d1\",name=\"sda\",dev_path=\"/dev/sda\",model=\"M\",serial=\"S\","
            "firmware=\"F\",transport=\"sata\"}'\n        values: '1x10'\n";
    for (ConditionKind other : kConditionKinds)
      yaml += "      - series: 'diskpulse_drive_alerts_active{job=\"diskpulse\","
              "instance=\"nas1:8470\",drive=\"d1\",kind=\"" +
              std::string(ConditionKindName(other)) + "\"}'\n        values: '" +
              (other == kind_kind ? "1x10" : "0x10") + "'\n";
    yaml += "    alert_rule_test:\n      - eval_time: 5m\n        alertname: DiskpulseDriveAlert\n"
            "        exp_alerts:\n          - exp_labels:\n              severity: warning\n"
            "              instance: nas1:8470\n              drive: d1\n              kind: " +
            k + "\n              name: sda\n              model: M\n              serial: S\n" +
            "            exp_annotations:\n              summary: \"nas1:8470: drive sda (M, S) has "
            "an open " + k + " alert\"\n              description: \"diskpulse has 1 open " + k +
            " alert(s) on this drive; the drive's page and `diskpulse alerts --drive sda` on "
            "nas1:8470 say what and how severe.\"\n";
  }
  const std::string path = tmp.Path("kinds_test.yml");
  std::ofstream(path) << yaml;
  ExpectPromtoolOk({"test", "rules", path});
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
