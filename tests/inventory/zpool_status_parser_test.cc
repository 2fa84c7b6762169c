// ParseZpoolStatus against tests/fixtures/zpool. Expected values were read
// from the files by hand.
#include "inventory/zpool_status_parser.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "model/pool_json.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using ::dp::testing::FixturePath;
using ::dp::testing::ReadFile;

std::vector<Pool> Parse(const std::string& name) {
  auto r = ParseZpoolStatus(ReadFile(FixturePath("zpool/" + name)));
  EXPECT_TRUE(r.ok()) << name << ": " << r.status().ToString();
  return r.ok() ? *r : std::vector<Pool>{};
}

const PoolMember* Member(const Pool& p, const std::string& path) {
  for (const auto& v : p.vdevs) {
    for (const auto& m : v.members) {
      if (m.path == path) return &m;
    }
  }
  return nullptr;
}

TEST(ZpoolStatusParserTest, EveryFixtureParsesOrGivesAClearError) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(FixturePath("zpool"))) {
    std::string text = ReadFile(e.path().string());
    auto r = ParseZpoolStatus(text);
    ASSERT_TRUE(r.ok()) << e.path().filename() << ": " << r.status().ToString();
    EXPECT_FALSE(r->empty()) << e.path().filename();
    auto back = PoolsFromJson(PoolsToJson(*r));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(PoolsToJson(*back), PoolsToJson(*r));
    for (std::size_t cut : {text.size() / 4, text.size() / 2, text.size() - 3}) {
      auto t = ParseZpoolStatus(std::string_view(text).substr(0, cut));
      if (!t.ok()) {
        EXPECT_FALSE(t.status().message().empty());
      }
    }
    ++n;
  }
  EXPECT_EQ(n, 32);
}

TEST(ZpoolStatusParserTest, IllumosResilverSeenFromTheRowNotTheScrubLine) {
  auto pools = Parse("illumos-mirror-replacing-52pct-resilvered.txt");
  ASSERT_EQ(pools.size(), 1u);
  const Pool& p = pools[0];
  EXPECT_EQ(p.name, "tank");
  EXPECT_EQ(p.state, "DEGRADED");
  EXPECT_EQ(p.status, "One or more devices is being resilvered.");
  // " scrub: none requested", yet "replacing ... 52% resilvered".
  EXPECT_EQ(p.scan.function, "resilver");
  EXPECT_EQ(p.scan.state, "in_progress");
  EXPECT_EQ(p.scan.percent, 52.0);
  EXPECT_TRUE(p.Busy());
  ASSERT_EQ(p.vdevs.size(), 1u);
  EXPECT_EQ(p.vdevs[0].type, "mirror");
  ASSERT_EQ(p.vdevs[0].members.size(), 4u);
  EXPECT_EQ(p.vdevs[0].members[0].path, "replacing");
  EXPECT_TRUE(p.vdevs[0].members[0].container);
  EXPECT_EQ(p.vdevs[0].members[0].note, "52% resilvered");
  EXPECT_EQ(p.vdevs[0].members[1].path, "c1t0d0");
  EXPECT_EQ(p.vdevs[0].members[1].parent, "replacing");
  EXPECT_EQ(p.vdevs[0].members[3].path, "c1t1d0");
  EXPECT_EQ(p.vdevs[0].members[3].parent, "");
  EXPECT_EQ(p.errors, "");
}

TEST(ZpoolStatusParserTest, TwoMirrorsOfWwnDevices) {
  auto pools = Parse("linux-2x-mirror-wwn-features.txt");
  ASSERT_EQ(pools.size(), 1u);
  const Pool& p = pools[0];
  EXPECT_EQ(p.name, "pool1");
  EXPECT_EQ(p.state, "ONLINE");
  EXPECT_EQ(p.scan.function, "scrub");
  EXPECT_EQ(p.scan.state, "finished");
  EXPECT_EQ(p.scan.percent, std::nullopt);
  EXPECT_EQ(p.errors, "No known data errors");
  ASSERT_EQ(p.vdevs.size(), 2u);
  EXPECT_EQ(p.vdevs[1].name, "mirror-1");
  EXPECT_EQ(p.vdevs[1].role, "data");
  ASSERT_EQ(p.vdevs[1].members.size(), 2u);
  EXPECT_EQ(p.vdevs[1].members[0].path, "wwn-0x5000c500e39e8af6");
  EXPECT_EQ(p.vdevs[1].members[1].path, "wwn-0x5000c500e3b3a41e");
  EXPECT_EQ(p.vdevs[1].members[1].read_errors, 0u);
}

