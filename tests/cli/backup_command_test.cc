// `diskpulse backup FILE` against the real diskpulsed: the copy is a whole
// database with what the daemon's holds; without the token nothing is written.
#include <gtest/gtest.h>

#include <filesystem>

#include "store/store.h"
#include "support/daemon_process.h"

namespace dp {
namespace {

using namespace dp::testing;

TEST(BackupCommandTest, WritesAConsistentCopyOfTheDaemonsDatabase) {
  TempDir tmp;
  std::filesystem::create_directories(tmp.path() / "var");
  {
    auto store = Store::Open(tmp.Path("var/diskpulse.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    Drive a;
    a.id = "wwn-5000cca2";
    a.name = "sda";
    ASSERT_TRUE((*store)->UpsertDrive(a, 1764460800).ok());
  }
  auto d = DaemonProcess::Start(tmp, {{"api_token", "tok-123"}});
  ASSERT_TRUE(d.ok()) << d.status().message();
  const std::string url = "http://127.0.0.1:" + std::to_string((*d)->port());
  const std::string file = tmp.Path("backup.db");

  auto refused = RunProgram({DP_CLI_BIN, "backup", file, "--url", url, "--token", "wrong"});
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("the daemon refused"), std::string::npos) << refused.output;
  EXPECT_FALSE(std::filesystem::exists(file));

  auto usage = RunProgram({DP_CLI_BIN, "backup", "--url", url});
  EXPECT_EQ(usage.exit_code, 2) << usage.output;

  auto ok = RunProgram({DP_CLI_BIN, "backup", file, "--url", url, "--token", "tok-123"});
  ASSERT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_FALSE(std::filesystem::exists(file + ".part"));
  auto copy = Store::Open(file);
  ASSERT_TRUE(copy.ok()) << copy.status().ToString();
  auto drive = (*copy)->GetDrive("wwn-5000cca2");
  ASSERT_TRUE(drive.ok());
  ASSERT_TRUE(drive->has_value());
  EXPECT_EQ((*drive)->name, "sda");
}

}  // namespace
}  // namespace dp
