// ParseZpoolIostatLatency / ParseZpoolIostatHistogram against the captures in
// tests/fixtures/zpool-iostat (expected values read from the files by hand),
// and the shapes of bad input: truncated, unknown columns, garbage.
#include "inventory/zpool_iostat_parser.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace dp {
namespace {

using ::dp::testing::FixturePath;
using ::dp::testing::ReadFile;

std::vector<VdevLatency> Parse(const std::string& name) {
  auto r = ParseZpoolIostatLatency(ReadFile(FixturePath("zpool-iostat/" + name)));
  EXPECT_TRUE(r.ok()) << name << ": " << r.status().ToString();
  return r.ok() ? *r : std::vector<VdevLatency>{};
}

const VdevLatency* Row(const std::vector<VdevLatency>& rows, const std::string& name) {
  for (const auto& r : rows)
    if (r.name == name) return &r;
  return nullptr;
}

TEST(ZpoolIostatParserTest, Times) {
  EXPECT_DOUBLE_EQ(*ParseZpoolTime("12ms"), 0.012);
  EXPECT_DOUBLE_EQ(*ParseZpoolTime("345us"), 345e-6);
  EXPECT_DOUBLE_EQ(*ParseZpoolTime("1.2s"), 1.2);
  EXPECT_DOUBLE_EQ(*ParseZpoolTime("7ns"), 7e-9);
  EXPECT_DOUBLE_EQ(*ParseZpoolTime("15200000"), 0.0152);  // -p: nanoseconds
  EXPECT_FALSE(ParseZpoolTime("-"));
  EXPECT_FALSE(ParseZpoolTime("12 ms"));
  EXPECT_FALSE(ParseZpoolTime("12h"));
  EXPECT_FALSE(ParseZpoolTime(""));
}

// OpenZFS 0.8 .. 2.0 column set: scrub and trim waits, no rebuild.
TEST(ZpoolIostatParserTest, Raidz1FiveDisksScrubTrimColumns) {
  auto rows = Parse("linux-raidz1-5disk-vl-scrub-trim.txt");
  ASSERT_EQ(rows.size(), 7u);
  const VdevLatency& pool = rows[0];
  EXPECT_EQ(pool.pool, "teststore");
  EXPECT_EQ(pool.depth, 0);
  EXPECT_FALSE(pool.leaf);
  EXPECT_EQ(pool.vdev, "");
  const VdevLatency* vd = Row(rows, "raidz1-0");
  ASSERT_TRUE(vd);
  EXPECT_EQ(vd->depth, 1);
  EXPECT_FALSE(vd->leaf);
  const VdevLatency* sdd = Row(rows, "sdd1");
  ASSERT_TRUE(sdd);
  EXPECT_EQ(sdd->pool, "teststore");
  EXPECT_EQ(sdd->vdev, "raidz1-0");
  EXPECT_EQ(sdd->depth, 2);
  EXPECT_TRUE(sdd->leaf);
  EXPECT_DOUBLE_EQ(*sdd->read_ops, 0);
  EXPECT_DOUBLE_EQ(*sdd->write_ops, 45);
  EXPECT_DOUBLE_EQ(*sdd->read_bytes, 573);
  EXPECT_NEAR(*sdd->write_bytes, 7.98 * 1024 * 1024, 1);
  EXPECT_DOUBLE_EQ(*sdd->total_wait_read, 0.032);
  EXPECT_DOUBLE_EQ(*sdd->total_wait_write, 0.008);
  EXPECT_DOUBLE_EQ(*sdd->disk_wait_read, 0.031);
  EXPECT_DOUBLE_EQ(*sdd->disk_wait_write, 0.004);
  EXPECT_DOUBLE_EQ(*sdd->syncq_wait_read, 1e-6);
  EXPECT_DOUBLE_EQ(*sdd->asyncq_wait_write, 0.004);
  EXPECT_DOUBLE_EQ(*sdd->scrub_wait, 0.060);
  EXPECT_FALSE(sdd->trim_wait);     // "-": no trim in the interval
  EXPECT_FALSE(sdd->rebuild_wait);  // this zpool prints no rebuild column
  int leaves = 0;
  for (const auto& r : rows) leaves += r.leaf ? 1 : 0;
  EXPECT_EQ(leaves, 5);
}

// OpenZFS 2.1+ column set (rebuild); a single-disk vdev is its own leaf;
// "-" for reads where the interval had none.
TEST(ZpoolIostatParserTest, SingleDiskWithRebuildColumnAndNoReads) {
  auto rows = Parse("linux-single-disk-vly-rebuild.txt");
  ASSERT_EQ(rows.size(), 2u);
  const VdevLatency& sde = rows[1];
  EXPECT_EQ(sde.name, "sde");
  EXPECT_EQ(sde.vdev, "sde");
  EXPECT_EQ(sde.depth, 1);
  EXPECT_TRUE(sde.leaf);
  EXPECT_FALSE(sde.disk_wait_read);
  EXPECT_DOUBLE_EQ(*sde.disk_wait_write, 0.012);
  EXPECT_DOUBLE_EQ(*sde.total_wait_write, 0.095);
  EXPECT_FALSE(sde.rebuild_wait);
  EXPECT_NEAR(*sde.write_bytes, 148.0 * 1024 * 1024, 1);
}

TEST(ZpoolIostatParserTest, SeveralIntervalsGiveTheLastReport) {
  auto rows = Parse("linux-nvme-vl-interval-5-reports.txt");
  ASSERT_EQ(rows.size(), 2u);
  const VdevLatency& nvme = rows[1];
  EXPECT_EQ(nvme.name, "nvme-WD_BLACK_SN850X_4000GB_xxxxxxxxxxx");
  EXPECT_DOUBLE_EQ(*nvme.read_ops, 0);
  EXPECT_NEAR(*nvme.read_bytes, 104 * 1024, 1e-6);
  EXPECT_DOUBLE_EQ(*nvme.disk_wait_read, 393e-6);
  EXPECT_FALSE(nvme.disk_wait_write);
  EXPECT_DOUBLE_EQ(*nvme.syncq_wait_read, 3e-6);
}

// -p (nanoseconds, exact counts), -P (full paths) and a logs section.
TEST(ZpoolIostatParserTest, ParsableFullPathsAndLogSection) {
  auto rows = Parse("reconstructed-raidz2-6disk-vlpPy-slog.txt");
  ASSERT_EQ(rows.size(), 9u);
  const VdevLatency* slow =
      Row(rows, "/dev/disk/by-id/ata-WDC_WD80EFZZ-68BTXN0_WD-CA0AAAA3-part1");
  ASSERT_TRUE(slow);
  EXPECT_EQ(slow->vdev, "raidz2-0");
  EXPECT_TRUE(slow->leaf);
  EXPECT_EQ(slow->section, "");
  EXPECT_DOUBLE_EQ(*slow->disk_wait_read, 0.0468);
  EXPECT_DOUBLE_EQ(*slow->read_ops, 40);
  EXPECT_DOUBLE_EQ(*slow->read_bytes, 5242880);
  const VdevLatency& log = rows.back();
  EXPECT_EQ(log.section, "logs");
  EXPECT_EQ(log.depth, 1);
  EXPECT_TRUE(log.leaf);
  EXPECT_EQ(log.vdev, log.name);
  EXPECT_FALSE(log.disk_wait_read);
  EXPECT_DOUBLE_EQ(*log.disk_wait_write, 38e-6);
}

// OpenZFS 0.7 printed only a scrub wait after the queues: the missing trim
// and rebuild columns are unknown, not errors.
TEST(ZpoolIostatParserTest, OldColumnSetWithoutTrim) {
  std::string text =
      "              capacity     operations     bandwidth    total_wait     disk_wait    "
      "syncq_wait    asyncq_wait  scrub\n"
      "pool        alloc   free   read  write   read  write   read  write   read  write   read  "
      "write   read  write   wait\n"
      "----------  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----  "
      "-----  -----  -----  -----\n"
      "tank        1.00T  1.00T     10      5  1.00M   500K    8ms    4ms    6ms    2ms    1us    "
      "1us    1ms    1ms      -\n"
      "  mirror-0  1.00T  1.00T     10      5  1.00M   500K    8ms    4ms    6ms    2ms    1us    "
      "1us    1ms    1ms      -\n"
      "    sda         -      -      5      2   512K   250K    8ms    4ms    6ms    2ms    1us    "
      "1us    1ms    1ms      -\n";
  auto r = ParseZpoolIostatLatency(text);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_DOUBLE_EQ(*(*r)[2].disk_wait_read, 0.006);
  EXPECT_FALSE((*r)[2].trim_wait);
  EXPECT_FALSE((*r)[2].scrub_wait);
}

// `-c size`: a script column right of the groups, with no group label.
TEST(ZpoolIostatParserTest, ScriptColumnIsSkipped) {
  std::string text =
      "              capacity     operations     bandwidth\n"
      "pool        alloc   free   read  write   read  write  size\n"
      "----------  -----  -----  -----  -----  -----  -----  ----\n"
      "rpool       14.6G  54.9G      4     55   250K  2.69M\n"
      "  sda1      14.6G  54.9G      4     55   250K  2.69M   70G\n"
      "----------  -----  -----  -----  -----  -----  -----  ----\n";
  auto r = ParseZpoolIostatLatency(text);
  // The pool row has no value under the script's column: one fewer token.
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("rpool"), std::string::npos) << r.status().message();
  std::string both = text;
  both.replace(both.find("2.69M\n  sda1"), 5, "2.69M     -");
  auto r2 = ParseZpoolIostatLatency(both);
  ASSERT_TRUE(r2.ok()) << r2.status().ToString();
  EXPECT_DOUBLE_EQ(*(*r2)[1].write_ops, 55);
  EXPECT_FALSE((*r2)[1].disk_wait_read);  // no -l: latencies unknown
}

