// The config file's "overrides": read with their FILE:LINE, and every bad
// one a config error naming its line — an unknown attribute at parse time,
// an unknown drive against the database's drives (UnknownDriveProblems, what
// the daemon checks before it starts).
#include <gtest/gtest.h>

#include "config/config.h"
#include "config/overrides_config.h"
#include "runs/override_book.h"

namespace dp {
namespace {

constexpr const char* kText = R"({
  "listen": "127.0.0.1:8470",
  "overrides": [
    {"serial": "ZA1ABCDE", "attribute": "199", "ignore": true,
     "reason": "old cable"},
    {"drive": "wwn-5000c500a1b2c3d4", "device_type": "sat+megaraid,14"},
    {"model": "ST8000VN*", "attribute": "temperature", "threshold": 55},
    {"drive": "wwn-5000c500a1b2c3d4", "mute_until": "2026-12-31"}
  ]
})";

TEST(OverridesConfig, ReadWithTheirLines) {
  auto c = ParseConfig(kText, "diskpulse.json");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_EQ(c->overrides.size(), 4u);
  const DriveOverride& crc = c->overrides[0];
  EXPECT_EQ(crc.source, "config");
  EXPECT_EQ(crc.where, "diskpulse.json:4");
  EXPECT_EQ(crc.serial, "ZA1ABCDE");
  EXPECT_EQ(crc.attribute, "udma_crc_errors");  // 199, canonical
  EXPECT_TRUE(crc.ignore);
  EXPECT_EQ(crc.reason, "old cable");
  EXPECT_EQ(c->overrides[1].device_type, "sat+megaraid,14");
  EXPECT_EQ(c->overrides[1].where, "diskpulse.json:6");
  EXPECT_EQ(c->overrides[2].threshold, 55);
  EXPECT_EQ(c->overrides[3].mute_until, 1798675200);  // 2026-12-31T00:00:00Z
}

TEST(OverridesConfig, MutesByKindAndByPool) {
  auto c = ParseConfig(R"({"overrides": [
    {"drive": "wwn-1", "kind": "selftest", "mute_until": "2026-12-31"},
    {"pool": "tank", "kind": "scrub", "mute_until": "2026-12-31"},
    {"pool": "*", "mute_until": "2026-12-31"}
  ]})",
                       "diskpulse.json");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_EQ(c->overrides.size(), 3u);
  EXPECT_EQ(c->overrides[0].kind, "selftest");
  EXPECT_EQ(c->overrides[1].pool, "tank");
  EXPECT_EQ(c->overrides[1].kind, "scrub");
  EXPECT_EQ(c->overrides[1].where, "diskpulse.json:3");
  EXPECT_EQ(c->overrides[2].kind, "");
  // Pools are not known before discovery: a pool selector is no unknown drive.
  EXPECT_EQ(UnknownDriveProblems({c->overrides[1], c->overrides[2]}, {}).size(), 0u);

  auto bad = ParseConfig(R"({"overrides": [
    {"drive": "wwn-1", "kind": "selftests", "mute_until": "2026-12-31"},
    {"drive": "wwn-1", "kind": "wear"},
    {"pool": "tank", "kind": "wear", "mute_until": "2026-12-31"},
    {"pool": "tank", "attribute": "199", "ignore": true}
  ]})",
                         "diskpulse.json");
  ASSERT_FALSE(bad.ok());
  const std::string m = bad.status().message();
  EXPECT_NE(m.find("diskpulse.json:2: overrides[0].kind: unknown alert kind 'selftests'"),
            std::string::npos) << m;
  EXPECT_NE(m.find("diskpulse.json:3: overrides[1].kind: kind narrows a mute"),
            std::string::npos) << m;
  EXPECT_NE(m.find("diskpulse.json:4: overrides[2].kind: a pool's alerts are of kind pool, "
                   "scrub or zfs"),
            std::string::npos) << m;
  EXPECT_NE(m.find("diskpulse.json:5: overrides[3].pool: a pool override only mutes"),
            std::string::npos) << m;
}

TEST(OverridesConfig, AnUnknownAttributeIsAnErrorWithItsLine) {
  auto c = ParseConfig(R"({
  "overrides": [
    {"drive": "wwn-1",
     "attribute": "udma_crc", "ignore": true}
  ]
})",
                       "diskpulse.json");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find(
                "diskpulse.json:4: overrides[0].attribute: unknown SMART attribute 'udma_crc'"),
            std::string::npos)
      << c.status().message();
}

TEST(OverridesConfig, OtherMistakesNameTheirKeyAndLine) {
  auto c = ParseConfig(R"({"overrides": [
  {"drive": "wwn-1", "attribute": "health", "threshold": 3},
  {"drive": "wwn-1", "device_type": "sat; rm -rf /"},
  {"drive": "wwn-1", "mute_until": "next week"},
  {"drive": "wwn-1", "serial": "X", "ignore": true, "attribute": "5"},
  {"model": "ST*", "reason": "nothing to do"}
]})",
                       "d.json");
  ASSERT_FALSE(c.ok());
  const std::string m = c.status().message();
  EXPECT_NE(m.find("d.json:2: overrides[0].threshold: attribute health takes no threshold"),
            std::string::npos) << m;
  EXPECT_NE(m.find("d.json:3: overrides[1].device_type: expected a smartctl -d type"),
            std::string::npos) << m;
  EXPECT_NE(m.find("d.json:4: overrides[2].mute_until: expected a UTC date"), std::string::npos) << m;
  EXPECT_NE(m.find("d.json:5: overrides[3].serial: name exactly one of"), std::string::npos) << m;
  EXPECT_NE(m.find("d.json:6: overrides[4].model: says nothing to do"), std::string::npos) << m;
}

TEST(OverridesConfig, AnUnknownDriveIsAnErrorWithItsLine) {
  auto c = ParseConfig(kText, "diskpulse.json");
  ASSERT_TRUE(c.ok());
  Drive known;
  known.id = "wwn-5000c500a1b2c3d4";
  known.model = "ST8000VN004-2M2101";
  known.serial = "OTHER";
  auto problems = UnknownDriveProblems(c->overrides, {known});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0],
            "diskpulse.json:4: overrides[0].serial: no known drive has serial 'ZA1ABCDE'");
  known.serial = "za1abcde";  // serials compare ignoring case
  EXPECT_TRUE(UnknownDriveProblems(c->overrides, {known}).empty());
  known.model = "WDC WD80EFZX";
  problems = UnknownDriveProblems(c->overrides, {known});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0],
            "diskpulse.json:7: overrides[2].model: model pattern 'ST8000VN*' matches no known drive");
}

TEST(OverridesConfig, UtcDates) {
  EXPECT_EQ(ParseUtcDateTime("1970-01-02"), 86400);
  EXPECT_EQ(ParseUtcDateTime("1970-01-01T01:02Z"), 3720);
  EXPECT_EQ(ParseUtcDateTime("1970-01-01T01:02:03Z"), 3723);
  EXPECT_EQ(ParseUtcDateTime("2026-02-31"), std::nullopt);
  EXPECT_EQ(ParseUtcDateTime("2026-12-31 12:00"), std::nullopt);
  EXPECT_EQ(ParseUtcDateTime("2026-12-31T12:00:00"), std::nullopt);  // no zone: ambiguous
}

}  // namespace
}  // namespace dp