TEST(ZpoolStatusParserTest, FourMirrorsAndASpare) {
  auto pools = Parse("linux-4x-mirror-with-spare-avail.txt");
  ASSERT_EQ(pools.size(), 1u);
  const Pool& p = pools[0];
  ASSERT_EQ(p.vdevs.size(), 5u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(p.vdevs[i].type, "mirror");
  EXPECT_EQ(p.vdevs[3].members[1].path, "sdi");
  const Vdev& spare = p.vdevs[4];
  EXPECT_EQ(spare.role, "spare");
  EXPECT_EQ(spare.type, "disk");
  ASSERT_EQ(spare.members.size(), 1u);
  EXPECT_EQ(spare.members[0].path, "sdf");
  EXPECT_EQ(spare.members[0].state, "AVAIL");
  EXPECT_EQ(spare.members[0].read_errors, std::nullopt);  // spares print no counters
  EXPECT_EQ(p.scan.state, "finished");
}

TEST(ZpoolStatusParserTest, ScrubInProgressPercent) {
  auto pools = Parse("linux-P-fullpath-nvme-mirror-scrub-progress.txt");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].name, "root");
  EXPECT_EQ(pools[0].scan.function, "scrub");
  EXPECT_EQ(pools[0].scan.state, "in_progress");
  EXPECT_DOUBLE_EQ(*pools[0].scan.percent, 4.96);
  EXPECT_TRUE(pools[0].Busy());
  EXPECT_NE(Member(pools[0], "/dev/disk/by-id/nvme-Force_MP510_1850820700012771028C-part4"), nullptr);

  auto start = Parse("linux-P-fullpath-nvme-mirror-scrub-start.txt");
  ASSERT_EQ(start.size(), 1u);
  EXPECT_EQ(start[0].scan.state, "in_progress");
  EXPECT_EQ(start[0].scan.percent, 0.0);
}

TEST(ZpoolStatusParserTest, DegradedWithoutScanLine) {
  auto pools = Parse("linux-mirror-degraded-no-scan-line.txt");
  ASSERT_EQ(pools.size(), 1u);
  const Pool& p = pools[0];
  EXPECT_EQ(p.name, "broken");
  EXPECT_EQ(p.state, "DEGRADED");
  EXPECT_EQ(p.scan.function, "none");
  EXPECT_EQ(p.scan.state, "none");
  const PoolMember* loop1 = Member(p, "loop1");
  ASSERT_NE(loop1, nullptr);
  EXPECT_EQ(loop1->state, "UNAVAIL");
  EXPECT_EQ(loop1->note, "corrupted data");
  EXPECT_EQ(loop1->checksum_errors, 0u);
}

TEST(ZpoolStatusParserTest, RemovedMember) {
  auto pools = Parse("linux-mirror-degraded-removed.txt");
  ASSERT_EQ(pools.size(), 1u);
  const PoolMember* m = Member(pools[0], "drive0-part1");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->state, "REMOVED");
  EXPECT_EQ(pools[0].vdevs[0].state, "DEGRADED");
}

TEST(ZpoolStatusParserTest, TwoErrorsLines) {
  auto pools = Parse("linux-mirror-online-data-errors-permission-denied.txt");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].name, "jeremy");
  EXPECT_EQ(pools[0].errors,
            "List of errors unavailable: permission denied; 1 data errors, use '-v' for a list");
  EXPECT_TRUE(pools[0].error_files.empty());
  EXPECT_EQ(pools[0].scan.state, "finished");
}

