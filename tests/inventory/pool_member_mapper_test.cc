#include "inventory/pool_member_mapper.h"

#include <gtest/gtest.h>

#include "inventory/zpool_status_parser.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

Drive MakeDrive(const std::string& name, std::optional<std::string> wwn, const std::string& model,
                const std::string& serial, std::vector<std::string> stable = {}) {
  Drive d;
  d.name = name;
  d.dev_path = "/dev/" + name;
  d.wwn = std::move(wwn);
  d.model = model;
  d.serial = serial;
  d.stable_paths = std::move(stable);
  d.id = MakeDriveId(d.wwn, model, serial, d.dev_path);
  return d;
}

class PoolMemberMapperTest : public ::testing::Test {
 protected:
  void SetUp() override {
    drives_ = {
        MakeDrive("sda", "5000c500c65ac66f", "ST8000VN004-2M2101", "WSD4EYEW",
                  {"/dev/disk/by-id/ata-ST8000VN004-2M2101_WSD4EYEW", "/dev/disk/by-id/wwn-0x5000c500c65ac66f"}),
        MakeDrive("sdb", std::nullopt, "ST8000VN004-2M2101", "WSD49ZDC"),
        MakeDrive("nvme0n1", std::nullopt, "Force MP510", "1850820700012771028C"),
        MakeDrive("ada0", "50014ee2b9aaaaaa", "WDC WD40EFRX-68N32N0", "WD-WCC7K0AAAAAA"),
        MakeDrive("ada1", std::nullopt, "WDC WD40EFRX-68N32N0", "WD-WCC7K0BBBBBB"),
    };
    aliases_.Add("/dev/disk/by-partuuid/1111-2222", "sdb1");
    aliases_.Add("/dev/disk/by-vdev/drive0-part1", "sda1");
    aliases_.Add("/dev/mapper/luks-abc", "dm-3");
    aliases_.holder_slave["dm-3"] = "sdb2";
    aliases_.partition_parent["sdb1"] = "sdb";
    aliases_.partition_parent["sdb2"] = "sdb";
    aliases_.Add("/dev/gpt/zfs0", "ada0p3");
    aliases_.Add("/dev/gptid/0b1c-44", "ada1p2");
  }

  std::string Map(const std::string& path) {
    return MapMemberToDrive(path, drives_, aliases_).value_or("<none>");
  }

  std::vector<Drive> drives_;
  DeviceAliases aliases_;
};

TEST_F(PoolMemberMapperTest, BareAndPartitionNames) {
  EXPECT_EQ(Map("sdb"), drives_[1].id);
  EXPECT_EQ(Map("sda1"), drives_[0].id);
  EXPECT_EQ(Map("/dev/sdb9"), drives_[1].id);
  EXPECT_EQ(Map("nvme0n1p4"), drives_[2].id);
  EXPECT_EQ(Map("ada0p3"), drives_[3].id);
  EXPECT_EQ(Map("/dev/ada1p2"), drives_[4].id);
  EXPECT_EQ(Map("ada0p4.eli"), drives_[3].id);  // GELI provider on a partition
}

TEST_F(PoolMemberMapperTest, LabelsAndSymlinks) {
  EXPECT_EQ(Map("gpt/zfs0"), drives_[3].id);
  EXPECT_EQ(Map("/dev/gpt/zfs0"), drives_[3].id);
  EXPECT_EQ(Map("gptid/0b1c-44"), drives_[4].id);
  EXPECT_EQ(Map("/dev/disk/by-partuuid/1111-2222"), drives_[1].id);
  EXPECT_EQ(Map("1111-2222"), drives_[1].id);      // zpool without -P prints the basename
  EXPECT_EQ(Map("drive0-part1"), drives_[0].id);   // vdev_id.conf names
  EXPECT_EQ(Map("/dev/mapper/luks-abc"), drives_[1].id);  // dm-crypt over sdb2
}

