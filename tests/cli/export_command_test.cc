// `diskpulse export DRIVE --format csv|json [--out FILE]` against the real
// diskpulsed: the drive's export as the API gives it, printed or written to
// a file; an unknown drive and a bad format say so.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "store/store.h"
#include "support/daemon_process.h"

namespace dp {
namespace {

using namespace dp::testing;

TEST(ExportCommandTest, PrintsOrWritesTheDrivesExportAsCsvOrJson) {
  TempDir tmp;
  std::filesystem::create_directories(tmp.path() / "var");
  {
    auto store = Store::Open(tmp.Path("var/diskpulse.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    Drive a;
    a.id = "wwn-5000cca2";
    a.name = "sda";
    ASSERT_TRUE((*store)->UpsertDrive(a, 1764460800).ok());
    Alert hot;
    hot.drive_id = a.id;
    hot.condition = "smart:temperature";
    hot.severity = "warning";
    hot.state = "open";
    hot.summary = "sda: 61 C";
    hot.opened_at = 1764460800;
    hot.updated_at = 1764460800;
    ASSERT_TRUE((*store)->InsertAlert(hot).ok());
  }
  auto d = DaemonProcess::Start(tmp);
  ASSERT_TRUE(d.ok()) << d.status().message();
  const std::string url = "http://127.0.0.1:" + std::to_string((*d)->port());

  auto json_out = RunProgram({DP_CLI_BIN, "export", "sda", "--url", url});
  ASSERT_EQ(json_out.exit_code, 0) << json_out.output;
  auto j = nlohmann::json::parse(json_out.output, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << json_out.output;
  EXPECT_EQ(j["drive"]["id"], "wwn-5000cca2");
  // (The daemon may have raised others since: the drive is not present here.)
  ASSERT_GE(j["alerts"].size(), 1u);
  EXPECT_EQ(j["alerts"][0]["condition"], "smart:temperature");

  const std::string file = tmp.Path("sda.csv");
  auto csv = RunProgram({DP_CLI_BIN, "export", "sda", "--format", "csv", "--out", file, "--url", url});
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  EXPECT_FALSE(std::filesystem::exists(file + ".part"));
  std::ifstream in(file);
  std::stringstream body;
  body << in.rdbuf();
  EXPECT_EQ(body.str().rfind("record,at,run_id,test,metric", 0), 0u) << body.str();
  EXPECT_NE(body.str().find("smart:temperature"), std::string::npos) << body.str();

  auto unknown = RunProgram({DP_CLI_BIN, "export", "sdz", "--url", url});
  EXPECT_EQ(unknown.exit_code, 1) << unknown.output;
  EXPECT_NE(unknown.output.find("diskpulse export: the daemon refused"), std::string::npos)
      << unknown.output;
  auto bad = RunProgram({DP_CLI_BIN, "export", "sda", "--format", "xml", "--url", url});
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--format is csv or json"), std::string::npos) << bad.output;
  auto none = RunProgram({DP_CLI_BIN, "export", "--url", url});
  EXPECT_EQ(none.exit_code, 2) << none.output;
}

}  // namespace
}  // namespace dp
