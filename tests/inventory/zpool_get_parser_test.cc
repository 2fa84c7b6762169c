// `zpool get -H -p sit_out POOL all-vdevs` (OpenZFS 2.4): the lines, the
// member each names (zpool's names without -P against the -P paths), and
// what is unknown (a "-", an ambiguous or missing name, text without -H).
#include "inventory/zpool_get_parser.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace dp {
namespace {

using ::dp::testing::FixturePath;
using ::dp::testing::ReadFile;

const char* const kPrefix = "/dev/disk/by-id/ata-WDC_WD80EFZZ-68BTXN0_WD-CA0AAAA";

TEST(ZpoolGetParserTest, SitOutOfEveryRaidzChild) {
  auto lines = ParseZpoolGetVdevProperties(
      ReadFile(FixturePath("zpool-get/reconstructed-raidz2-sit-out-Hp.txt")));
  ASSERT_TRUE(lines.ok()) << lines.status().ToString();
  ASSERT_EQ(lines->size(), 9u);
  EXPECT_EQ((*lines)[0].vdev, "root-0");
  EXPECT_EQ((*lines)[0].value, "-");
  EXPECT_EQ((*lines)[4].property, "sit_out");
  EXPECT_EQ((*lines)[4].source, "-");
  std::vector<std::string> members;
  for (int i = 1; i <= 6; ++i) members.push_back(kPrefix + std::to_string(i) + "-part1");
  members.push_back("/dev/disk/by-id/nvme-Samsung_SSD_970_EVO_Plus_500GB_S4EVNX0N000000-part1");
  auto sit = ZpoolSitOutByMember(*lines, members);
  ASSERT_EQ(sit.size(), 6u);  // the log's "-" is unknown
  EXPECT_TRUE(sit.at(members[2]));
  EXPECT_FALSE(sit.at(members[0]));
  EXPECT_EQ(sit.count(members[6]), 0u);
}

TEST(ZpoolGetParserTest, NamesMatchTheMembersZpoolPrintsWithP) {
  EXPECT_TRUE(ZpoolVdevNameMatches("sdb", "/dev/sdb1"));
  EXPECT_TRUE(ZpoolVdevNameMatches("sdb1", "/dev/sdb1"));
  EXPECT_TRUE(ZpoolVdevNameMatches("nvme0n1", "/dev/nvme0n1p1"));
  EXPECT_TRUE(ZpoolVdevNameMatches("ata-X", "/dev/disk/by-id/ata-X-part1"));
  EXPECT_TRUE(ZpoolVdevNameMatches("wwn-0x5000c5", "/dev/disk/by-id/wwn-0x5000c5"));
  EXPECT_TRUE(ZpoolVdevNameMatches("gpt/disk3", "/dev/gpt/disk3"));  // FreeBSD label
  EXPECT_TRUE(ZpoolVdevNameMatches("ada2p3", "/dev/ada2p3"));
  EXPECT_TRUE(ZpoolVdevNameMatches("/var/tmp/vdev.9", "/var/tmp/vdev.9"));  // file vdevs
  EXPECT_FALSE(ZpoolVdevNameMatches("sda", "/dev/sdaa1"));
  EXPECT_FALSE(ZpoolVdevNameMatches("sdb", "/dev/sdbc"));
  EXPECT_FALSE(ZpoolVdevNameMatches("raidz2-0", "/dev/sda1"));
  EXPECT_FALSE(ZpoolVdevNameMatches("", "/dev/sda1"));
}

TEST(ZpoolGetParserTest, AmbiguousOrOddValuesAreUnknown) {
  auto lines = ParseZpoolGetVdevProperties(
      "sdb\tsit_out\ton\t-\nsdb1\tsit_out\toff\t-\nsdc\tsit_out\tmaybe\t-\nsdd\tsit_out\toff\t-\n");
  ASSERT_TRUE(lines.ok());
  auto sit = ZpoolSitOutByMember(*lines, {"/dev/sdb1", "/dev/sdc1", "/dev/sdd1", "/dev/sde1"});
  EXPECT_EQ(sit.count("/dev/sdb1"), 0u);  // "sdb" and "sdb1" both name it
  EXPECT_EQ(sit.count("/dev/sdc1"), 0u);  // not on/off
  EXPECT_EQ(sit.count("/dev/sde1"), 0u);  // no line
  ASSERT_EQ(sit.count("/dev/sdd1"), 1u);
  EXPECT_FALSE(sit.at("/dev/sdd1"));
}

TEST(ZpoolGetParserTest, TextWithoutHIsCorrupt) {
  auto r = ParseZpoolGetVdevProperties(
      "NAME      PROPERTY  VALUE  SOURCE\nsdb       sit_out   on     -\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(r.status().message().find("run with -H"), std::string::npos);
  EXPECT_TRUE(ParseZpoolGetVdevProperties("")->empty());
  EXPECT_FALSE(ParseZpoolGetVdevProperties("\tsit_out\ton\t-\n").ok());
}

// `zpool list -Hp -o name,size,allocated`: exact bytes per pool, and a
// clear error (not a misreading) for output without -H or -p.
TEST(ZpoolListSpaceTest, BytesPerPool) {
  auto space = ParseZpoolListSpace(
      ReadFile(FixturePath("zpool-list/constructed-raidz1-5disk-Hp-size-allocated.txt")));
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  ASSERT_EQ(space->size(), 1u);
  EXPECT_EQ((*space)[0].pool, "teststore");
  EXPECT_EQ((*space)[0].size_bytes, 2490179088547u);
  EXPECT_EQ((*space)[0].allocated_bytes, 1473345581219u);
  for (const char* bad : {"NAME   SIZE  ALLOC\nteststore  2.26T  1.34T\n",
                          "teststore\t2.26T\t1.34T\n", "teststore\t12\n", "\t1\t2\n"}) {
    auto r = ParseZpoolListSpace(bad);
    EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << bad;
    if (!r.ok()) {
      EXPECT_NE(r.status().message().find("-Hp"), std::string::npos);
    }
  }
  EXPECT_TRUE(ParseZpoolListSpace("").ok());
}

}  // namespace
}  // namespace dp
