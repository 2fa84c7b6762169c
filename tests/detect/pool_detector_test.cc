#include "detect/pool_detector.h"

#include <gtest/gtest.h>

namespace dp::detect {
namespace {

PoolMember Member(const std::string& path, const std::string& state, std::uint64_t cksum,
                  const std::string& drive_id) {
  PoolMember m;
  m.path = path;
  m.state = state;
  m.read_errors = 0;
  m.write_errors = 0;
  m.checksum_errors = cksum;
  m.drive_id = drive_id;
  return m;
}

Pool Tank(std::uint64_t cksum_b, const std::string& state_b = "ONLINE") {
  Pool p;
  p.name = "tank";
  Vdev v;
  v.name = "mirror-0";
  v.type = "mirror";
  v.role = "data";
  v.members.push_back(Member("sda", "ONLINE", 0, "wwn-a"));
  v.members.push_back(Member("sdb", state_b, cksum_b, "wwn-b"));
  v.members.push_back(Member("sdc", "ONLINE", 0, ""));  // unmapped: skipped
  p.vdevs.push_back(v);
  return p;
}

TEST(PoolDetector, ChecksumErrorsOnOneMember) {
  Pool before = Tank(0), after = Tank(12);
  auto vs = EvaluatePool(after, &before, 500);
  ASSERT_EQ(vs.size(), 8u);  // 2 mapped members x (read, write, cksum, state)
  int firing = 0;
  for (const auto& v : vs) {
    if (!v.Firing()) continue;
    ++firing;
    EXPECT_EQ(v.drive_id, "wwn-b");
    EXPECT_EQ(v.condition, "zfs:tank:cksum");
    EXPECT_EQ(v.kind, VerdictKind::kPoolErrors);
    EXPECT_NE(v.summary.find("12 ZFS CKSUM errors (+12 since last check)"), std::string::npos)
        << v.summary;
    EXPECT_EQ(v.details["vdev"], "mirror-0");
  }
  EXPECT_EQ(firing, 1);
}

TEST(PoolDetector, FaultedMemberIsCritical) {
  auto vs = EvaluatePool(Tank(0, "FAULTED"), nullptr, 500);
  bool found = false;
  for (const auto& v : vs) {
    if (v.condition == "zfs:tank:state" && v.drive_id == "wwn-b") {
      found = true;
      EXPECT_TRUE(v.Firing());
      EXPECT_EQ(v.severity, Severity::kCritical);
    }
  }
  EXPECT_TRUE(found);
}

TEST(PoolDetector, ClearedCountersAreClear) {
  for (const auto& v : EvaluatePool(Tank(0), nullptr, 1)) EXPECT_FALSE(v.Firing());
}

}  // namespace
}  // namespace dp::detect
