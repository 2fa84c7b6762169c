// `diskpulse rebaseline` against the real diskpulsed (and against none): the
// token, unknown drive and test, the mark and the resolved alert, --json.
#include <gtest/gtest.h>

#include <filesystem>

#include "store/store.h"
#include "support/daemon_process.h"
#include "support/http_client.h"

namespace dp {
namespace {

using namespace dp::testing;

constexpr const char* kDriveId = "wwn-5000cca2";

class RebaselineCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(tmp_.path() / "var");
    {
      auto store = Store::Open(tmp_.Path("var/diskpulse.db"));
      ASSERT_TRUE(store.ok()) << store.status().ToString();
      Drive a;
      a.id = kDriveId;
      a.name = "sda";
      a.dev_path = "/dev/sda";
      a.model = "WDC WD80EFZZ-68BTXN0";
      a.firmware = "81.00A81";
      ASSERT_TRUE((*store)->UpsertDrive(a, 1764460800).ok());
      Alert slow;
      slow.drive_id = kDriveId;
      slow.condition = "slowdown:seq:qd8-1m:mb_per_s";
      slow.severity = "warning";
      slow.summary = "sda: seq qd8-1m throughput dropped 20%";
      slow.opened_at = slow.updated_at = 1764460900;
      auto id = (*store)->InsertAlert(slow);
      ASSERT_TRUE(id.ok());
      alert_id_ = *id;
    }
    auto d = DaemonProcess::Start(tmp_, {{"api_token", "tok-123"}});
    ASSERT_TRUE(d.ok()) << d.status().message();
    daemon_ = std::move(d).value();
    url_ = "http://127.0.0.1:" + std::to_string(daemon_->port());
  }

  ProgramResult Cli(std::vector<std::string> args, std::vector<std::string> env = {}) {
    std::vector<std::string> argv = {DP_CLI_BIN, "rebaseline", "--url", url_};
    argv.insert(argv.end(), args.begin(), args.end());
    return RunProgram(argv, 30s, env);
  }

  TempDir tmp_;
  std::unique_ptr<DaemonProcess> daemon_;
  std::string url_;
  std::int64_t alert_id_ = 0;
};

TEST_F(RebaselineCommandTest, RefusalsSayWhy) {
  auto no_token = Cli({"sda"});
  EXPECT_EQ(no_token.exit_code, 1) << no_token.output;
  EXPECT_NE(no_token.output.find("--token TOKEN or the DISKPULSE_TOKEN"), std::string::npos)
      << no_token.output;

  auto unknown = Cli({"sdz", "--token", "tok-123"});
  EXPECT_EQ(unknown.exit_code, 1) << unknown.output;
  EXPECT_NE(unknown.output.find("no drive 'sdz'"), std::string::npos) << unknown.output;
  EXPECT_NE(unknown.output.find("diskpulse status"), std::string::npos) << unknown.output;

  auto bad_test = Cli({"sda", "--test", "smart", "--token", "tok-123"});
  EXPECT_EQ(bad_test.exit_code, 1) << bad_test.output;
  EXPECT_NE(bad_test.output.find("has no baseline"), std::string::npos) << bad_test.output;

  auto drive = HttpGet(daemon_->port(), "/api/v1/drives/sda");
  ASSERT_TRUE(drive.received) << drive.error;
  EXPECT_TRUE(drive.Json()["baseline_since"].is_null()) << drive.body;
}

TEST_F(RebaselineCommandTest, MarksTheDriveAndResolvesItsSlowdown) {
  auto r = Cli(
      {"sda", "--test", "seq", "--reason", "firmware 83.00A83 installed", "--token", "tok-123"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("sda re-baselined (seq) from "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(": firmware 83.00A83 installed"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("alert " + std::to_string(alert_id_) +
                          " resolved: sda: seq qd8-1m throughput dropped 20%"),
            std::string::npos)
      << r.output;

  auto drive = HttpGet(daemon_->port(), "/api/v1/drives/sda");
  ASSERT_TRUE(drive.received) << drive.error;
  auto j = drive.Json();
  EXPECT_TRUE(j["baseline_since"].is_number()) << drive.body;
  EXPECT_EQ(j["rebaseline"]["reason"], "firmware 83.00A83 installed");
  auto alert = HttpGet(daemon_->port(), "/api/v1/alerts/" + std::to_string(alert_id_));
  EXPECT_EQ(alert.Json()["state"], "resolved") << alert.body;
  EXPECT_EQ(alert.Json()["resolution"], "re-baselined: firmware 83.00A83 installed");
  EXPECT_TRUE(daemon_->WaitForOutput("rebaseline: drive " + std::string(kDriveId)))
      << daemon_->Output();

  // The token from the environment, every test, JSON out.
  auto js = Cli({kDriveId, "--json"}, {"DISKPULSE_TOKEN=tok-123"});
  ASSERT_EQ(js.exit_code, 0) << js.output;
  auto body = nlohmann::json::parse(js.output, nullptr, false);
  ASSERT_FALSE(body.is_discarded()) << js.output;
  EXPECT_TRUE(body["mark"]["test"].is_null());
  EXPECT_EQ(body["mark"]["reason"], "re-baseline requested");
  EXPECT_TRUE(body["resolved_alerts"].empty());
  auto marks = HttpGet(daemon_->port(), "/api/v1/drives/sda/rebaseline");
  EXPECT_EQ(marks.Json().size(), 2u) << marks.body;
}

TEST(RebaselineCommand, UnreachableDaemonAndUsage) {
  int port;
  {
    TcpListener l;  // a port that was free a moment ago and is closed now
    port = l.port();
  }
  std::string url = "http://127.0.0.1:" + std::to_string(port);
  auto r = RunProgram({DP_CLI_BIN, "rebaseline", "sda", "--url", url, "--token", "x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("cannot reach diskpulsed at " + url), std::string::npos) << r.output;

  auto none = RunProgram({DP_CLI_BIN, "rebaseline"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.output.find("which drive?"), std::string::npos) << none.output;
  EXPECT_EQ(RunProgram({DP_CLI_BIN, "rebaseline", "sda", "--bogus"}).exit_code, 2);
  EXPECT_EQ(RunProgram({DP_CLI_BIN, "rebaseline", "sda", "--reason"}).exit_code, 2);
  auto help = RunProgram({DP_CLI_BIN, "rebaseline", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("--reason TEXT"), std::string::npos) << help.output;
}

}  // namespace
}  // namespace dp
