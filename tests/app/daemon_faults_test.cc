// Faults a running daemon must shrug off: a storm of SIGHUPs (100 within a
// second, while its configuration file is being rewritten between a valid
// and an invalid version) leaves it serving with a configuration that is one
// of the valid ones, and it still stops cleanly.
#include <signal.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "support/daemon_process.h"
#include "support/http_client.h"
#include "support/temp_dir.h"

namespace dp::testing {
namespace {

using namespace std::chrono_literals;

TEST(DaemonFaults, HundredSighupsInASecond) {
  TempDir tmp;
  tmp.Write("web-a/index.html", "page A");
  tmp.Write("web-b/index.html", "page B");
  auto d = DaemonProcess::Start(tmp, {{"webui_root", tmp.Path("web-a")}});
  ASSERT_TRUE(d.ok()) << d.status().message();
  auto& daemon = *d;
  nlohmann::json good = DaemonProcess::DefaultConfig(tmp.path());
  good["webui_root"] = tmp.Path("web-b");
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 100; ++i) {
    // Every tenth signal finds a broken file: it must be refused, not applied.
    if (i % 10 == 5) tmp.Write("diskpulse.json", "{ \"bogus\": ");
    else tmp.Write("diskpulse.json", good.dump(2));
    daemon->Signal(SIGHUP);
    std::this_thread::sleep_for(8ms);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 3.0);  // the storm is a storm even on a loaded machine
  tmp.Write("diskpulse.json", good.dump(2));
  daemon->Signal(SIGHUP);
  ASSERT_TRUE(daemon->WaitForOutput("configuration reloaded", 20s)) << daemon->Output();
  // Settled: serving, with the valid configuration's page.
  bool b = false;
  for (int i = 0; i < 100 && !b; ++i) {
    b = HttpGet(daemon->port(), "/").body == "page B";
    if (!b) std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(b) << daemon->Output();
  EXPECT_EQ(HttpGet(daemon->port(), "/api/v1/health").status, 200);
  EXPECT_TRUE(daemon->Running());
  daemon->Signal(SIGTERM);
  EXPECT_EQ(daemon->WaitExit(20s), 0) << daemon->Output();
}

}  // namespace
}  // namespace dp::testing
