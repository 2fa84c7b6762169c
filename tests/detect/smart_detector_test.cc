#include "detect/smart_detector.h"

#include <gtest/gtest.h>

namespace dp::detect {
namespace {

const Verdict* Find(const std::vector<Verdict>& vs, const std::string& condition) {
  for (const auto& v : vs)
    if (v.condition == condition) return &v;
  return nullptr;
}

SmartSnapshot Ata() {
  SmartSnapshot s;
  s.protocol = "ATA";
  s.health_passed = true;
  s.temperature_c = 38;
  s.reallocated_sectors = 0;
  s.reported_uncorrectable = 0;
  s.command_timeouts = 0;
  s.pending_sectors = 0;
  s.offline_uncorrectable = 0;
  s.udma_crc_errors = 0;
  return s;
}

TEST(SmartDetector, HealthyDriveIsClearOnEveryCondition) {
  DetectionConfig cfg;
  SmartSnapshot s = Ata();
  auto vs = EvaluateSmart("wwn-1", "sda", nullptr, s, 100, cfg);
  EXPECT_EQ(vs.size(), 8u);  // six counters + health + temperature
  for (const auto& v : vs) EXPECT_FALSE(v.Firing()) << v.condition << ": " << v.summary;
}

TEST(SmartDetector, NewOrIncreasingCountersFire) {
  DetectionConfig cfg;
  SmartSnapshot before = Ata(), after = Ata();
  after.pending_sectors = 8;
  after.reallocated_sectors = 0;
  after.udma_crc_errors = 3;
  auto vs = EvaluateSmart("wwn-1", "sda", &before, after, 100, cfg);
  const Verdict* p = Find(vs, "smart:pending_sectors");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->kind, VerdictKind::kSmart);
  EXPECT_EQ(p->severity, Severity::kCritical);
  EXPECT_EQ(*p->current, 8);
  EXPECT_EQ(*p->previous, 0);
  EXPECT_EQ(p->details["attribute_id"], 197);
  EXPECT_NE(p->summary.find("8 new pending sectors (0 -> 8)"), std::string::npos) << p->summary;
  EXPECT_TRUE(Find(vs, "smart:udma_crc_errors")->Firing());
  EXPECT_FALSE(Find(vs, "smart:reallocated_sectors")->Firing());

  // Same numbers a snapshot later: no longer increasing -> clear.
  auto again = EvaluateSmart("wwn-1", "sda", &after, after, 200, cfg);
  EXPECT_FALSE(Find(again, "smart:pending_sectors")->Firing());
}

TEST(SmartDetector, FirstSightFiresForSectorsNotForCrc) {
  DetectionConfig cfg;
  SmartSnapshot s = Ata();
  s.reallocated_sectors = 24;
  s.udma_crc_errors = 5;
  s.command_timeouts = 2;
  auto vs = EvaluateSmart("wwn-1", "", nullptr, s, 100, cfg);
  EXPECT_TRUE(Find(vs, "smart:reallocated_sectors")->Firing());
  EXPECT_FALSE(Find(vs, "smart:udma_crc_errors")->Firing());
  EXPECT_FALSE(Find(vs, "smart:command_timeouts")->Firing());
}

TEST(SmartDetector, LevelsHealthSelfTestTemperature) {
  DetectionConfig cfg;
  SmartSnapshot s = Ata();
  s.health_passed = false;
  s.temperature_c = 61;
  s.self_tests.push_back(SmartSelfTest{"short", "Completed: read failure", false, 1234});
  auto vs = EvaluateSmart("wwn-1", "sda", nullptr, s, 100, cfg);
  EXPECT_EQ(Find(vs, "smart:health")->kind, VerdictKind::kSmart);
  EXPECT_EQ(Find(vs, "smart:health")->severity, Severity::kCritical);
  const Verdict* t = Find(vs, "smart:self_test");
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->Firing());
  EXPECT_NE(t->summary.find("read failure"), std::string::npos);
  EXPECT_TRUE(Find(vs, "smart:temperature")->Firing());
  s.temperature_c = 60;
  vs = EvaluateSmart("wwn-1", "sda", nullptr, s, 100, cfg);
  EXPECT_FALSE(Find(vs, "smart:temperature")->Firing());
}

TEST(SmartDetector, NvmeMediaSpareCriticalWarning) {
  DetectionConfig cfg;
  SmartSnapshot before, after;
  before.protocol = after.protocol = "NVMe";
  before.temperature_c = after.temperature_c = 70;  // under the NVMe ceiling of 75
  before.nvme = NvmeHealth{};
  before.nvme->critical_warning = 0;
  before.nvme->media_errors = 0;
  before.nvme->available_spare = 100;
  before.nvme->available_spare_threshold = 10;
  after.nvme = before.nvme;
  after.nvme->media_errors = 2;
  after.nvme->available_spare = 5;
  after.nvme->critical_warning = 1;
  auto vs = EvaluateSmart("nvme-1", "nvme0n1", &before, after, 100, cfg);
  EXPECT_TRUE(Find(vs, "smart:nvme_media_errors")->Firing());
  EXPECT_TRUE(Find(vs, "smart:nvme_spare")->Firing());
  EXPECT_TRUE(Find(vs, "smart:nvme_critical_warning")->Firing());
  EXPECT_FALSE(Find(vs, "smart:temperature")->Firing());
  auto ok = EvaluateSmart("nvme-1", "nvme0n1", &before, before, 100, cfg);
  for (const auto& v : ok) EXPECT_FALSE(v.Firing()) << v.condition;
}

TEST(SmartDetector, MissingFieldsProduceNoVerdict) {
  DetectionConfig cfg;
  SmartSnapshot s;  // nothing reported
  EXPECT_TRUE(EvaluateSmart("x", "", nullptr, s, 1, cfg).empty());
}

}  // namespace
}  // namespace dp::detect