TEST(ZpoolIostatParserTest, OneUnknownGroupIsSkippedTwoAreAnError) {
  std::string base = ReadFile(FixturePath("zpool-iostat/linux-raidz1-5disk-vl-scrub-trim.txt"));
  std::string one = base;
  one.replace(one.find("trim"), 4, "zzzz");
  auto r = ParseZpoolIostatLatency(one);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_DOUBLE_EQ(*Row(*r, "sdb1")->disk_wait_read, 0.030);
  // Two unknown groups of one column each are still told apart...
  std::string two = one;
  two.replace(two.find("scrub"), 5, "yyyyy");
  auto r1 = ParseZpoolIostatLatency(two);
  ASSERT_TRUE(r1.ok()) << r1.status().ToString();
  EXPECT_FALSE(Row(*r1, "sdb1")->scrub_wait);
  EXPECT_DOUBLE_EQ(*Row(*r1, "sdb1")->asyncq_wait_read, 1e-6);
  // ...but not a two-column one beside a one-column one.
  two = one;
  two.replace(two.find("disk_wait"), 9, "xxxx_wait");
  auto r2 = ParseZpoolIostatLatency(two);
  ASSERT_FALSE(r2.ok());
  EXPECT_NE(r2.status().message().find("cannot be told apart"), std::string::npos);
}

