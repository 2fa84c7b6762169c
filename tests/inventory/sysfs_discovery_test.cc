// Linux discovery driven by a sysfs/dev/udev tree the test builds, in the
// layout the kernel and udev use.
#include "inventory/sysfs_discovery.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "inventory/pool_member_mapper.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

namespace fs = std::filesystem;
using ::dp::testing::TempDir;

// Builds DIR/sys, DIR/dev and DIR/udev like a small NAS: a SATA HDD with a
// partition (udev knows it), a SAS disk behind an HBA (no udev: sysfs and VPD
// only), a USB stick, an NVMe SSD, a loop device, a dm-crypt holder, an empty
// card reader, and a partition-only entry that must not count as a disk.
class SysfsTree {
 public:
  explicit SysfsTree(const TempDir& t) : t_(t) {}

  // Creates the device directory at sys/<devpath>/block/<name> and the
  // sys/block/<name> symlink to it, as the kernel does.
  std::string Disk(const std::string& devpath, const std::string& name, std::uint64_t sectors,
                   const std::string& devnum, int rotational, int logical = 512, int physical = 512) {
    std::string rel = devpath + "/block/" + name;
    t_.Write("sys/" + rel + "/size", std::to_string(sectors) + "\n");
    t_.Write("sys/" + rel + "/dev", devnum + "\n");
    t_.Write("sys/" + rel + "/queue/rotational", std::to_string(rotational) + "\n");
    t_.Write("sys/" + rel + "/queue/logical_block_size", std::to_string(logical) + "\n");
    t_.Write("sys/" + rel + "/queue/physical_block_size", std::to_string(physical) + "\n");
    fs::create_directories(t_.path() / "sys/block");
    fs::create_symlink(fs::path("..") / rel, t_.path() / "sys/block" / name);
    return "sys/" + rel;
  }
  void Link(const std::string& dir, const std::string& name, const std::string& target) {
    fs::create_directories(t_.path() / dir);
    fs::create_symlink(target, t_.path() / dir / name);
  }

 private:
  const TempDir& t_;
};

class SysfsDiscoveryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SysfsTree tree(t_);
    std::string sda = tree.Disk("devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0",
                                "sda", 27344764928, "8:0", 1, 512, 4096);
    t_.Write(sda + "/device/vendor", "ATA     \n");
    t_.Write(sda + "/device/model", "WDC WD140EDFZ-11\n");  // truncated to 16 by SCSI INQUIRY
    t_.Write(sda + "/device/rev", "0A81\n");
    t_.Write(sda + "/sda1/partition", "1\n");
    t_.Write("udev/b8:0",
             "S:disk/by-id/ata-WDC_WD140EDFZ-11A0VA0_9RK1XXXX\n"
             "E:ID_BUS=ata\n"
             "E:ID_MODEL=WDC_WD140EDFZ-11A0VA0\n"
             "E:ID_MODEL_ENC=WDC\\x20WD140EDFZ-11A0VA0\\x20\\x20\n"
             "E:ID_REVISION=81.00A81\n"
             "E:ID_SERIAL_SHORT=9RK1XXXX\n"
             "E:ID_WWN=0x5000cca264eb01d7\n"
             "E:ID_ATA_ROTATION_RATE_RPM=5400\n");

    std::string sdb = tree.Disk(
        "devices/pci0000:00/0000:00:03.0/0000:02:00.0/host1/port-1:0/end_device-1:0/target1:0:0/1:0:0:0",
        "sdb", 7814037168, "8:16", 1);
    t_.Write(sdb + "/device/vendor", "SEAGATE \n");
    t_.Write(sdb + "/device/model", "ST4000NM0043    \n");
    t_.Write(sdb + "/device/rev", "MS03\n");
    t_.Write(sdb + "/device/wwid", "naa.5000C500A1B2C3D4\n");
    t_.Write(sdb + "/device/vpd_pg80", std::string("\x00\x80\x00\x14Z1Z5DWJK0000XXXXXXXX", 24));
    t_.Write(sdb + "/sdb1/partition", "1\n");
    t_.Write(sdb + "/sdb2/partition", "2\n");

    std::string sdc = tree.Disk(
        "devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0", "sdc",
        61440000, "8:32", 1);
    t_.Write(sdc + "/device/vendor", "SanDisk \n");
    t_.Write(sdc + "/device/model", "Ultra           \n");

    std::string nvme = tree.Disk("devices/pci0000:00/0000:00:1d.0/0000:03:00.0/nvme/nvme0", "nvme0n1",
                                 976773168, "259:0", 0);
    t_.Write(nvme + "/device/model", "Samsung SSD 970 EVO 500GB               \n");
    t_.Write(nvme + "/device/serial", "S466NX0M776250H     \n");
    t_.Write(nvme + "/device/firmware_rev", "2B2QEXE7\n");
    t_.Write(nvme + "/wwid", "eui.0025385881b0a6e2\n");
    t_.Write(nvme + "/nvme0n1p1/partition", "1\n");

    tree.Disk("devices/virtual/block", "loop0", 2048, "7:0", 1);
    std::string dm = tree.Disk("devices/virtual/block", "dm-0", 7814000000, "253:0", 1);
    fs::create_directories(t_.path() / dm / "slaves/sdb2");
    // An empty card-reader slot.
    tree.Disk("devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/host7/target7:0:0/7:0:0:0", "sdd", 0,
              "8:48", 1);

    tree.Link("dev/disk/by-id", "ata-WDC_WD140EDFZ-11A0VA0_9RK1XXXX", "../../sda");
    tree.Link("dev/disk/by-id", "ata-WDC_WD140EDFZ-11A0VA0_9RK1XXXX-part1", "../../sda1");
    tree.Link("dev/disk/by-id", "wwn-0x5000cca264eb01d7", "../../sda");
    tree.Link("dev/disk/by-id", "scsi-35000c500a1b2c3d4", "../../sdb");
    tree.Link("dev/disk/by-id", "nvme-Samsung_SSD_970_EVO_500GB_S466NX0M776250H", "../../nvme0n1");
    tree.Link("dev/disk/by-partuuid", "6e1f7c2a-01", "../../sdb1");
    tree.Link("dev/mapper", "luks-tank0", "../dm-0");

    config_.sysfs_root = t_.Path("sys");
    config_.dev_root = t_.Path("dev");
    config_.udev_data_dir = t_.Path("udev");
  }

  const Drive* Find(const DiscoveredDevices& d, const std::string& name) {
    for (const auto& x : d.drives) {
      if (x.name == name) return &x;
    }
    return nullptr;
  }

  TempDir t_;
  InventoryConfig config_;
};