TEST(ZpoolStatusParserTest, ScrubCanceled) {
  auto pools = Parse("linux-mirror-scrub-canceled.txt");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].scan.function, "scrub");
  EXPECT_EQ(pools[0].scan.state, "canceled");
  EXPECT_FALSE(pools[0].Busy());
}

TEST(ZpoolStatusParserTest, TruncatedCaptureWithoutErrorsLine) {
  auto pools = Parse("linux-mirror2x-degraded-unavail-corrupted-data.txt");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].errors, "");
  ASSERT_EQ(pools[0].vdevs.size(), 2u);
  EXPECT_EQ(pools[0].vdevs[1].state, "DEGRADED");
  EXPECT_EQ(Member(pools[0], "loop3")->state, "UNAVAIL");
}

TEST(ZpoolStatusParserTest, ResilverFinished) {
  auto pools = Parse("linux-mirror2x-resilvered.txt");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].scan.function, "resilver");
  EXPECT_EQ(pools[0].scan.state, "finished");
}

TEST(ZpoolStatusParserTest, TwoPoolsInOneOutput) {
  auto pools = Parse("linux-two-pools-features-upgrade.txt");
  ASSERT_EQ(pools.size(), 2u);
  EXPECT_EQ(pools[0].name, "rpool");
  EXPECT_EQ(pools[1].name, "wilbur");
  EXPECT_NE(Member(pools[1], "ata-ST8000VN004-2M2101_WSD4EYEW-part1"), nullptr);
  EXPECT_EQ(pools[0].status.rfind("Some supported and requested features are not enabled", 0), 0u);
}

TEST(ZpoolStatusParserTest, ThreePoolsWithoutBlankLines) {
  auto pools = Parse("multi-pool-single-disk-vdevs-no-blank-lines.txt");
  ASSERT_EQ(pools.size(), 3u);
  EXPECT_EQ(pools[0].name, "zhgstera6");
  EXPECT_EQ(pools[0].scan.state, "canceled");
  EXPECT_EQ(pools[1].name, "zint500");
  EXPECT_EQ(pools[1].scan.state, "finished");
  ASSERT_EQ(pools[2].vdevs.size(), 1u);
  EXPECT_EQ(pools[2].vdevs[0].type, "disk");
  EXPECT_EQ(pools[2].vdevs[0].members[0].path, "Portable_SSD_T5-S49WNP0N120517B:8");
  EXPECT_EQ(pools[2].errors, "No known data errors");
}

TEST(ZpoolStatusParserTest, ImportStyleRowsWithoutCounters) {
  auto pools = Parse("solaris-import-style-faulted-no-counters.txt");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].name, "morpheus");
  EXPECT_EQ(pools[0].state, "FAULTED");
  const PoolMember* m = Member(pools[0], "c1t10d0");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->state, "ONLINE");
  EXPECT_EQ(m->read_errors, std::nullopt);
}

TEST(ZpoolStatusParserTest, RoundedMillionsOfErrorsOnANestedVdev) {
  auto pools = Parse("solaris-mirror-replacing-million-errors.txt");
  ASSERT_EQ(pools.size(), 1u);
  const Pool& p = pools[0];
  EXPECT_EQ(p.scan.function, "scrub");
  EXPECT_EQ(p.scan.state, "finished");  // "scrub completed after 12h56m"
  const PoolMember* r = Member(p, "replacing-1");
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->container);
  EXPECT_TRUE(r->counters_approximate);
  EXPECT_EQ(r->read_errors, 5809111u);    // 5.54M, 1024-based as zfs_nicenum prints
  EXPECT_EQ(r->write_errors, 20866662u);  // 19.9M
  EXPECT_EQ(r->checksum_errors, 0u);
  const PoolMember* old = Member(p, "c1t1d0s6/old");
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(old->parent, "replacing-1");
  EXPECT_EQ(old->note, "corrupted data");
}

