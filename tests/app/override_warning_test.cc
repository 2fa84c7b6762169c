// The real diskpulsed warns when a config file override names a SMART
// attribute the drive's latest reading does not have, naming the override,
// the drive and the attribute; it still starts (the drive may report it
// later), and the API lists the same warning on the override.
#include <gtest/gtest.h>

#include <filesystem>

#include "store/store.h"
#include "support/daemon_process.h"
#include "support/http_client.h"

namespace dp {
namespace {

using namespace dp::testing;

TEST(OverrideWarningTest, AnAttributeTheDriveLacksIsAWarningNamingTheDrive) {
  TempDir tmp;
  std::filesystem::create_directories(tmp.path() / "var");
  {
    auto store = Store::Open(tmp.Path("var/diskpulse.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    Drive a;
    a.id = "wwn-5000cca2";
    a.name = "sda";
    ASSERT_TRUE((*store)->UpsertDrive(a, 1764460800).ok());
    SmartSnapshot s;
    s.protocol = "ATA";
    s.temperature_c = 35;
    SmartAttribute raw_read;
    raw_read.id = 1;
    raw_read.name = "Raw_Read_Error_Rate";
    s.attributes.push_back(raw_read);
    ASSERT_TRUE((*store)->InsertSmartSnapshot(a.id, 1764460800, s).ok());
  }
  auto d = DaemonProcess::Start(
      tmp, {{"overrides", {{{"drive", "wwn-5000cca2"}, {"attribute", "195"}, {"ignore", true}},
                           {{"drive", "wwn-5000cca2"}, {"attribute", "1"}, {"ignore", true}}}}});
  ASSERT_TRUE(d.ok()) << d.status().message();
  const std::string warning =
      "drive sda (wwn-5000cca2): its latest SMART reading has no attribute 195";
  ASSERT_TRUE((*d)->WaitForOutput(warning)) << (*d)->Output();
  EXPECT_NE((*d)->Output().find("(drive wwn-5000cca2, 195): " + warning), std::string::npos)
      << (*d)->Output();
  // Attribute 1 is there: no word about it.
  EXPECT_EQ((*d)->Output().find("has no attribute 1,"), std::string::npos) << (*d)->Output();

  auto listed = HttpGet((*d)->port(), "/api/v1/overrides");
  ASSERT_TRUE(listed.received) << listed.error;
  auto j = nlohmann::json::parse(listed.body, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << listed.body;
  ASSERT_EQ(j["overrides"].size(), 2u);
  ASSERT_EQ(j["overrides"][0]["warnings"].size(), 1u) << j.dump();
  EXPECT_NE(j["overrides"][0]["warnings"][0].get<std::string>().find(warning), std::string::npos);
  EXPECT_EQ(j["overrides"][1]["warnings"], nlohmann::json::array());
}

}  // namespace
}  // namespace dp