TEST_F(SysfsDiscoveryTest, FindsWholeDisksWithIdentity) {
  auto r = DiscoverSysfsDrives(config_);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->drives.size(), 4u);  // sda, sdb, sdc, nvme0n1: not loop0, dm-0, empty sdd

  const Drive* sda = Find(*r, "sda");
  ASSERT_NE(sda, nullptr);
  EXPECT_EQ(sda->model, "WDC WD140EDFZ-11A0VA0");  // udev's full model, not sysfs' 16 chars
  EXPECT_EQ(sda->serial, "9RK1XXXX");
  EXPECT_EQ(sda->wwn, "5000cca264eb01d7");
  EXPECT_EQ(sda->id, "wwn-5000cca264eb01d7");
  EXPECT_EQ(sda->firmware, "81.00A81");
  EXPECT_EQ(sda->size_bytes, 27344764928ull * 512);
  EXPECT_EQ(sda->logical_block_size, 512u);
  EXPECT_EQ(sda->physical_block_size, 4096u);
  EXPECT_EQ(sda->rotational, true);
  EXPECT_EQ(sda->rotation_rpm, 5400);
  EXPECT_EQ(sda->transport, "sata");
  EXPECT_EQ(sda->controller, "0000:00:1f.2");
  EXPECT_EQ(sda->dev_path, t_.Path("dev") + "/sda");
  EXPECT_EQ(sda->stable_paths,
            (std::vector<std::string>{"/dev/disk/by-id/ata-WDC_WD140EDFZ-11A0VA0_9RK1XXXX",
                                      "/dev/disk/by-id/wwn-0x5000cca264eb01d7"}));

  const Drive* sdb = Find(*r, "sdb");
  ASSERT_NE(sdb, nullptr);
  EXPECT_EQ(sdb->model, "SEAGATE ST4000NM0043");
  EXPECT_EQ(sdb->serial, "Z1Z5DWJK0000XXXXXXXX");  // from VPD page 0x80
  EXPECT_EQ(sdb->wwn, "5000c500a1b2c3d4");
  EXPECT_EQ(sdb->firmware, "MS03");
  EXPECT_EQ(sdb->transport, "sas");
  EXPECT_EQ(sdb->controller, "0000:02:00.0");
  EXPECT_EQ(sdb->rotation_rpm, std::nullopt);  // rotational, speed unknown

  const Drive* sdc = Find(*r, "sdc");
  ASSERT_NE(sdc, nullptr);
  EXPECT_EQ(sdc->transport, "usb");
  EXPECT_EQ(sdc->model, "SanDisk Ultra");
  EXPECT_EQ(sdc->serial, "");
  EXPECT_EQ(sdc->id, "path-/dev/sdc");  // nothing stable to go by: the kernel name
  EXPECT_EQ(sdc->dev_path, t_.Path("dev") + "/sdc");

  const Drive* nvme = Find(*r, "nvme0n1");
  ASSERT_NE(nvme, nullptr);
  EXPECT_EQ(nvme->transport, "nvme");
  EXPECT_EQ(nvme->model, "Samsung SSD 970 EVO 500GB");
  EXPECT_EQ(nvme->serial, "S466NX0M776250H");
  EXPECT_EQ(nvme->firmware, "2B2QEXE7");
  EXPECT_EQ(nvme->wwn, std::nullopt);  // an EUI-64 is no WWN
  EXPECT_EQ(nvme->id, "Samsung_SSD_970_EVO_500GB_S466NX0M776250H");
  EXPECT_EQ(nvme->rotation_rpm, 0);
  EXPECT_EQ(nvme->rotational, false);

  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_NE(r->warnings[0].find("sdd: size 0"), std::string::npos);
}