TEST(ZpoolStatusParserTest, HeadersAtColumnZeroAndWriteErrors) {
  auto pools = Parse("solaris-mirror-replacing-unavail-io-failures.txt");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].name, "pool");
  EXPECT_EQ(pools[0].state, "DEGRADED");
  EXPECT_EQ(pools[0].scan.state, "none");
  const PoolMember* m = Member(pools[0], "c1t1d0s6");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->write_errors, 342u);
  EXPECT_FALSE(m->counters_approximate);
  EXPECT_EQ(m->note, "experienced I/O failures");
  EXPECT_EQ(Member(pools[0], "replacing-1")->note, "insufficient replicas");
}

TEST(ZpoolStatusParserTest, TwoAvailableSpares) {
  auto pools = Parse("solaris-mirror-with-2-spares-avail.txt");
  ASSERT_EQ(pools.size(), 1u);
  ASSERT_EQ(pools[0].vdevs.size(), 3u);
  EXPECT_EQ(pools[0].vdevs[1].role, "spare");
  EXPECT_EQ(pools[0].vdevs[1].members[0].path, "c5t3d0");
  EXPECT_EQ(pools[0].vdevs[2].members[0].path, "c6t3d0");
  EXPECT_EQ(pools[0].vdevs[2].members[0].state, "AVAIL");
}

TEST(ZpoolStatusParserTest, OddlyIndentedPoolRow) {
  auto pools = Parse("solaris-pool-faulted-metadata-corrupted.txt");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].state, "FAULTED");
  ASSERT_EQ(pools[0].vdevs.size(), 2u);
  EXPECT_EQ(pools[0].vdevs[0].members[0].checksum_errors, 2u);
  EXPECT_EQ(pools[0].vdevs[1].members[0].checksum_errors, 4u);
}

TEST(ZpoolStatusParserTest, PermanentErrorFileList) {
  auto pools = Parse("solaris-pool-permanent-errors-file-list-v.txt");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].errors, "Permanent errors have been detected in the following files:");
  ASSERT_EQ(pools[0].error_files.size(), 5u);
  EXPECT_EQ(pools[0].error_files[0], "/monkey/a.txt");
  EXPECT_EQ(pools[0].error_files[4], "/monkey/ghost/boo/f.txt");
}

TEST(ZpoolStatusParserTest, EveryVdevStateAndCounter) {
  auto pools = Parse("synthetic-all-vdev-states.txt");
  ASSERT_EQ(pools.size(), 1u);
  ASSERT_EQ(pools[0].vdevs.size(), 3u);
  EXPECT_EQ(pools[0].vdevs[0].state, "NOTSURE?");
  EXPECT_EQ(pools[0].vdevs[1].state, "SPLIT");
  const PoolMember* m = Member(pools[0], "ata-6666666666666666666666666666-part1");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->state, "UNAVAIL");
  EXPECT_EQ(m->read_errors, 9u);
  EXPECT_EQ(m->write_errors, 19u);
  EXPECT_EQ(m->checksum_errors, 29u);
}

TEST(ZpoolStatusParserTest, RaidzWithChecksumErrors) {
  auto pools = Parse("zol-raidz1-cksum-errors-9P.txt");
  ASSERT_EQ(pools.size(), 1u);
  ASSERT_EQ(pools[0].vdevs.size(), 1u);
  EXPECT_EQ(pools[0].vdevs[0].type, "raidz1");
  ASSERT_EQ(pools[0].vdevs[0].members.size(), 3u);
  EXPECT_EQ(pools[0].vdevs[0].members[0].checksum_errors, 12u);
  EXPECT_EQ(pools[0].vdevs[0].members[2].path, "ata-WDC_WD20EFRX-68EUZN0_WD-WCC4M2TF1P1Y");
  EXPECT_EQ(pools[0].scan.state, "finished");
}

TEST(ZpoolStatusParserTest, WhitespaceCollapsedSingleDiskPool) {
  auto pools = Parse("seed-freebsd-whitespace-collapsed.txt");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].name, "example");
  ASSERT_EQ(pools[0].vdevs.size(), 1u);
  EXPECT_EQ(pools[0].vdevs[0].members[0].path, "ada0p1");
  EXPECT_EQ(pools[0].scan.state, "none");
}

