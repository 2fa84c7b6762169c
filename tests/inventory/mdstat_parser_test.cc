// /proc/mdstat parsing. The inputs are hand-made in the kernel's layout
// (drivers/md/md.c md_seq_show); there is no mdstat capture among the fixtures.
#include "inventory/mdstat_parser.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace dp {
namespace {

TEST(MdstatParserTest, ArraysMembersAndRebuild) {
  auto r = ParseMdstat(
      "Personalities : [raid1] [raid6] [raid5] [raid4]\n"
      "md0 : active raid1 sdb1[1] sda1[0]\n"
      "      976630464 blocks super 1.2 [2/2] [UU]\n"
      "      bitmap: 0/8 pages [0KB], 65536KB chunk\n"
      "\n"
      "md1 : active raid5 sde1[3] sdd1[1] sdc1[0](F) sdf1[4](S)\n"
      "      1953259520 blocks super 1.2 level 5, 512k chunk, algorithm 2 [3/2] [UU_]\n"
      "      [=>...................]  recovery =  8.5% (83043520/976629760) finish=104.0min speed=142586K/sec\n"
      "\n"
      "md2 : inactive sdg[0](S)\n"
      "      3906887512 blocks super 1.2\n"
      "\n"
      "unused devices: <none>\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 3u);
  const Pool& md0 = (*r)[0];
  EXPECT_EQ(md0.kind, "md");
  EXPECT_EQ(md0.name, "md0");
  EXPECT_EQ(md0.state, "ONLINE");
  EXPECT_EQ(md0.scan.state, "none");
  ASSERT_EQ(md0.vdevs.size(), 1u);
  EXPECT_EQ(md0.vdevs[0].type, "raid1");
  ASSERT_EQ(md0.vdevs[0].members.size(), 2u);
  EXPECT_EQ(md0.vdevs[0].members[0].path, "sdb1");

  const Pool& md1 = (*r)[1];
  EXPECT_EQ(md1.state, "DEGRADED");
  EXPECT_EQ(md1.scan.function, "recovery");
  EXPECT_EQ(md1.scan.state, "in_progress");
  EXPECT_DOUBLE_EQ(*md1.scan.percent, 8.5);
  EXPECT_TRUE(md1.Busy());
  ASSERT_EQ(md1.vdevs[0].members.size(), 4u);
  EXPECT_EQ(md1.vdevs[0].members[2].state, "FAULTED");
  EXPECT_EQ(md1.vdevs[0].members[3].state, "SPARE");

  const Pool& md2 = (*r)[2];
  EXPECT_EQ(md2.state, "INACTIVE");
  EXPECT_EQ(md2.vdevs[0].type, "");
  ASSERT_EQ(md2.vdevs[0].members.size(), 1u);
  EXPECT_EQ(md2.vdevs[0].members[0].path, "sdg");
}

// What the pattern of a progress line lets through but is no number: the
// array is read, its rebuild's share left unknown (no exception escapes).
TEST(MdstatParserTest, ProgressThatIsNoNumberLeavesTheShareUnknown) {
  for (const std::string& share :
       std::vector<std::string>{".", "..5", "1.2.3", std::string(400, '9'), "250"}) {
    auto r = ParseMdstat(
        "Personalities : [raid1]\n"
        "md0 : active raid1 sdb1[1] sda1[0]\n"
        "      976630464 blocks super 1.2 [2/1] [U_]\n"
        "      [=>...................]  recovery = " + share + "% (83043520/976629760)\n");
    ASSERT_TRUE(r.ok()) << share << ": " << r.status().ToString();
    ASSERT_EQ(r->size(), 1u) << share;
    EXPECT_EQ((*r)[0].scan.state, "in_progress") << share;
    EXPECT_FALSE((*r)[0].scan.percent.has_value()) << share;
  }
}

TEST(MdstatParserTest, EmptyAndGarbage) {
  auto empty = ParseMdstat("Personalities : \nunused devices: <none>\n");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  EXPECT_FALSE(ParseMdstat("something else entirely\n").ok());
}

}  // namespace
}  // namespace dp
