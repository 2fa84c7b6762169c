// SMART judged with overrides, over real smartctl captures: an ignored
// attribute is clear (and says so), a threshold moves the limit, and every
// condition the detector judges is one an override may name.
#include <gtest/gtest.h>

#include "detect/smart_detector.h"
#include "model/drive_override.h"
#include "smart/smartctl_parser.h"
#include "support/temp_dir.h"

namespace dp::detect {
namespace {

SmartSnapshot Capture(const std::string& name) {
  auto r = ParseSmartctlOutput(testing::ReadFile(testing::FixturePath("smartctl/" + name)));
  EXPECT_TRUE(r.ok()) << name;
  return r.ok() ? r->snapshot : SmartSnapshot{};
}

const Verdict& Find(const std::vector<Verdict>& vs, const std::string& condition) {
  static const Verdict kNone;
  for (const auto& v : vs)
    if (v.condition == condition) return v;
  ADD_FAILURE() << "no verdict " << condition;
  return kNone;
}

Drive DriveOf(const SmartSnapshot& s) {
  Drive d;
  d.id = "wwn-1";
  d.model = s.model;
  d.serial = s.serial;
  return d;
}

DriveOverride Attr(const std::string& selector_model, const std::string& attribute) {
  DriveOverride o;
  o.source = "config";
  o.where = "diskpulse.json:7";
  o.model = selector_model;
  o.attribute = *CanonicalSmartAttribute(attribute);
  return o;
}

TEST(SmartOverride, IgnoringTheCrcCountOfAnOldCableLeavesItClear) {
  // HGST HUS724020ALE640 with 12 UDMA CRC errors; the previous check saw 10.
  SmartSnapshot now = Capture("ata-hdd-hgst-HUS724020ALE640-crc-errors-exit64.json");
  SmartSnapshot before = now;
  before.udma_crc_errors = 10;
  DetectionConfig cfg;
  auto plain = EvaluateSmart("wwn-1", "sda", &before, now, 100, cfg);
  EXPECT_EQ(Find(plain, "smart:udma_crc_errors").kind, VerdictKind::kSmart);

  DriveOverride ignore = Attr("HGST HUS7240*", "199");
  ignore.ignore = true;
  ResolvedOverrides r = ResolveOverrides({ignore}, DriveOf(now), 100);
  auto tuned = EvaluateSmart("wwn-1", "sda", &before, now, 100, cfg, &r);
  const Verdict& v = Find(tuned, "smart:udma_crc_errors");
  EXPECT_EQ(v.kind, VerdictKind::kClear);
  EXPECT_NE(v.summary.find("ignored by config diskpulse.json:7"), std::string::npos) << v.summary;
  EXPECT_EQ(v.details["override"], "config diskpulse.json:7");
  // Only that attribute: the rest is judged as before.
  EXPECT_EQ(Find(tuned, "smart:health").kind, Find(plain, "smart:health").kind);
}

TEST(SmartOverride, ACounterThresholdToleratesUpToItsCount) {
  // Seagate ST3500418AS with 304 reallocated sectors, first sight.
  SmartSnapshot s = Capture("ata-hdd-seagate-ST3500418AS-reallocated-304.json");
  DetectionConfig cfg;
  EXPECT_EQ(Find(EvaluateSmart("wwn-1", "sda", nullptr, s, 100, cfg), "smart:reallocated_sectors").kind,
            VerdictKind::kSmart);
  DriveOverride o = Attr("ST3500418AS", "reallocated_sectors");
  o.threshold = 400;
  ResolvedOverrides r = ResolveOverrides({o}, DriveOf(s), 100);
  const Verdict within = Find(EvaluateSmart("wwn-1", "sda", nullptr, s, 100, cfg, &r),
                              "smart:reallocated_sectors");
  EXPECT_EQ(within.kind, VerdictKind::kClear) << within.summary;
  // More sectors than tolerated: an alert again, first sight or growth.
  SmartSnapshot more = s;
  more.reallocated_sectors = 410;
  EXPECT_EQ(Find(EvaluateSmart("wwn-1", "sda", &s, more, 200, cfg, &r), "smart:reallocated_sectors").kind,
            VerdictKind::kSmart);
  SmartSnapshot a_few_more = s;
  a_few_more.reallocated_sectors = 350;
  EXPECT_EQ(Find(EvaluateSmart("wwn-1", "sda", &s, a_few_more, 200, cfg, &r),
                 "smart:reallocated_sectors").kind,
            VerdictKind::kClear);
}

TEST(SmartOverride, ATemperatureThresholdIsTheDrivesCeiling) {
  SmartSnapshot s = Capture("ata-hdd-seagate-ST3500418AS-reallocated-304.json");  // 33 C
  DetectionConfig cfg;
  EXPECT_EQ(Find(EvaluateSmart("wwn-1", "sda", nullptr, s, 100, cfg), "smart:temperature").kind,
            VerdictKind::kClear);
  DriveOverride o = Attr("st3500*", "temperature");  // the pattern ignores case
  o.threshold = 30;
  ResolvedOverrides r = ResolveOverrides({o}, DriveOf(s), 100);
  const Verdict hot = Find(EvaluateSmart("wwn-1", "sda", nullptr, s, 100, cfg, &r), "smart:temperature");
  EXPECT_EQ(hot.kind, VerdictKind::kSmart);
  EXPECT_EQ(hot.band_high, 30);
}

TEST(SmartOverride, AnOverrideForAnotherModelChangesNothing) {
  SmartSnapshot s = Capture("ata-hdd-seagate-ST3500418AS-reallocated-304.json");
  DriveOverride o = Attr("WDC*", "5");
  o.ignore = true;
  ResolvedOverrides r = ResolveOverrides({o}, DriveOf(s), 100);
  EXPECT_EQ(Find(EvaluateSmart("wwn-1", "sda", nullptr, s, 100, DetectionConfig{}, &r),
                 "smart:reallocated_sectors").kind,
            VerdictKind::kSmart);
}

TEST(SmartOverride, EveryJudgedConditionIsAnAttributeAnOverrideMayName) {
  // A snapshot that makes the detector speak about every condition it has.
  SmartSnapshot ata = Capture("ata-hdd-seagate-ST3500418AS-reallocated-304.json");
  SmartSnapshot nvme = Capture("nvme-samsung-970evo-500g-media-errors.json");
  SmartSelfTest t;
  t.type = "short";
  t.status = "Completed without error";
  t.passed = true;
  ata.self_tests = {t};
  std::set<std::string> seen;
  for (const auto* s : {&ata, &nvme})
    for (const Verdict& v : EvaluateSmart("x", "", nullptr, *s, 1, DetectionConfig{}))
      seen.insert(v.condition.substr(6));
  const auto& known = JudgedSmartAttributes();
  for (const std::string& field : seen)
    EXPECT_NE(std::find(known.begin(), known.end(), field), known.end())
        << "smart:" << field << " is judged but no override can name it";
  EXPECT_GE(seen.size(), 10u);
}

}  // namespace
}  // namespace dp::detect