TEST_F(PoolMemberMapperTest, IdentityCarriedInByIdNames) {
  // No alias table entry: the name itself says which drive.
  EXPECT_EQ(Map("wwn-0x5000c500c65ac66f-part2"), drives_[0].id);
  EXPECT_EQ(Map("/dev/disk/by-id/ata-ST8000VN004-2M2101_WSD49ZDC-part1"), drives_[1].id);
  EXPECT_EQ(Map("ata-ST8000VN004-2M2101_WSD4EYEW"), drives_[0].id);
  EXPECT_EQ(Map("/dev/disk/by-id/nvme-Force_MP510_1850820700012771028C-part4"), drives_[2].id);
  EXPECT_EQ(Map("diskid/DISK-WD-WCC7K0BBBBBB"), drives_[4].id);
}

TEST_F(PoolMemberMapperTest, UnmappablePathsStayUnmapped) {
  EXPECT_EQ(Map("c1t1d0s6/old"), "<none>");
  EXPECT_EQ(Map("sdq"), "<none>");
  EXPECT_EQ(Map("wwn-0x5000000000000000"), "<none>");
  EXPECT_EQ(Map("ata-OTHER_MODEL_WSD49ZDC"), "<none>");  // right serial, wrong model
  EXPECT_EQ(Map(""), "<none>");
}

TEST_F(PoolMemberMapperTest, MapsAParsedPoolAndReportsTheRest) {
  auto pools = ParseZpoolStatus(
      ::dp::testing::ReadFile(::dp::testing::FixturePath("zpool/linux-two-pools-features-upgrade.txt")));
  ASSERT_TRUE(pools.ok());
  auto warnings = MapPoolMembers(*pools, drives_, aliases_);
  // wilbur's two members are sda/sdb by their by-id names; rpool's Samsungs are unknown here.
  const Pool& wilbur = (*pools)[1];
  EXPECT_EQ(wilbur.vdevs[0].members[0].drive_id, drives_[1].id);  // ..._WSD49ZDC-part1
  EXPECT_EQ(wilbur.vdevs[0].members[1].drive_id, drives_[0].id);  // ..._WSD4EYEW-part1
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0],
            "pool rpool: member ata-Samsung_SSD_870_EVO_2TB_S6PNNM0TB15709L maps to no known drive");
  EXPECT_EQ((*pools)[0].vdevs[0].members[0].drive_id, "");
}

TEST_F(PoolMemberMapperTest, NestedVdevRowsAreNotDevices) {
  auto pools = ParseZpoolStatus(::dp::testing::ReadFile(
      ::dp::testing::FixturePath("zpool/solaris-mirror-replacing-million-errors.txt")));
  ASSERT_TRUE(pools.ok());
  auto warnings = MapPoolMembers(*pools, drives_, aliases_);
  for (const auto& w : warnings) EXPECT_EQ(w.find("replacing-1"), std::string::npos) << w;
  EXPECT_EQ(warnings.size(), 3u);  // c1t0d0s6, c1t1d0s6/old, c1t1d0s6
}

TEST(StripPartitionSuffixTest, Names) {
  EXPECT_EQ(StripPartitionSuffix("sda1"), "sda");
  EXPECT_EQ(StripPartitionSuffix("sdab12"), "sdab");
  EXPECT_EQ(StripPartitionSuffix("sdb"), "sdb");
  EXPECT_EQ(StripPartitionSuffix("nvme0n1p2"), "nvme0n1");
  EXPECT_EQ(StripPartitionSuffix("nvme0n1"), "nvme0n1");
  EXPECT_EQ(StripPartitionSuffix("mmcblk0p1"), "mmcblk0");
  EXPECT_EQ(StripPartitionSuffix("ada0p3"), "ada0");
  EXPECT_EQ(StripPartitionSuffix("da10s1a"), "da10");
  EXPECT_EQ(StripPartitionSuffix("nvd0p2"), "nvd0");
  EXPECT_EQ(StripPartitionSuffix("c1t0d0s6"), "c1t0d0");
  EXPECT_EQ(StripPartitionSuffix("loop0"), "loop0");
}

}  // namespace
}  // namespace dp