TEST(ZpoolIostatParserTest, TruncatedAndGarbageGiveClearErrors) {
  for (const auto& e : std::filesystem::directory_iterator(FixturePath("zpool-iostat"))) {
    std::string name = e.path().filename().string();
    if (name.find("-w-") != std::string::npos) continue;
    std::string text = ReadFile(e.path().string());
    ASSERT_TRUE(ParseZpoolIostatLatency(text).ok()) << name;
    for (std::size_t cut = 1; cut < text.size(); cut += 7) {
      auto t = ParseZpoolIostatLatency(std::string_view(text).substr(0, cut));
      if (!t.ok()) {
        EXPECT_EQ(t.status().code(), StatusCode::kCorrupt) << name << " cut " << cut;
        EXPECT_FALSE(t.status().message().empty());
      }
    }
  }
  auto garbage = ParseZpoolIostatLatency("cannot open 'tank': no such pool\n");
  ASSERT_FALSE(garbage.ok());
  EXPECT_NE(garbage.status().message().find("cannot open 'tank'"), std::string::npos);
  auto empty = ParseZpoolIostatLatency("");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  std::string bad = ReadFile(FixturePath("zpool-iostat/linux-raidz1-5disk-vl-scrub-trim.txt"));
  bad.replace(bad.find("29ms"), 4, "29xx");
  auto r = ParseZpoolIostatLatency(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("\"29xx\""), std::string::npos) << r.status().message();
  std::string binary("\x01\x02\xff\n\x00zz", 7);
  EXPECT_FALSE(ParseZpoolIostatLatency(binary).ok());
}

TEST(ZpoolIostatParserTest, HistogramOfThePool) {
  auto r =
      ParseZpoolIostatHistogram(ReadFile(FixturePath("zpool-iostat/reconstructed-pool-w-histogram.txt")));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 1u);
  const ZpoolLatencyHistogram& h = (*r)[0];
  EXPECT_EQ(h.name, "tank");
  ASSERT_EQ(h.columns.size(), 11u);
  EXPECT_EQ(h.columns[2], "disk_wait_read");
  EXPECT_EQ(h.columns[10], "rebuild");
  ASSERT_EQ(h.bucket_seconds.size(), 37u);
  EXPECT_DOUBLE_EQ(h.bucket_seconds[0], 1e-9);
  EXPECT_DOUBLE_EQ(h.bucket_seconds[22], 0.008);  // "8ms"
  EXPECT_EQ(*h.counts[22][2], 35942u);            // "35.1K" disk_wait read, 1024-based
  EXPECT_EQ(*h.counts[22][0], 39117u);            // "38.2K"
  std::string text = ReadFile(FixturePath("zpool-iostat/reconstructed-pool-w-histogram.txt"));
  auto cut = ParseZpoolIostatHistogram(text.substr(0, text.find("1ns")));
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.status().message().find("no rows"), std::string::npos);
  std::string bad = text;
  bad.replace(bad.find("4ms "), 4, "4xx ");
  EXPECT_FALSE(ParseZpoolIostatHistogram(bad).ok());
  EXPECT_FALSE(ParseZpoolIostatHistogram("garbage\n").ok());
  EXPECT_TRUE(ParseZpoolIostatHistogram("")->empty());
}

}  // namespace
}  // namespace dp
