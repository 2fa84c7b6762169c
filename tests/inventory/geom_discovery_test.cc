// FreeBSD discovery through the ReplayCommandRunner, on any host: a FreeBSD
// NAS's tool output (hand-made in geom/camcontrol/glabel's documented
// layouts; the zpool text is the seed's pool with its indentation restored
// and gpt labels) becomes drives, and pools whose members map to them.
#include "inventory/geom_discovery.h"

#include <gtest/gtest.h>

#include "base/replay_command_runner.h"
#include "inventory/inventory.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using ::dp::testing::FixturePath;
using ::dp::testing::ReadFile;

constexpr char kGeom[] =
    "Geom name: ada0\n"
    "Providers:\n"
    "1. Name: ada0\n"
    "   Mediasize: 4000787030016 (3.6T)\n"
    "   Sectorsize: 512\n"
    "   Stripesize: 4096\n"
    "   Mode: r1w1e3\n"
    "   descr: WDC WD40EFRX-68N32N0\n"
    "   lunid: 50014ee2b9aaaaaa\n"
    "   ident: WD-WCC7K0AAAAAA\n"
    "   rotationrate: 5400\n"
    "\n"
    "Geom name: da0\n"
    "Providers:\n"
    "1. Name: da0\n"
    "   Mediasize: 12000138625024 (11T)\n"
    "   Sectorsize: 512\n"
    "   Stripesize: 4096\n"
    "   Mode: r1w1e3\n"
    "   descr: ATA TOSHIBA MG07ACA1\n"
    "   lunid: 500003981810ffff\n"
    "   ident: 98H0A11KF95G\n"
    "   rotationrate: 7200\n"
    "\n"
    "Geom name: nvd0\n"
    "Providers:\n"
    "1. Name: nvd0\n"
    "   Mediasize: 500107862016 (466G)\n"
    "   Sectorsize: 512\n"
    "   Mode: r0w0e0\n"
    "   descr: Samsung SSD 970 EVO 500GB\n"
    "   ident: S466NX0M776250H\n"
    "   rotationrate: 0\n"
    "\n"
    "Geom name: cd0\n"
    "Providers:\n"
    "1. Name: cd0\n"
    "   Mediasize: 0 (0B)\n"
    "   Sectorsize: 2048\n";

void AddFreeBsdNas(ReplayCommandRunner& r) {
  r.AddOutput({"geom", "disk", "list"}, kGeom);
  r.AddOutput({"camcontrol", "devlist", "-v"},
              "scbus0 on ahcich0 bus 0:\n"
              "<WDC WD40EFRX-68N32N0 82.00A82>    at scbus0 target 0 lun 0 (pass0,ada0)\n"
              "scbus1 on mps0 bus 0:\n"
              "<ATA TOSHIBA MG07ACA1 0101>        at scbus1 target 2 lun 0 (da0,pass1)\n"
              "scbus2 on nvme0 bus 0:\n");
  r.AddOutput({"camcontrol", "identify", "ada0"},
              "device model          WDC WD40EFRX-68N32N0\n"
              "firmware revision     82.00A82\n"
              "serial number         WD-WCC7K0AAAAAA\n"
              "WWN                   50014ee2b9aaaaaa\n"
              "sector size           logical 512, physical 4096, offset 0\n"
              "media RPM             5400\n");
  r.AddOutput({"geom", "label", "status"},
              "                                      Name  Status  Components\n"
              "                                  gpt/zfs0     N/A  ada0p3\n"
              "gptid/0b1c2d3e-1111-11ee-8c55-001b21aaaaaa     N/A  da0p2\n"
              "                     diskid/DISK-98H0A11KF95G     N/A  da0\n");
  r.AddOutput({"zpool", "status", "-j", "--json-int", "-P"}, "", 2, "invalid option 'j'\n");
  r.AddOutput({"zpool", "status", "-P", "-p"},
              "  pool: tank\n"
              " state: ONLINE\n"
              "  scan: resilver in progress since Sun Nov 30 01:00:00 2025\n"
              "\t500G / 4T scanned, 400G / 4T issued, 10.0% done\n"
              "config:\n\n"
              "\tNAME                                              STATE     READ WRITE CKSUM\n"
              "\ttank                                              ONLINE       0     0     0\n"
              "\t  mirror-0                                        ONLINE       0     0     0\n"
              "\t    /dev/gpt/zfs0                                 ONLINE       0     0     0\n"
              "\t    /dev/gptid/0b1c2d3e-1111-11ee-8c55-001b21aaaaaa  ONLINE    0     0     0  (resilvering)\n"
              "\tlogs\n"
              "\t  /dev/nvd0p1                                     ONLINE       0     0     0\n"
              "\n"
              "errors: No known data errors\n");
}

