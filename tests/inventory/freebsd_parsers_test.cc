// The FreeBSD text parsers (diskinfo, geom, glabel, camcontrol), pure and
// tested on every platform. diskinfo cases use the captures in
// tests/fixtures/diskinfo (values read from the files by hand); geom and
// camcontrol cases are hand-made in the tools' documented layout, there
// being no capture of them among the fixtures.
#include <gtest/gtest.h>

#include "inventory/camcontrol_parser.h"
#include "inventory/diskinfo_parser.h"
#include "inventory/geom_parser.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using ::dp::testing::FixturePath;
using ::dp::testing::ReadFile;

DiskinfoInfo Diskinfo(const std::string& name) {
  auto r = ParseDiskinfo(ReadFile(FixturePath("diskinfo/" + name)));
  EXPECT_TRUE(r.ok()) << name << ": " << r.status().ToString();
  return r.ok() ? *r : DiskinfoInfo{};
}

TEST(DiskinfoParserTest, TabSeparatedFreeBSD11) {
  DiskinfoInfo d = Diskinfo("docextract-freebsd11-v-intel-ssdsc2bw240a4-ada1.txt");
  EXPECT_EQ(d.device, "/dev/ada1");
  EXPECT_EQ(d.sector_size, 512u);
  EXPECT_EQ(d.media_size, 240057409536u);
  EXPECT_EQ(d.media_sectors, 468862128u);
  EXPECT_EQ(d.stripe_size, 4096u);
  EXPECT_EQ(d.ident, "");  // "(REMOVED)" by the author
  EXPECT_EQ(d.zone_mode, "Not_Zoned");
  EXPECT_EQ(d.rotation_rpm, std::nullopt);  // FreeBSD 11 printed no rotation line
}

TEST(DiskinfoParserTest, GeliProviderWithoutDeviceLine) {
  DiskinfoInfo d = Diskinfo("docextract-freebsd11-v-geli-provider-ada0p4eli.txt");
  EXPECT_EQ(d.device, "");
  EXPECT_EQ(d.sector_size, 4096u);
  EXPECT_EQ(d.media_size, 229318324224u);
}

TEST(DiskinfoParserTest, SasEnclosureDiskWithDescrAndRotation) {
  DiskinfoInfo d = Diskinfo("docextract-freebsd12-ctv-sas-enclosure-toshiba-MG07ACA-12tb.txt");
  EXPECT_EQ(d.device, "/dev/da12");
  EXPECT_EQ(d.media_size, 12000138625024u);
  EXPECT_EQ(d.descr, "ATA TOSHIBA MG07ACA1");
  EXPECT_EQ(d.ident, "98H0A11KF95G");
  EXPECT_EQ(d.physical_path, "id1,enc@n500e081010445dbd/type@0/slot@c/elmdesc@ArrayDevice11");
  EXPECT_EQ(d.trim, false);
  EXPECT_EQ(d.rotation_rpm, 7200);
  EXPECT_EQ(d.zone_mode, "Not_Zoned");
}

TEST(DiskinfoParserTest, ZvolWithUnknownRotation) {
  DiskinfoInfo d = Diskinfo("docextract-freebsd12-ctv-zvol-16tb.txt");
  EXPECT_EQ(d.device, "/dev/zvol/nas02/iscsi/test");
  EXPECT_EQ(d.media_size, 17592186044416u);
  EXPECT_EQ(d.stripe_size, 65536u);
  EXPECT_EQ(d.trim, true);
  EXPECT_EQ(d.rotation_rpm, std::nullopt);  // "Unknown"
  EXPECT_EQ(d.ident, "");
}

TEST(DiskinfoParserTest, PartitionAndCorsair) {
  EXPECT_EQ(Diskinfo("docextract-freebsd11-v-partition-ada1p1.txt").media_size, 240057364480u);
  EXPECT_EQ(Diskinfo("docextract-freebsd11-v-corsair-force-le-ssd-ada0.txt").media_sectors, 468862128u);
}

