// `diskpulse status` against the real daemon, and against none.
#include <filesystem>

#include <gtest/gtest.h>

#include "store/store.h"
#include "support/daemon_process.h"
#include "support/http_client.h"

namespace dp {
namespace {

using namespace dp::testing;

TEST(StatusCommand, HealthyDaemonWithoutDrives) {
  TempDir tmp;
  auto d = DaemonProcess::Start(tmp);
  ASSERT_TRUE(d.ok()) << d.status().message();
  std::string url = "http://127.0.0.1:" + std::to_string((*d)->port());
  auto r = RunProgram({DP_CLI_BIN, "status", "--url", url});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("diskpulsed " DP_VERSION " at " + url + ": ok (database ok"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("no drives discovered yet"), std::string::npos) << r.output;
}

TEST(StatusCommand, TableAndJsonListTheDrives) {
  TempDir tmp;
  {
    std::filesystem::create_directories(tmp.path() / "var");
    auto store = Store::Open(tmp.Path("var/diskpulse.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    Drive a;
    a.id = "wwn-5000cca2";
    a.name = "sda";
    a.dev_path = "/dev/sda";
    a.model = "WDC WD80EFZZ-68BTXN0";
    a.serial = "VK0ABCDE";
    a.size_bytes = 8001563222016;
    a.rotational = true;
    a.rotation_rpm = 5400;
    a.transport = "sata";
    ASSERT_TRUE((*store)->UpsertDrive(a, 1764460800).ok());
    Drive b = a;
    b.id = "Samsung_SSD_980_S64";
    b.name = "nvme0n1";
    b.dev_path = "/dev/nvme0n1";
    b.model = "Samsung SSD 980 1TB";
    b.serial = "S64ANS0T";
    b.size_bytes = 1000204886016;
    b.rotational = false;
    b.rotation_rpm = 0;
    b.transport = "nvme";
    ASSERT_TRUE((*store)->UpsertDrive(b, 1764460800).ok());
    // The SATA disk fails: a told critical SMART alert and a temperature.
    Alert bad;
    bad.drive_id = a.id;
    bad.condition = "smart:reallocated";
    bad.severity = "critical";
    bad.summary = "sda: 120 reallocated sectors";
    bad.opened_at = bad.updated_at = 1764460800;
    bad.notify_count = 1;
    ASSERT_TRUE((*store)->InsertAlert(bad).ok());
    SmartSnapshot s;
    s.temperature_c = 41;
    ASSERT_TRUE((*store)->InsertSmartSnapshot(a.id, 1764460800, s).ok());
  }
  auto d = DaemonProcess::Start(tmp);
  ASSERT_TRUE(d.ok()) << d.status().message();
  std::string url = "http://127.0.0.1:" + std::to_string((*d)->port());

  auto table = RunProgram({DP_CLI_BIN, "status", "--url", url});
  EXPECT_EQ(table.exit_code, 0) << table.output;
  EXPECT_NE(table.output.find("DRIVE"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("WDC WD80EFZZ-68BTXN0"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("8.00 TB"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("HDD 5400 rpm"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("NVMe SSD"), std::string::npos) << table.output;
  // Health, temperature and alerts per drive: the failing disk does not
  // look like the healthy one; no colour codes into a pipe.
  EXPECT_NE(table.output.find("HEALTH"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("sda      failing  41 C"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("1 (smart)"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("nvme0n1  healthy"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("sda failing: sda: 120 reallocated sectors"), std::string::npos)
      << table.output;
  EXPECT_EQ(table.output.find("\033["), std::string::npos) << table.output;

  // On a terminal (script(1) gives it one) the health is coloured.
  auto tty = RunProgram({"/usr/bin/script", "-qec",
                         std::string(DP_CLI_BIN) + " status --url " + url, "/dev/null"},
                        30s, {"TERM=xterm"});
  if (tty.exit_code != 127) {
    EXPECT_NE(tty.output.find("\033[1;31mfailing\033[0m"), std::string::npos) << tty.output;
  }

  auto json = RunProgram({DP_CLI_BIN, "status", "--url", url, "--json"});
  EXPECT_EQ(json.exit_code, 0) << json.output;
  auto j = nlohmann::json::parse(json.output, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << json.output;
  EXPECT_EQ(j["health"]["status"], "ok");
  ASSERT_EQ(j["drives"].size(), 2u);
  EXPECT_EQ(j["url"], url);
}

TEST(StatusCommand, UnreachableDaemonExits2WithAHint) {
  int port;
  {
    TcpListener l;  // a port that was free a moment ago and is closed now
    port = l.port();
  }
  std::string url = "http://127.0.0.1:" + std::to_string(port);
  auto r = RunProgram({DP_CLI_BIN, "status", "--url", url});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("cannot reach diskpulsed at " + url +
                          ": connection refused (is it running?)"),
            std::string::npos)
      << r.output;
}

TEST(StatusCommand, UsageErrors) {
  EXPECT_EQ(RunProgram({DP_CLI_BIN, "status", "--bogus"}).exit_code, 2);
  EXPECT_EQ(RunProgram({DP_CLI_BIN, "status", "--url"}).exit_code, 2);
  auto bad = RunProgram({DP_CLI_BIN, "status", "--url", "ftp://x"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("http://"), std::string::npos) << bad.output;
  EXPECT_EQ(RunProgram({DP_CLI_BIN, "status", "--help"}).exit_code, 0);
}

TEST(StatusCommand, UrlFromTheEnvironment) {
  TempDir tmp;
  auto d = DaemonProcess::Start(tmp);
  ASSERT_TRUE(d.ok()) << d.status().message();
  auto r = RunProgram({DP_CLI_BIN, "status"}, 30s,
                      {"DISKPULSE_URL=http://127.0.0.1:" + std::to_string((*d)->port())});
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

}  // namespace
}  // namespace dp