TEST(ZpoolStatusParserTest, WhitespaceCollapsedMirrorIsRefused) {
  auto r = ParseZpoolStatus(
      "pool: t\nstate: ONLINE\nconfig:\nNAME STATE READ WRITE CKSUM\nt ONLINE 0 0 0\n"
      "mirror-0 ONLINE 0 0 0\nada0 ONLINE 0 0 0\nada1 ONLINE 0 0 0\nerrors: No known data errors\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(r.status().message().find("lost their indentation"), std::string::npos);
}

// A config row the reader cannot place (an old-style `logs` row that carries
// a state and counters, at the pool row's column) costs only that row and the
// rows under it: the pool's state and its data vdevs are still read, and a
// warning names the row.
TEST(ZpoolStatusParserTest, UnknownRowIsAWarningNotARefusal) {
  std::vector<std::string> warnings;
  auto r = ParseZpoolStatus(
      ReadFile(FixturePath("zpool/solaris-pool-faulted-old-logs-row-constructed.txt")), &warnings);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 1u);
  const Pool& p = (*r)[0];
  EXPECT_EQ(p.state, "FAULTED");
  ASSERT_EQ(p.vdevs.size(), 2u);  // the two data disks; the log device is not made a data vdev
  EXPECT_EQ(p.vdevs[0].members[0].path, "c1t1d0");
  EXPECT_EQ(p.vdevs[0].members[0].checksum_errors, 2u);
  EXPECT_EQ(p.vdevs[1].members[0].path, "c1t3d0");
  EXPECT_EQ(Member(p, "c1t4d0"), nullptr);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("pool tpool"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("'logs        ONLINE       0     0     0'"), std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[0].find("with the 1 row under it"), std::string::npos) << warnings[0];
}

// After the row it could not place, a section it knows is read as usual.
TEST(ZpoolStatusParserTest, SectionsAfterAnUnknownRowAreRead) {
  std::vector<std::string> warnings;
  auto r = ParseZpoolStatus(
      ReadFile(FixturePath("zpool/solaris-mirror-old-logs-row-constructed.txt")), &warnings);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 1u);
  const Pool& p = (*r)[0];
  EXPECT_EQ(p.state, "ONLINE");
  ASSERT_EQ(p.vdevs.size(), 3u);
  EXPECT_EQ(p.vdevs[0].type, "mirror");
  EXPECT_EQ(p.vdevs[0].members.size(), 2u);
  EXPECT_EQ(p.vdevs[1].role, "spare");
  EXPECT_EQ(p.vdevs[2].members[0].path, "c6t3d0");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("logs"), std::string::npos) << warnings[0];
}

TEST(ZpoolStatusParserTest, JsonThreePools) {
  auto pools = Parse("json-three-pools-json-int-trimmed.json");
  ASSERT_EQ(pools.size(), 4u);  // the file holds four, though its description says three
  EXPECT_EQ(pools[0].name, "rpool");
  EXPECT_EQ(pools[3].name, "zpool-ssd");
  EXPECT_EQ(pools[0].scan.function, "scrub");
  EXPECT_EQ(pools[0].scan.state, "finished");
  EXPECT_EQ(pools[0].errors, "No known data errors");
  EXPECT_TRUE(pools[0].vdevs.empty());  // trimmed to the root vdev by its source project
}

TEST(ZpoolStatusParserTest, JsonDegraded) {
  auto pools = Parse("json-synthetic-rpool-degraded.json");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].state, "DEGRADED");
}

