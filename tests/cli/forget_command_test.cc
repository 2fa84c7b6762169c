// `diskpulse forget` against the real diskpulsed: the token, a present
// drive refused, a gone drive forgotten with its missing alert resolved.
#include <gtest/gtest.h>

#include <filesystem>

#include "store/store.h"
#include "support/daemon_process.h"
#include "support/http_client.h"

namespace dp {
namespace {

using namespace dp::testing;

constexpr const char* kGone = "wwn-5000cca9";

class ForgetCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(tmp_.path() / "var");
    {
      auto store = Store::Open(tmp_.Path("var/diskpulse.db"));
      ASSERT_TRUE(store.ok()) << store.status().ToString();
      Drive gone;
      gone.id = kGone;
      gone.name = "sdq";
      gone.dev_path = "/dev/sdq";
      gone.model = "WDC WD80EFZZ-68BTXN0";
      ASSERT_TRUE((*store)->UpsertDrive(gone, 1764460800).ok());
      ASSERT_TRUE((*store)->MarkMissingExcept({}, 1764460900).ok());
      Alert missing;
      missing.drive_id = kGone;
      missing.condition = "missing";
      missing.severity = "critical";
      missing.summary = "WDC WD80EFZZ-68BTXN0 has been missing for 2 days";
      missing.opened_at = missing.updated_at = 1764461000;
      auto id = (*store)->InsertAlert(missing);
      ASSERT_TRUE(id.ok());
      alert_id_ = *id;
    }
    auto d = DaemonProcess::Start(tmp_, {{"api_token", "tok-123"}});
    ASSERT_TRUE(d.ok()) << d.status().message();
    daemon_ = std::move(d).value();
    url_ = "http://127.0.0.1:" + std::to_string(daemon_->port());
  }

  ProgramResult Cli(std::vector<std::string> args) {
    std::vector<std::string> argv = {DP_CLI_BIN, "forget", "--url", url_};
    argv.insert(argv.end(), args.begin(), args.end());
    return RunProgram(argv, 30s);
  }

  TempDir tmp_;
  std::unique_ptr<DaemonProcess> daemon_;
  std::string url_;
  std::int64_t alert_id_ = 0;
};

TEST_F(ForgetCommandTest, ForgetsAGoneDriveAndClosesItsAlert) {
  auto no_token = Cli({"sdq"});
  EXPECT_EQ(no_token.exit_code, 1) << no_token.output;
  auto unknown = Cli({"sdz", "--token", "tok-123"});
  EXPECT_EQ(unknown.exit_code, 1) << unknown.output;
  EXPECT_NE(unknown.output.find("no drive 'sdz'"), std::string::npos) << unknown.output;

  auto r = Cli({"sdq", "--reason", "replaced by WD-NEW1", "--token", "tok-123"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(std::string(kGone) + " forgotten: replaced by WD-NEW1"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("alert " + std::to_string(alert_id_) + " resolved"), std::string::npos)
      << r.output;
  auto alert = HttpGet(daemon_->port(), "/api/v1/alerts/" + std::to_string(alert_id_));
  EXPECT_EQ(alert.Json()["state"], "resolved") << alert.body;
  EXPECT_EQ(alert.Json()["resolution"], "retired: replaced by WD-NEW1");
  auto drive = HttpGet(daemon_->port(), "/api/v1/drives/" + std::string(kGone));
  EXPECT_TRUE(drive.Json()["forgotten_at"].is_number()) << drive.body;
}

TEST(ForgetCommand, Usage) {
  auto r = RunProgram({DP_CLI_BIN, "forget"}, 30s);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("usage: diskpulse forget DRIVE"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace dp