TEST_F(SysfsDiscoveryTest, AliasesMapPoolMembers) {
  auto r = DiscoverSysfsDrives(config_);
  ASSERT_TRUE(r.ok());
  const auto& a = r->aliases;
  EXPECT_EQ(a.partition_parent.at("sda1"), "sda");
  EXPECT_EQ(a.partition_parent.at("sdb2"), "sdb");
  EXPECT_EQ(a.partition_parent.at("nvme0n1p1"), "nvme0n1");
  EXPECT_EQ(a.holder_slave.at("dm-0"), "sdb2");
  auto map = [&](const std::string& p) { return MapMemberToDrive(p, r->drives, a).value_or("<none>"); };
  std::string sda = Find(*r, "sda")->id, sdb = Find(*r, "sdb")->id;
  EXPECT_EQ(map("/dev/disk/by-id/ata-WDC_WD140EDFZ-11A0VA0_9RK1XXXX-part1"), sda);
  EXPECT_EQ(map("ata-WDC_WD140EDFZ-11A0VA0_9RK1XXXX-part1"), sda);
  EXPECT_EQ(map("wwn-0x5000cca264eb01d7"), sda);
  EXPECT_EQ(map("6e1f7c2a-01"), sdb);
  EXPECT_EQ(map("/dev/mapper/luks-tank0"), sdb);
  EXPECT_EQ(map("sdb1"), sdb);
  EXPECT_EQ(map("loop0"), "<none>");
}

TEST_F(SysfsDiscoveryTest, IncludeAndExclude) {
  config_.include = {"loop0"};
  config_.exclude = {"/dev/sdc", "nvme0n1"};
  auto r = DiscoverSysfsDrives(config_);
  ASSERT_TRUE(r.ok());
  std::vector<std::string> names;
  for (const auto& d : r->drives) names.push_back(d.name);
  EXPECT_EQ(names, (std::vector<std::string>{"loop0", "sda", "sdb"}));
}

TEST_F(SysfsDiscoveryTest, WithoutUdevFallsBackToSysfs) {
  config_.udev_data_dir = t_.Path("no-udev-here");
  auto r = DiscoverSysfsDrives(config_);
  ASSERT_TRUE(r.ok());
  const Drive* sda = Find(*r, "sda");
  ASSERT_NE(sda, nullptr);
  EXPECT_EQ(sda->model, "WDC WD140EDFZ-11");  // ATA vendor dropped, 16-char product
  EXPECT_EQ(sda->wwn, std::nullopt);
  EXPECT_EQ(sda->firmware, "0A81");
  EXPECT_EQ(sda->transport, "sata");  // from the device path
  EXPECT_EQ(sda->rotation_rpm, std::nullopt);
}

TEST_F(SysfsDiscoveryTest, MissingSysfsIsAClearError) {
  config_.sysfs_root = t_.Path("nope");
  auto r = DiscoverSysfsDrives(config_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
}

TEST(SysfsHelpersTest, Pieces) {
  EXPECT_EQ(DecodeUdevEscapes("WDC\\x20WD40EFRX\\x2d68"), "WDC WD40EFRX-68");
  EXPECT_EQ(SerialFromVpdPage80(std::string("\x00\x80\x00\x04" "AB12", 8)), "AB12");
  EXPECT_EQ(SerialFromVpdPage80(std::string("\x00\x83\x00\x04" "AB12", 8)), "");
  EXPECT_EQ(SerialFromVpdPage80("x"), "");
  EXPECT_TRUE(SkippedByDefault("zram0"));
  EXPECT_TRUE(SkippedByDefault("zd16"));
  EXPECT_TRUE(SkippedByDefault("md127"));
  EXPECT_FALSE(SkippedByDefault("sda"));
  EXPECT_FALSE(SkippedByDefault("mmcblk0"));
  EXPECT_EQ(ControllerFromSysfsPath("/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/host0/x"),
            "0000:01:00.0");
  EXPECT_EQ(TransportFromSysfsPath("/sys/devices/platform/host0/session1/target0:0:0/0:0:0:1/block/sde", "sde"),
            "iscsi");
  EXPECT_EQ(TransportFromSysfsPath("/sys/devices/pci0000:00/0000:00:04.0/virtio1/block/vda", "vda"),
            "virtual");
}

}  // namespace
}  // namespace dp