TEST(ZpoolStatusParserTest, JsonNestedVdevsSectionsAndStringNumbers) {
  // Hand-made in the shape of the zpool-status(8) JSON example (OpenZFS 2.3),
  // numbers as strings (no --json-int), a scrub 25% issued.
  const char* text = R"js({
    "output_version": {"command": "zpool status", "vers_major": 0, "vers_minor": 1},
    "pools": {"tank": {"name": "tank", "state": "ONLINE",
      "scan_stats": {"function": "SCRUB", "state": "SCANNING", "to_examine": "400", "examined": "200", "issued": "100"},
      "vdevs": {"tank": {"name": "tank", "vdev_type": "root", "vdevs": {
        "raidz2-0": {"name": "raidz2-0", "vdev_type": "raidz", "state": "ONLINE",
          "read_errors": "0", "write_errors": "0", "checksum_errors": "0", "vdevs": {
            "a": {"name": "a", "vdev_type": "disk", "path": "/dev/disk/by-partuuid/a", "state": "ONLINE",
                  "read_errors": "1", "write_errors": "2", "checksum_errors": "3"},
            "b": {"name": "b", "vdev_type": "disk", "path": "/dev/disk/by-partuuid/b", "state": "FAULTED",
                  "read_errors": "1.50K", "write_errors": "0", "checksum_errors": "0"}}}}}},
      "special": {"s": {"name": "s", "vdev_type": "disk", "path": "/dev/nvme0n1p1", "state": "ONLINE",
                        "read_errors": 0, "write_errors": 0, "checksum_errors": 0}},
      "dedup": {"mirror-2": {"name": "mirror-2", "vdev_type": "mirror", "state": "ONLINE", "vdevs": {
        "d1": {"name": "d1", "vdev_type": "disk", "path": "/dev/sdx1", "state": "ONLINE"}}}},
      "error_count": "2"}}})js";
  auto r = ParseZpoolStatus(text);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 1u);
  const Pool& p = (*r)[0];
  EXPECT_EQ(p.scan.state, "in_progress");
  EXPECT_DOUBLE_EQ(*p.scan.percent, 25.0);
  EXPECT_EQ(p.errors, "2 data errors, use '-v' for a list");
  ASSERT_EQ(p.vdevs.size(), 3u);
  EXPECT_EQ(p.vdevs[0].type, "raidz2");
  ASSERT_EQ(p.vdevs[0].members.size(), 2u);
  EXPECT_EQ(p.vdevs[0].members[0].path, "/dev/disk/by-partuuid/a");
  EXPECT_EQ(p.vdevs[0].members[0].checksum_errors, 3u);
  EXPECT_EQ(p.vdevs[0].members[1].read_errors, 1536u);
  EXPECT_TRUE(p.vdevs[0].members[1].counters_approximate);
  EXPECT_EQ(p.vdevs[1].role, "special");
  EXPECT_EQ(p.vdevs[1].members[0].path, "/dev/nvme0n1p1");
  EXPECT_EQ(p.vdevs[2].role, "dedup");
  EXPECT_EQ(p.vdevs[2].type, "mirror");
  EXPECT_EQ(p.vdevs[2].members[0].read_errors, std::nullopt);
}

TEST(ZpoolStatusParserTest, NewFormatsAndGarbageAreRefusedClearly) {
  auto a = ParseZpoolStatus("POOL tank IS FINE, TRUST ME\n");
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(a.status().message().find("new zpool format"), std::string::npos);

  auto b = ParseZpoolStatus("  pool: tank\n state: ONLINE\n");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("no config: section"), std::string::npos);

  auto c = ParseZpoolStatus("{\"pools\": {\"tank\": ");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("not valid"), std::string::npos);

  auto d = ParseZpoolStatus("{\"zpools\": []}");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("\"pools\""), std::string::npos);

  auto none = ParseZpoolStatus("no pools available\n");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(ZpoolStatusParserTest, VdevTypes) {
  EXPECT_EQ(VdevTypeFromName("mirror-0"), "mirror");
  EXPECT_EQ(VdevTypeFromName("mirror"), "mirror");
  EXPECT_EQ(VdevTypeFromName("raidz-1"), "raidz1");
  EXPECT_EQ(VdevTypeFromName("raidz3-0"), "raidz3");
  EXPECT_EQ(VdevTypeFromName("draid2:4d:1s:11c-0"), "draid");
  EXPECT_EQ(VdevTypeFromName("spare-2"), "spare");
  EXPECT_EQ(VdevTypeFromName("draidic"), "disk");
  EXPECT_EQ(VdevTypeFromName("sda"), "disk");
}

