// EvaluateEnvironment on its own: what counts as the siblings' evidence.
#include "detect/environment_detector.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dp::detect {
namespace {

constexpr std::int64_t kT0 = 1'800'000'000;
constexpr std::int64_t kWeek = 7 * 86400;

// Twelve weekly runs of about 200 MB/s (1% apart), then `last` in week 12,
// `offset` seconds into it.
std::vector<Sample> Weeks(std::int64_t first_id, double last, std::int64_t offset) {
  std::vector<Sample> out;
  for (int w = 0; w < 12; ++w)
    out.push_back(Sample{first_id + w, kT0 + w * kWeek + offset, 200 * (1 + 0.01 * (w % 3 - 1))});
  out.push_back(Sample{first_id + 12, kT0 + 12 * kWeek + offset, last});
  return out;
}

// Every member 20% down in the same window is the vdev's; but a sibling's
// run recognised afterwards as its own unseen interference (flagged
// interfered) is no evidence that the vdev moved.
TEST(EnvironmentDetector, ASiblingsInterferedRunIsNoEvidenceOfTheVdev) {
  DetectionConfig cfg;
  const SeriesKey self{"wwn-0", "sda", "seq", "qd8-1m", "mb_per_s"};
  auto siblings = [&](bool interfered) {
    std::vector<PeerHistory> out;
    for (int i = 1; i <= 3; ++i) {
      PeerHistory p;
      p.drive_id = "wwn-" + std::to_string(i);
      p.samples = Weeks(100 * i, 160, 1200 * i);
      p.samples.back().interfered = interfered;
      out.push_back(std::move(p));
    }
    return out;
  };
  const Verdict shared = EvaluateEnvironment(self, Weeks(0, 160, 0), siblings(false),
                                             "tank/raidz1-0", "wwn-0", cfg);
  EXPECT_EQ(shared.kind, VerdictKind::kEnvironment) << shared.summary;
  const Verdict interfered = EvaluateEnvironment(self, Weeks(0, 160, 0), siblings(true),
                                                 "tank/raidz1-0", "wwn-0", cfg);
  EXPECT_NE(interfered.kind, VerdictKind::kEnvironment) << interfered.summary;
}

}  // namespace
}  // namespace dp::detect
