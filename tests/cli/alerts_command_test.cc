// `diskpulse alerts` against the real diskpulsed: each alert is listed in
// its owner's words (the headline the page and notifications lead with),
// not the detector's summary.
#include <gtest/gtest.h>

#include <filesystem>

#include "store/store.h"
#include "support/daemon_process.h"
#include "support/http_client.h"

namespace dp {
namespace {

using namespace dp::testing;

TEST(AlertsCommandTest, ListsEachAlertByItsHeadline) {
  TempDir tmp;
  std::filesystem::create_directories(tmp.path() / "var");
  std::int64_t id = 0;
  {
    auto store = Store::Open(tmp.Path("var/diskpulse.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    Drive d;
    d.id = "wwn-5000c500a1";
    d.name = "sdb";
    d.dev_path = "/dev/sdb";
    ASSERT_TRUE((*store)->UpsertDrive(d, 1764460800).ok());
    Alert a;
    a.drive_id = d.id;
    a.condition = "slowdown:drive";
    a.severity = "warning";
    a.summary = "seq qd8-1m mb_per_s 152 below band [171, 189] (Theil-Sen -2.1%/month, p=1.1e-14)";
    a.words.headline = "sdb reads 11% slower than it used to, and slower each month";
    a.words.confidence = "Sure (3 rules, 6 weeks)";
    a.words.advice = "Check the drive's cable and connector.";
    a.opened_at = a.updated_at = 1764461000;
    auto inserted = (*store)->InsertAlert(a);
    ASSERT_TRUE(inserted.ok());
    id = *inserted;
  }
  auto daemon = DaemonProcess::Start(tmp, {{"api_token", "tok-1"}});
  ASSERT_TRUE(daemon.ok()) << daemon.status().message();
  const std::string url = "http://127.0.0.1:" + std::to_string((*daemon)->port());

  auto r = RunProgram({DP_CLI_BIN, "alerts", "--url", url, "--token", "tok-1"}, 30s);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("sdb reads 11% slower than it used to, and slower each month"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("Theil-Sen"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ALERT"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(std::to_string(id)), std::string::npos) << r.output;
  // The statistics stay one flag away.
  auto json = RunProgram({DP_CLI_BIN, "alerts", "--url", url, "--token", "tok-1", "--json"}, 30s);
  ASSERT_EQ(json.exit_code, 0) << json.output;
  EXPECT_NE(json.output.find("Theil-Sen"), std::string::npos) << json.output;

  auto ack = RunProgram({DP_CLI_BIN, "alerts", "ack", std::to_string(id), "--url", url, "--token", "tok-1"}, 30s);
  ASSERT_EQ(ack.exit_code, 0) << ack.output;
  EXPECT_NE(ack.output.find("acknowledged: sdb reads 11% slower"), std::string::npos) << ack.output;
}

}  // namespace
}  // namespace dp
