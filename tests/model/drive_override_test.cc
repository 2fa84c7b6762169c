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

TEST(DriveOverride, AMuteOfOneKindHoldsEveryConditionOfThatKindAndNoOther) {
  const Drive d = Seagate();
  // Every kind a drive's alert can have is mutable on its own.
  const std::vector<std::pair<std::string, std::string>> by_kind = {
      {"slowdown", "slowdown:seq:qd1-1m:mb_per_s"}, {"trend", "trend:drive"},
      {"peer", "peer:seq:qd1-1m:mb_per_s"},         {"environment", "environment:box"},
      {"smart", "smart:pending_sectors"},           {"zfs", "zfs:tank:read_errors"},
      {"missing", "missing"},                       {"wear", "wear:endurance"},
      {"selftest", "selftest:overdue"}};
  for (const auto& [kind, condition] : by_kind) {
    DriveOverride o = O("api", "drive", d.id);
    o.attribute = "";
    o.kind = kind;
    o.mute_until = 1000;
    ASSERT_FALSE(OverrideProblem(o)) << kind << ": " << OverrideProblem(o)->second;
    auto r = ResolveOverrides({o}, d, 500);
    for (const auto& [other_kind, other] : by_kind)
      EXPECT_EQ(r.MutedUntil(other), other_kind == kind ? std::optional<std::int64_t>(1000)
                                                        : std::nullopt)
          << kind << " mute, " << other;
    EXPECT_EQ(ResolveOverrides({o}, d, 1000).MutedUntil(condition), std::nullopt);
    EXPECT_EQ(DriveOverrideToJson(o)["kind"], kind);
  }
}

TEST(DriveOverride, KindIsAKnownKindAndOnlyNarrowsAMute) {
  DriveOverride o = O("api", "drive", "wwn-1");
  o.attribute = "";
  o.mute_until = 1000;
  o.kind = "selftests";
  auto p = OverrideProblem(o);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->first, "kind");
  EXPECT_NE(p->second.find("unknown alert kind 'selftests'"), std::string::npos);
  o.kind = "selftest";
  o.mute_until.reset();
  EXPECT_EQ(OverrideProblem(o)->first, "kind");  // nothing to narrow
  o.mute_until = 1000;
  o.attribute = "pending_sectors";
  EXPECT_EQ(OverrideProblem(o)->first, "kind");  // an attribute is smart's already
  o.attribute = "";
  o.kind = "scrub";  // a drive has no scrub alerts: the pool has
  EXPECT_EQ(OverrideProblem(o)->first, "kind");
}

TEST(DriveOverride, APoolOverrideMutesThePoolsOwnAlertsByKind) {
  DriveOverride pool;
  pool.pool = "tank";
  pool.mute_until = 1000;
  ASSERT_FALSE(OverrideProblem(pool));
  EXPECT_EQ(OverrideSelector(pool), "pool tank");
  EXPECT_EQ(PoolOfCondition("pool:tank:state"), "tank");
  EXPECT_EQ(PoolOfCondition("scrub:tank:overdue"), "tank");
  EXPECT_EQ(PoolOfCondition("zfs:tank:read_errors"), "tank");
  EXPECT_EQ(PoolOfCondition("missing"), "");
  EXPECT_EQ(PoolMutedUntil({pool}, "pool:tank:state", 500), 1000);
  EXPECT_EQ(PoolMutedUntil({pool}, "scrub:tank:overdue", 500), 1000);
  EXPECT_EQ(PoolMutedUntil({pool}, "pool:backup:state", 500), std::nullopt);
  EXPECT_EQ(PoolMutedUntil({pool}, "pool:tank:state", 1000), std::nullopt);
  pool.kind = "scrub";
  EXPECT_FALSE(OverrideProblem(pool));
  EXPECT_EQ(PoolMutedUntil({pool}, "scrub:tank:overdue", 500), 1000);
  EXPECT_EQ(PoolMutedUntil({pool}, "pool:tank:state", 500), std::nullopt);
  pool.pool = "*";
  EXPECT_EQ(PoolMutedUntil({pool}, "scrub:backup:findings", 500), 1000);
  // A pool override matches no drive, and only mutes the pool's kinds.
  EXPECT_FALSE(OverrideMatches(pool, Seagate()));
  pool.kind = "wear";
  EXPECT_EQ(OverrideProblem(pool)->first, "kind");
  pool.kind = "";
  pool.mute_until.reset();
  pool.attribute = "pending_sectors";
  pool.ignore = true;
  EXPECT_EQ(OverrideProblem(pool)->first, "pool");
}

TEST(DriveOverride, AnAttributeTheDrivesLatestReadingLacksIsAWarningNamingTheDrive) {
  Drive d = Seagate();
  d.name = "sda";
  SmartSnapshot s;
  s.udma_crc_errors = 0;
  SmartAttribute raw;
  raw.id = 1;
  s.attributes.push_back(raw);
  DriveOverride o = O("config", "drive", d.id);
  o.ignore = true;
  EXPECT_TRUE(MissingAttributeWarnings(o, {{d, s}}).empty());  // udma_crc_errors: carried
  o.attribute = "195";
  auto w = MissingAttributeWarnings(o, {{d, s}});
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0], "drive sda (wwn-5000c500a1b2c3d4): its latest SMART reading has no attribute "
                  "195, so this override has nothing to act on until it reports one");
  o.attribute = "1";
  EXPECT_TRUE(MissingAttributeWarnings(o, {{d, s}}).empty());
  o.attribute = "nvme_spare";
  EXPECT_EQ(MissingAttributeWarnings(o, {{d, s}}).size(), 1u);
  // No reading yet, or another drive: nothing to say.
  EXPECT_TRUE(MissingAttributeWarnings(o, {{d, std::nullopt}}).empty());
  Drive other = d;
  other.id = "wwn-2";
  EXPECT_TRUE(MissingAttributeWarnings(o, {{other, s}}).empty());
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