TEST(DiskinfoParserTest, SeedWithBlanksInsteadOfTabs) {
  DiskinfoInfo d = Diskinfo("seed-freebsd91-tv-seagate-ST2000DM001-da0-spaces.txt");
  EXPECT_EQ(d.device, "/dev/da0");
  EXPECT_EQ(d.sector_size, 512u);
  EXPECT_EQ(d.media_size, 2000398934016u);
  EXPECT_EQ(d.media_sectors, 3907029168u);
  EXPECT_EQ(d.stripe_size, 4096u);
  EXPECT_EQ(d.ident, "Z1E22F0N");
}

TEST(DiskinfoParserTest, SeedFlattenedOntoOneLine) {
  DiskinfoInfo d = Diskinfo("seed-flattened-tv-seagate-ST3000DM001-ada0-one-line.txt");
  EXPECT_EQ(d.device, "/dev/ada0");
  EXPECT_EQ(d.sector_size, 512u);
  EXPECT_EQ(d.media_size, 3000592982016u);
  EXPECT_EQ(d.media_sectors, 5860533168u);
  EXPECT_EQ(d.stripe_size, 4096u);
  EXPECT_EQ(d.ident, "Z1F0XLL5");
}

TEST(DiskinfoParserTest, SeedBareDeviceName) {
  DiskinfoInfo d = Diskinfo("seed-freebsd-v-samsung-ssd-ada0-no-dev-prefix.txt");
  EXPECT_EQ(d.device, "ada0");
  EXPECT_EQ(d.media_size, 128035676160u);
  EXPECT_EQ(d.stripe_size, 0u);
  EXPECT_EQ(d.ident, "S12PNEACB31368P");
}

TEST(DiskinfoParserTest, NotDiskinfo) {
  auto r = ParseDiskinfo("diskinfo: /dev/ada9: No such file or directory\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorrupt);
  EXPECT_FALSE(ParseDiskinfo("").ok());
  // A value that is not a number is not believed.
  auto odd = ParseDiskinfo("/dev/x\n\tabc\t# sectorsize\n\t12\t# mediasize in bytes (12B)\n");
  EXPECT_FALSE(odd.ok());
}

constexpr char kGeomDiskList[] =
    "Geom name: ada0\n"
    "Providers:\n"
    "1. Name: ada0\n"
    "   Mediasize: 4000787030016 (3.6T)\n"
    "   Sectorsize: 512\n"
    "   Stripesize: 4096\n"
    "   Stripeoffset: 0\n"
    "   Mode: r1w1e3\n"
    "   descr: WDC WD40EFRX-68N32N0\n"
    "   lunid: 50014ee2b9aaaaaa\n"
    "   ident: WD-WCC7K0AAAAAA\n"
    "   rotationrate: 5400\n"
    "   fwsectors: 63\n"
    "   fwheads: 16\n"
    "\n"
    "Geom name: da0\n"
    "Providers:\n"
    "1. Name: da0\n"
    "   Mediasize: 12000138625024 (11T)\n"
    "   Sectorsize: 512\n"
    "   Stripesize: 4096\n"
    "   Stripeoffset: 0\n"
    "   Mode: r0w0e0\n"
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
    "   lunid: 0025385881b0a6e2\n"
    "   ident: S466NX0M776250H\n"
    "   rotationrate: 0\n"
    "\n"
    "Geom name: cd0\n"
    "Providers:\n"
    "1. Name: cd0\n"
    "   Mediasize: 0 (0B)\n"
    "   Sectorsize: 2048\n"
    "   descr: TSSTcorp DVD-ROM\n"
    "   ident: (null)\n"
    "   rotationrate: unknown\n";

TEST(GeomParserTest, DiskList) {
  auto r = ParseGeomDiskList(kGeomDiskList);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 4u);
  const GeomDisk& ada0 = (*r)[0];
  EXPECT_EQ(ada0.name, "ada0");
  EXPECT_EQ(ada0.media_size, 4000787030016u);
  EXPECT_EQ(ada0.stripe_size, 4096u);
  EXPECT_EQ(ada0.descr, "WDC WD40EFRX-68N32N0");
  EXPECT_EQ(ada0.lunid, "50014ee2b9aaaaaa");
  EXPECT_EQ(ada0.ident, "WD-WCC7K0AAAAAA");
  EXPECT_EQ(ada0.rotation_rpm, 5400);
  EXPECT_EQ((*r)[2].rotation_rpm, 0);
  EXPECT_EQ((*r)[3].rotation_rpm, std::nullopt);
  EXPECT_EQ((*r)[3].ident, "");
  EXPECT_FALSE(ParseGeomDiskList("geom: command not found\n").ok());
}

