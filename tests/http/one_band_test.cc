// One band for a series: for the same stored history, the band the page
// draws (GET .../history), the band /metrics exports, the baseline the
// overview's "% of baseline" is of, and the band the next run is judged
// against (RunEvaluator -> detect::JudgeRun) are the same numbers, because
// every one of them comes from detect::SeriesBands / JudgeRun over the same
// StoreSeriesHistory. Real store, real router, real evaluator.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "detect/baseline.h"
#include "http/api.h"
#include "http/metrics_fleet_util.h"
#include "model/condition.h"
#include "runs/run_evaluator.h"

namespace dp {
namespace {

using json = nlohmann::json;
using dp::testing::MetricsFleet;
using dp::testing::SampleValue;

class OneBandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    disk_.id = "wwn-5000cca0bandtest";
    disk_.name = "sdz";
    disk_.dev_path = "/dev/sdz";
    disk_.model = "WDC WD40EFRX";
    disk_.present = true;
    ASSERT_TRUE(fleet_.store().UpsertDrive(disk_, 1700000000).ok());
  }

  BenchPoint Seq(double mb_per_s) {
    BenchPoint p;
    p.test = "seq";
    p.block_size = 1 << 20;
    p.queue_depth = 8;
    p.bytes = 1 << 30;
    p.seconds = 1;
    p.mb_per_s = mb_per_s;
    return p;
  }
  std::vector<BenchPoint> Zones(double level) {
    std::vector<BenchPoint> out;
    for (auto [zone, mb] : {std::pair<const char*, double>{"outer", 250}, {"middle", 200},
                            {"inner", 120}}) {
      BenchPoint p = Seq(mb * level);
      p.test = "zones";
      p.queue_depth = 1;
      p.zone = zone;
      out.push_back(p);
    }
    return out;
  }
  json Get(const std::string& target) {
    return json::parse(http::BuildApiRouter(fleet_.Context())
                           ->Route(http::Request::Make(http::Method::kGet, target))
                           .body);
  }

  MetricsFleet fleet_;
  Drive disk_;
};

TEST_F(OneBandTest, PageMetricsOverviewAndTheJudgeShareOneBand) {
  // Ten weeks: seq steady within 0.3% but for one run 7% low, the zones
  // (the same read path) scattering 4%. Judged on its own spread, seq would
  // screen the low run out of its baseline; pooled with the zones' it is
  // taken in: a baseline formed apart from the judge's would differ.
  const double seq[] = {200, 200.6, 199.4, 200.3, 199.7, 200.2, 186, 199.8, 200.4, 199.6};
  const double zones[] = {1.00, 0.96, 1.04, 0.97, 1.03, 0.96, 1.04, 0.98, 1.02, 0.96};
  std::int64_t at = 1700000000 + 86400;
  for (int i = 0; i < 10; ++i) {
    ASSERT_GT(fleet_.AddRun(disk_, "zones", RunOutcome::kOk, at, Zones(zones[i])), 0);
    ASSERT_GT(fleet_.AddRun(disk_, "seq", RunOutcome::kOk, at + 1800, {Seq(seq[i])}), 0);
    at += 7 * 86400;
  }
  // The page's band of seq.
  const json history = Get("/api/v1/drives/sdz/history?test=seq&metric=mb_per_s");
  ASSERT_EQ(history["series"].size(), 1u) << history.dump();
  const json& page = history["series"][0]["baseline"];
  ASSERT_TRUE(page.is_object()) << history.dump();
  ASSERT_EQ(page["noise_pooled"], true) << "seq's spread is pooled with the zones'";
  std::vector<detect::Sample> own;
  for (const json& s : history["series"][0]["samples"])
    own.push_back({s["run_id"].get<std::int64_t>(), s["at"].get<std::int64_t>(),
                   s["value"].get<double>()});
  const detect::Baseline apart = detect::ComputeBaseline(own, own.size(), DetectionConfig{}, 0);
  ASSERT_NE(apart.median, page["median"].get<double>()) << "the scenario tells them apart";
  // /metrics' band of the same series.
  const std::string text = fleet_.Scrape();
  const std::string l = "drive=\"" + disk_.id + "\",test=\"seq\",series=\"qd8-1m\"";
  auto low = SampleValue(text, "diskpulse_drive_baseline_low_read_bytes_per_second{" + l + "}");
  auto high = SampleValue(text, "diskpulse_drive_baseline_high_read_bytes_per_second{" + l + "}");
  auto median = SampleValue(text, "diskpulse_drive_baseline_read_bytes_per_second{" + l + "}");
  ASSERT_TRUE(low && high && median) << text;
  EXPECT_DOUBLE_EQ(*low, page["low"].get<double>() * 1e6);
  EXPECT_DOUBLE_EQ(*high, page["high"].get<double>() * 1e6);
  EXPECT_DOUBLE_EQ(*median, page["median"].get<double>() * 1e6);
  // The overview's percent is of that baseline.
  const json overview = Get("/api/v1/overview");
  const json* row = nullptr;
  for (const json& d : overview["drives"])
    if (d["name"] == "sdz") row = &d;
  ASSERT_TRUE(row) << overview.dump();
  const json& read = (*row)["read"];
  ASSERT_EQ(read["test"], "seq") << read.dump();
  EXPECT_DOUBLE_EQ(read["baseline_median"].get<double>(), page["median"].get<double>());
  EXPECT_DOUBLE_EQ(read["percent"].get<double>(),
                   100 * read["value"].get<double>() / page["median"].get<double>());
  // The next run is judged against the band the page drew.
  const std::int64_t next =
      fleet_.AddRun(disk_, "seq", RunOutcome::kOk, at + 1800, {Seq(199)});
  ASSERT_GT(next, 0);
  auto run = fleet_.store().GetRun(next);
  ASSERT_TRUE(run.ok() && *run);
  RunEvaluator evaluator(fleet_.store(), nullptr, DetectionConfig{}, nullptr);
  auto verdicts = evaluator.Evaluate(**run);
  ASSERT_TRUE(verdicts.ok()) << verdicts.status().ToString();
  const Verdict* change = nullptr;
  for (const Verdict& v : *verdicts)
    if (ConditionKindOf(v.condition) == ConditionKind::kSlowdown && v.series == "qd8-1m")
      change = &v;
  ASSERT_TRUE(change);
  EXPECT_EQ(change->kind, VerdictKind::kClear) << change->summary;
  ASSERT_TRUE(change->band_low && change->band_high && change->baseline_median);
  EXPECT_DOUBLE_EQ(*change->band_low, page["low"].get<double>());
  EXPECT_DOUBLE_EQ(*change->band_high, page["high"].get<double>());
  EXPECT_DOUBLE_EQ(*change->baseline_median, page["median"].get<double>());
}

}  // namespace
}  // namespace dp
