#include "detect/downsample.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace dp::detect {
namespace {

// Two years of daily runs near 180 MB/s with a gentle ripple.
std::vector<Sample> Daily(std::size_t n) {
  std::vector<Sample> out;
  for (std::size_t i = 0; i < n; ++i)
    out.push_back(Sample{static_cast<std::int64_t>(i + 1),
                         1'767'225'600 + static_cast<std::int64_t>(i) * 86400,
                         180 + 3 * std::sin(static_cast<double>(i) / 7)});
  return out;
}

bool InTimeOrder(const std::vector<Sample>& v) {
  return std::is_sorted(v.begin(), v.end(),
                        [](const Sample& a, const Sample& b) { return a.at < b.at; }) &&
         std::adjacent_find(v.begin(), v.end(), [](const Sample& a, const Sample& b) {
           return a.run_id == b.run_id;
         }) == v.end();
}

TEST(DownsampleExtremesTest, ExactWhenThereAreNoMorePointsThanAsked) {
  const auto in = Daily(300);
  for (std::size_t points : {300u, 301u, 5000u}) {
    const auto out = DownsampleExtremes(in, points);
    ASSERT_EQ(out.size(), in.size()) << points;
    for (std::size_t i = 0; i < in.size(); ++i) {
      EXPECT_EQ(out[i].run_id, in[i].run_id);
      EXPECT_EQ(out[i].value, in[i].value);
    }
  }
  EXPECT_TRUE(DownsampleExtremes({}, 10).empty());
}

TEST(DownsampleExtremesTest, KeepsToTheNumberAsked) {
  const auto in = Daily(2000);
  for (std::size_t points : {2u, 3u, 50u, 199u, 390u, 1999u}) {
    const auto out = DownsampleExtremes(in, points);
    EXPECT_LE(out.size(), points) << points;
    // Each stretch gives two (the ripple is never flat over a stretch).
    EXPECT_GE(out.size(), points / 2 * 2 - 1) << points;
    EXPECT_TRUE(InTimeOrder(out)) << points;
  }
  EXPECT_LE(DownsampleExtremes(in, 0).size(), 2u);
}

// A week where the drive read 30% slower, among two thousand days: a chart of
// 100 points still shows its lowest run, and the highest of the whole span.
TEST(DownsampleExtremesTest, ASlowdownDipSurvives) {
  auto in = Daily(2000);
  for (std::size_t i = 1200; i < 1207; ++i) in[i].value = 126 - static_cast<double>(i - 1200);
  in[1500].value = 400;  // a spike too
  const auto out = DownsampleExtremes(in, 100);
  ASSERT_LE(out.size(), 100u);
  const auto lowest = std::min_element(out.begin(), out.end(),
                                       [](const Sample& a, const Sample& b) { return a.value < b.value; });
  EXPECT_EQ(lowest->run_id, in[1206].run_id);
  EXPECT_DOUBLE_EQ(lowest->value, 120);
  const auto highest = std::max_element(out.begin(), out.end(),
                                        [](const Sample& a, const Sample& b) { return a.value < b.value; });
  EXPECT_EQ(highest->run_id, in[1500].run_id);
  // Picking every 20th run instead would have missed the dip's bottom.
  EXPECT_NE(1206 % 20, 0);
}

// A contended run lower than a real dip in the same stretch does not take
// the dip's place: the line is drawn from good runs.
TEST(DownsampleExtremesTest, AContendedRunDoesNotHideAGoodDip) {
  auto in = Daily(1000);
  in[500].value = 150;   // a real dip
  in[503].value = 40;    // contended: another program was reading
  in[503].contended = true;
  const auto out = DownsampleExtremes(in, 20);  // stretches of 100 runs
  EXPECT_TRUE(std::any_of(out.begin(), out.end(), [&](const Sample& s) { return s.run_id == in[500].run_id; }));
  EXPECT_FALSE(std::any_of(out.begin(), out.end(), [&](const Sample& s) { return s.run_id == in[503].run_id; }));
  // A stretch of nothing but flagged runs still gives its extremes.
  auto flagged = Daily(10);
  for (auto& s : flagged) s.partial = true;
  EXPECT_EQ(DownsampleExtremes(flagged, 4).size(), 4u);
}

}  // namespace
}  // namespace dp::detect
