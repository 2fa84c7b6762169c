#include "model/drive_override.h"

#include <gtest/gtest.h>

namespace dp {
namespace {

Drive Seagate() {
  Drive d;
  d.id = "wwn-5000c500a1b2c3d4";
  d.model = "ST8000VN004-2M2101";
  d.serial = "ZA1ABCDE";
  return d;
}

DriveOverride O(const std::string& source, const std::string& how, const std::string& what) {
  DriveOverride o;
  o.source = source;
  o.where = source == "config" ? "d.json:3" : "";
  if (how == "drive") o.drive_id = what;
  if (how == "serial") o.serial = what;
  if (how == "model") o.model = what;
  o.attribute = "udma_crc_errors";
  return o;
}

TEST(DriveOverride, AttributesByNameOrAtaIdAndUnknownOnesRefused) {
  EXPECT_EQ(CanonicalSmartAttribute("199"), "udma_crc_errors");
  EXPECT_EQ(CanonicalSmartAttribute("udma_crc_errors"), "udma_crc_errors");
  EXPECT_EQ(CanonicalSmartAttribute("195"), "195");  // Seagate's raw ECC count: not judged
  EXPECT_EQ(CanonicalSmartAttribute("0"), std::nullopt);
  EXPECT_EQ(CanonicalSmartAttribute("256"), std::nullopt);
  EXPECT_EQ(CanonicalSmartAttribute("udma_crc"), std::nullopt);
  DriveOverride o = O("api", "drive", "wwn-1");
  o.attribute = "udma_crc";
  o.ignore = true;
  auto p = OverrideProblem(o);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->first, "attribute");
  EXPECT_NE(p->second.find("unknown SMART attribute 'udma_crc'"), std::string::npos);
}

TEST(DriveOverride, WhatAnOverrideMustSay) {
  DriveOverride none = O("api", "drive", "wwn-1");
  EXPECT_EQ(OverrideProblem(none)->first, "drive");  // nothing to do
  DriveOverride two = O("api", "drive", "wwn-1");
  two.serial = "X";
  two.ignore = true;
  EXPECT_EQ(OverrideProblem(two)->first, "drive");
  DriveOverride health = O("api", "drive", "wwn-1");
  health.attribute = "health";
  health.threshold = 1;
  EXPECT_EQ(OverrideProblem(health)->first, "threshold");
  DriveOverride type = O("config", "drive", "wwn-1");
  type.attribute = "";
  type.device_type = "-d sat";
  EXPECT_EQ(OverrideProblem(type)->first, "device_type");
  type.device_type = "sat+megaraid,14";
  EXPECT_FALSE(OverrideProblem(type));
}

TEST(DriveOverride, TheMostSpecificWinsThenTheApiThenTheNewer) {
  DriveOverride by_model = O("config", "model", "st8000vn*");
  by_model.ignore = true;
  DriveOverride by_serial = O("config", "serial", "za1abcde");
  by_serial.threshold = 20;
  DriveOverride api_serial = O("api", "serial", "ZA1ABCDE");
  api_serial.id = 4;
  api_serial.threshold = 50;
  const Drive d = Seagate();

  auto r = ResolveOverrides({by_model}, d, 0);
  ASSERT_TRUE(r.Attribute("udma_crc_errors"));
  EXPECT_TRUE(r.Attribute("udma_crc_errors")->ignore);

  r = ResolveOverrides({by_model, by_serial}, d, 0);
  EXPECT_FALSE(r.Attribute("udma_crc_errors")->ignore);
  EXPECT_EQ(r.Attribute("udma_crc_errors")->threshold, 20);
  EXPECT_EQ(r.Attribute("udma_crc_errors")->by, "config d.json:3");

  r = ResolveOverrides({by_serial, api_serial, by_model}, d, 0);
  EXPECT_EQ(r.Attribute("udma_crc_errors")->threshold, 50);
  EXPECT_EQ(r.Attribute("udma_crc_errors")->by, "api override 4");

  Drive other = d;
  other.model = "WDC WD80EFZX";
  other.serial = "OTHER";
  EXPECT_FALSE(ResolveOverrides({by_model, by_serial, api_serial}, other, 0).Attribute("udma_crc_errors"));
}

TEST(DriveOverride, MutesLastUntilTheirTimeAndCoverTheirScope) {
  DriveOverride drive_mute = O("api", "drive", "wwn-5000c500a1b2c3d4");
  drive_mute.attribute = "";
  drive_mute.mute_until = 1000;
  DriveOverride crc_mute = O("api", "drive", "wwn-5000c500a1b2c3d4");
  crc_mute.mute_until = 2000;
  const Drive d = Seagate();

  auto r = ResolveOverrides({drive_mute, crc_mute}, d, 500);
  EXPECT_EQ(r.MutedUntil("slowdown:seq:qd1-1m:mb_per_s"), 1000);
  EXPECT_EQ(r.MutedUntil("smart:udma_crc_errors"), 2000);
  r = ResolveOverrides({drive_mute, crc_mute}, d, 1000);
  EXPECT_EQ(r.MutedUntil("slowdown:seq:qd1-1m:mb_per_s"), std::nullopt);
  EXPECT_EQ(r.MutedUntil("smart:udma_crc_errors"), 2000);
  EXPECT_EQ(r.MutedUntil("smart:pending_sectors"), std::nullopt);
  EXPECT_TRUE(MuteExpired(drive_mute, 1000));
  EXPECT_FALSE(MuteExpired(drive_mute, 999));
}

TEST(DriveOverride, DeviceTypeComesFromTheConfigFileOnly) {
  DriveOverride file = O("config", "serial", "ZA1ABCDE");
  file.attribute = "";
  file.device_type = "sat+megaraid,14";
  DriveOverride api = file;
  api.source = "api";
  EXPECT_EQ(ResolveOverrides({file}, Seagate(), 0).device_type, "sat+megaraid,14");
  EXPECT_EQ(ResolveOverrides({api}, Seagate(), 0).device_type, "");
}

}  // namespace
}  // namespace dp