TEST(GeomDiscoveryTest, DrivesFromGeomAndCamcontrol) {
  ReplayCommandRunner r;
  AddFreeBsdNas(r);
  Config c;
  auto found = DiscoverGeomDrives(r, c.tools, c.inventory);
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  ASSERT_EQ(found->drives.size(), 3u);  // cd0 skipped
  const Drive& ada0 = found->drives[0];
  EXPECT_EQ(ada0.name, "ada0");
  EXPECT_EQ(ada0.id, "wwn-50014ee2b9aaaaaa");
  EXPECT_EQ(ada0.model, "WDC WD40EFRX-68N32N0");
  EXPECT_EQ(ada0.firmware, "82.00A82");
  EXPECT_EQ(ada0.transport, "sata");
  EXPECT_EQ(ada0.controller, "ahcich0");
  EXPECT_EQ(ada0.rotation_rpm, 5400);
  EXPECT_EQ(ada0.physical_block_size, 4096u);
  const Drive& da0 = found->drives[1];
  EXPECT_EQ(da0.model, "TOSHIBA MG07ACA1");  // SCSI vendor "ATA" dropped
  EXPECT_EQ(da0.serial, "98H0A11KF95G");
  EXPECT_EQ(da0.wwn, "500003981810ffff");
  EXPECT_EQ(da0.transport, "sas");
  EXPECT_EQ(da0.stable_paths, (std::vector<std::string>{"/dev/diskid/DISK-98H0A11KF95G"}));
  const Drive& nvd0 = found->drives[2];
  EXPECT_EQ(nvd0.transport, "nvme");
  EXPECT_EQ(nvd0.rotation_rpm, 0);
  EXPECT_EQ(nvd0.id, "Samsung_SSD_970_EVO_500GB_S466NX0M776250H");
  EXPECT_EQ(found->aliases.to_kernel.at("gpt/zfs0"), "ada0p3");
}

TEST(GeomDiscoveryTest, FreeBsdRecordingReplaysOnAnyHost) {
  ReplayCommandRunner r;
  AddFreeBsdNas(r);
  Config c;
  c.inventory.platform = "freebsd";
  auto inv = ReadInventory(c, r);
  ASSERT_TRUE(inv.ok()) << inv.status().ToString();
  EXPECT_EQ(inv->platform, Platform::kFreeBSD);
  ASSERT_EQ(inv->pools.size(), 1u);
  const Pool& tank = inv->pools[0];
  EXPECT_TRUE(tank.Busy());
  EXPECT_EQ(tank.scan.function, "resilver");
  ASSERT_EQ(tank.vdevs.size(), 2u);
  EXPECT_EQ(tank.vdevs[0].members[0].drive_id, "wwn-50014ee2b9aaaaaa");  // gpt/zfs0 -> ada0p3
  EXPECT_EQ(tank.vdevs[0].members[1].drive_id, "wwn-500003981810ffff");  // gptid -> da0p2
  EXPECT_EQ(tank.vdevs[0].members[1].note, "(resilvering)");
  EXPECT_EQ(tank.vdevs[1].role, "log");
  EXPECT_EQ(tank.vdevs[1].members[0].drive_id, "Samsung_SSD_970_EVO_500GB_S466NX0M776250H");
  EXPECT_TRUE(inv->warnings.empty()) << inv->warnings[0];
}

TEST(GeomDiscoveryTest, WithoutGeomFallsBackToDiskinfo) {
  ReplayCommandRunner r;
  r.AddError({"geom", "disk", "list"}, NotFound("geom not found"));
  r.AddOutput({"sysctl", "-n", "kern.disks"}, "da12 ada0\n");
  r.AddOutput({"diskinfo", "-v", "da12"},
              ReadFile(FixturePath("diskinfo/docextract-freebsd12-ctv-sas-enclosure-toshiba-MG07ACA-12tb.txt")));
  r.AddOutput({"diskinfo", "-v", "ada0"},
              ReadFile(FixturePath("diskinfo/seed-freebsd-v-samsung-ssd-ada0-no-dev-prefix.txt")));
  Config c;
  auto found = DiscoverGeomDrives(r, c.tools, c.inventory);
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  ASSERT_EQ(found->drives.size(), 2u);
  EXPECT_EQ(found->drives[0].name, "ada0");
  EXPECT_EQ(found->drives[0].serial, "S12PNEACB31368P");
  EXPECT_EQ(found->drives[0].size_bytes, 128035676160u);
  EXPECT_EQ(found->drives[1].name, "da12");
  EXPECT_EQ(found->drives[1].model, "TOSHIBA MG07ACA1");
  EXPECT_EQ(found->drives[1].serial, "98H0A11KF95G");
  EXPECT_EQ(found->drives[1].rotation_rpm, 7200);
  EXPECT_EQ(found->drives[1].id, "TOSHIBA_MG07ACA1_98H0A11KF95G");
  // camcontrol and glabel were not recorded: noted, not fatal.
  EXPECT_GE(found->warnings.size(), 2u);
}

}  // namespace
}  // namespace dp
