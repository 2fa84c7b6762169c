#include "detect/peer_detector.h"

#include <gtest/gtest.h>

namespace dp::detect {
namespace {

constexpr std::int64_t kT0 = 1'767'225'600;
constexpr std::int64_t kWeek = 7 * 86400;

PeerHistory Peer(const std::string& id, std::vector<double> values, std::int64_t offset = 1800) {
  PeerHistory p{id, id, {}};
  for (std::size_t i = 0; i < values.size(); ++i)
    p.samples.push_back(Sample{static_cast<std::int64_t>(100 + i),
                               kT0 + static_cast<std::int64_t>(i) * kWeek + offset, values[i]});
  return p;
}

std::vector<Sample> Own(std::vector<double> values) {
  std::vector<Sample> out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out.push_back(Sample{static_cast<std::int64_t>(i + 1),
                         kT0 + static_cast<std::int64_t>(i) * kWeek, values[i]});
  return out;
}

const SeriesKey kKey{"wwn-6", "sdf", "seq", "qd8-1m", "mb_per_s"};

std::vector<PeerHistory> FiveSiblings() {
  return {Peer("a", {200, 202}), Peer("b", {198, 197}), Peer("c", {201, 203}),
          Peer("d", {205, 199}), Peer("e", {196, 200})};
}

TEST(PeerDetector, DriveTwentyPercentSlowerIsFlaggedInTwoWindows) {
  DetectionConfig cfg;
  Verdict first = EvaluatePeers(kKey, Own({160}), FiveSiblings(), cfg);
  EXPECT_EQ(first.kind, VerdictKind::kNeedsConfirmation) << first.summary;
  Verdict v = EvaluatePeers(kKey, Own({160, 158}), FiveSiblings(), cfg);
  ASSERT_EQ(v.kind, VerdictKind::kPeerOutlier) << v.summary;
  EXPECT_TRUE(v.Firing());
  EXPECT_EQ(v.condition, "peer:seq:qd8-1m:mb_per_s");
  EXPECT_NEAR(*v.peer_median, 200, 0.01);
  EXPECT_NEAR(*v.change_percent, 21, 0.01);
  EXPECT_EQ(v.details["siblings"].size(), 5u);
  EXPECT_NE(v.summary.find("below the median of its 5 siblings"), std::string::npos) << v.summary;
}

TEST(PeerDetector, InLineIsClear) {
  DetectionConfig cfg;
  EXPECT_EQ(EvaluatePeers(kKey, Own({195, 199}), FiveSiblings(), cfg).kind, VerdictKind::kClear);
}

TEST(PeerDetector, SiblingsOutsideTheWindowDoNotCount) {
  DetectionConfig cfg;
  std::vector<PeerHistory> far = {Peer("a", {200, 200}, 2 * 86400),
                                  Peer("b", {200, 200}, 2 * 86400)};
  Verdict v = EvaluatePeers(kKey, Own({150, 150}), far, cfg);
  EXPECT_EQ(v.kind, VerdictKind::kInconclusive) << v.summary;
  // One sibling is not enough either.
  EXPECT_EQ(EvaluatePeers(kKey, Own({150, 150}), {Peer("a", {200, 200})}, cfg).kind,
            VerdictKind::kInconclusive);
}

TEST(PeerDetector, ContendedSiblingRunsAndOwnRunsAreNotEvidence) {
  DetectionConfig cfg;
  auto sib = FiveSiblings();
  for (auto& p : sib)
    for (auto& s : p.samples) s.contended = true;
  EXPECT_EQ(EvaluatePeers(kKey, Own({150, 150}), sib, cfg).kind, VerdictKind::kInconclusive);
  auto own = Own({150, 150});
  own.back().contended = true;
  EXPECT_EQ(EvaluatePeers(kKey, own, FiveSiblings(), cfg).kind, VerdictKind::kInconclusive);
}

TEST(PeerDetector, LatencyHigherThanSiblingsIsWorse) {
  DetectionConfig cfg;
  SeriesKey k = kKey;
  k.metric = "p99_us";
  std::vector<PeerHistory> sib = {Peer("a", {1000, 1000}), Peer("b", {1010, 990}),
                                  Peer("c", {995, 1005})};
  EXPECT_EQ(EvaluatePeers(k, Own({1500, 1450}), sib, cfg).kind, VerdictKind::kPeerOutlier);
  EXPECT_EQ(EvaluatePeers(k, Own({700, 700}), sib, cfg).kind, VerdictKind::kClear);
}

TEST(PeerDetector, SelfInSiblingListIsIgnored) {
  DetectionConfig cfg;
  auto sib = FiveSiblings();
  sib.push_back(Peer(kKey.drive_id, {160, 158}, 0));
  Verdict v = EvaluatePeers(kKey, Own({160, 158}), sib, cfg);
  EXPECT_EQ(v.details["siblings"].size(), 5u);
}

}  // namespace
}  // namespace dp::detect