TEST(GeomParserTest, LabelStatus) {
  auto e = ParseGlabelStatus(
      "                                      Name  Status  Components\n"
      "gptid/0b1c2d3e-1111-11ee-8c55-001b21aaaaaa     N/A  ada0p1\n"
      "                                  gpt/zfs0     N/A  ada0p3\n"
      "                 diskid/DISK-WD-WCC7K0BBBBBB     N/A  ada1\n");
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[1].label, "gpt/zfs0");
  EXPECT_EQ(e[1].component, "ada0p3");
  EXPECT_EQ(e[2].label, "diskid/DISK-WD-WCC7K0BBBBBB");
}

TEST(CamcontrolParserTest, Identify) {
  auto r = ParseCamcontrolIdentify(
      "pass0: <WDC WD40EFRX-68N32N0 82.00A82> ACS-3 ATA SATA 3.x device\n"
      "pass0: 600.000MB/s transfers (SATA 3.x, UDMA6, PIO 8192bytes)\n"
      "\n"
      "protocol              ACS-3 ATA SATA 3.x\n"
      "device model          WDC WD40EFRX-68N32N0\n"
      "firmware revision     82.00A82\n"
      "serial number         WD-WCC7K0AAAAAA\n"
      "WWN                   50014ee2b9aaaaaa\n"
      "additional product id \n"
      "cylinders             16383\n"
      "heads                 16\n"
      "sectors/track         63\n"
      "sector size           logical 512, physical 4096, offset 0\n"
      "LBA supported         268435455 sectors\n"
      "LBA48 supported       7814037168 sectors\n"
      "media RPM             5400\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->model, "WDC WD40EFRX-68N32N0");
  EXPECT_EQ(r->firmware, "82.00A82");
  EXPECT_EQ(r->serial, "WD-WCC7K0AAAAAA");
  EXPECT_EQ(r->wwn, "50014ee2b9aaaaaa");
  EXPECT_EQ(r->rotation_rpm, 5400);
  EXPECT_EQ(r->logical_sector_size, 512u);
  EXPECT_EQ(r->physical_sector_size, 4096u);
  EXPECT_EQ(r->protocol, "ACS-3 ATA SATA 3.x");

  auto ssd = ParseCamcontrolIdentify("device model          INTEL SSDSC2BW240A4\nmedia RPM             non-rotating\n");
  ASSERT_TRUE(ssd.ok());
  EXPECT_EQ(ssd->rotation_rpm, 0);
  EXPECT_FALSE(ParseCamcontrolIdentify("camcontrol: cam_lookup_pass: No such file or directory\n").ok());
}

TEST(CamcontrolParserTest, DevlistGivesTheBus) {
  auto m = ParseCamcontrolDevlist(
      "scbus0 on ahcich0 bus 0:\n"
      "<WDC WD40EFRX-68N32N0 82.00A82>    at scbus0 target 0 lun 0 (pass0,ada0)\n"
      "<>                                 at scbus0 target -1 lun ffffffff ()\n"
      "scbus1 on mps0 bus 0:\n"
      "<ATA TOSHIBA MG07ACA1 0101>        at scbus1 target 2 lun 0 (da0,pass1)\n"
      "<LSI SAS2X36 0e12>                 at scbus1 target 8 lun 0 (ses0,pass2)\n"
      "scbus2 on umass-sim0 bus 0:\n"
      "<SanDisk Ultra 1.00>               at scbus2 target 0 lun 0 (pass3,da1)\n"
      "scbus-1 on xpt0 bus 0:\n");
  EXPECT_EQ(m.size(), 3u);
  EXPECT_EQ(m["ada0"], "ahcich0");
  EXPECT_EQ(m["da0"], "mps0");
  EXPECT_EQ(m["da1"], "umass-sim0");
  EXPECT_EQ(TransportFromController("ahcich0"), "sata");
  EXPECT_EQ(TransportFromController("mps0"), "sas");
  EXPECT_EQ(TransportFromController("umass-sim0"), "usb");
  EXPECT_EQ(TransportFromController("nvme0"), "nvme");
  EXPECT_EQ(TransportFromController("xyz0"), "");
}

}  // namespace
}  // namespace dp