// `zpool status -s`: the SLOW column of leaves; "-" on interior vdevs
// (OpenZFS 2.x) or a number on every row (older), and the notes after it.
TEST(ZpoolStatusParserTest, SlowColumnOfLeaves) {
  auto pools = Parse("openzfs-test-raidz1-slow-ios-s.txt");
  ASSERT_EQ(pools.size(), 1u);
  ASSERT_EQ(pools[0].vdevs.size(), 1u);
  const Vdev& v = pools[0].vdevs[0];
  EXPECT_EQ(v.type, "raidz1");
  ASSERT_EQ(v.members.size(), 4u);
  EXPECT_EQ(v.members[0].slow_ios, 113u);
  EXPECT_EQ(v.members[2].slow_ios, 96u);
  EXPECT_EQ(v.members[2].checksum_errors, 0u);
  EXPECT_EQ(v.members[2].note, "");

  auto bsd = Parse("freebsd-three-pools-slow-column-s.txt");
  ASSERT_EQ(bsd.size(), 3u);
  const PoolMember* da3 = Member(bsd[2], "da3");
  ASSERT_TRUE(da3);
  EXPECT_EQ(da3->slow_ios, 0u);
  EXPECT_EQ(da3->note, "");

  auto linux = Parse("linux-mirrors-special-slow-column-it.txt");
  ASSERT_EQ(linux.size(), 1u);
  const PoolMember* ssd =
      Member(linux[0], "/dev/disk/by-id/ata-Samsung_SSD_870_EVO_1TB_000000000000001-part1");
  ASSERT_TRUE(ssd);
  EXPECT_EQ(ssd->slow_ios, 0u);
  EXPECT_EQ(ssd->note.rfind("(uninitialized)", 0), 0u) << ssd->note;
}

// Without the SLOW header a number after CKSUM stays part of the note.
TEST(ZpoolStatusParserTest, NoSlowWithoutItsHeader) {
  std::string text = ReadFile(FixturePath("zpool/openzfs-test-raidz1-slow-ios-s.txt"));
  text.replace(text.find("  SLOW"), 6, "");
  auto r = ParseZpoolStatus(text);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const PoolMember& m = (*r)[0].vdevs[0].members[0];
  EXPECT_FALSE(m.slow_ios);
  EXPECT_EQ(m.note, "113");
}

// `zpool status -j -s` carries "slow_ios" on leaves (a string without
// --json-int); the shape is that of the JSON fixtures, cut to one vdev.
TEST(ZpoolStatusParserTest, SlowIosFromJson) {
  std::string text = R"({"output_version": {"command": "zpool status", "vers_major": 0, "vers_minor": 1},
    "pools": {"tank": {"name": "tank", "state": "ONLINE",
      "vdevs": {"tank": {"name": "tank", "vdev_type": "root", "state": "ONLINE",
        "read_errors": "0", "write_errors": "0", "checksum_errors": "0",
        "vdevs": {"raidz1-0": {"name": "raidz1-0", "vdev_type": "raidz", "state": "ONLINE",
          "read_errors": "0", "write_errors": "0", "checksum_errors": "0",
          "vdevs": {
            "sda": {"name": "sda", "vdev_type": "disk", "path": "/dev/sda1", "state": "ONLINE",
                    "read_errors": "0", "write_errors": "0", "checksum_errors": "0", "slow_ios": "7"},
            "sdb": {"name": "sdb", "vdev_type": "disk", "path": "/dev/sdb1", "state": "ONLINE",
                    "read_errors": "0", "write_errors": "0", "checksum_errors": "0"}}}}}},
      "error_count": "0"}}})";
  auto r = ParseZpoolStatusJson(text);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 1u);
  const PoolMember* sda = Member((*r)[0], "/dev/sda1");
  const PoolMember* sdb = Member((*r)[0], "/dev/sdb1");
  ASSERT_TRUE(sda && sdb);
  EXPECT_EQ(sda->slow_ios, 7u);
  EXPECT_FALSE(sdb->slow_ios);
}

}  // namespace
}  // namespace dp
