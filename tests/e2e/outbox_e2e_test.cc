// A notification owed to a webhook survives the daemon's death: the real
// diskpulsed finds it in its database's outbox at start, keeps retrying an
// endpoint that answers 500, is killed with SIGKILL in the middle of that,
// and after the restart delivers it once to the endpoint that works now; the
// outbox is empty afterwards and a clean stop leaves nothing behind.
#include <signal.h>
#include <sqlite3.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "alert/notification_outbox.h"
#include "e2e/webhook_receiver_util.h"
#include "store/store.h"
#include "support/daemon_process.h"
#include "support/temp_dir.h"

namespace dp::testing {
namespace {

using nlohmann::json;

// Rows in the outbox, read with a plain sqlite3 connection of the test's own.
int OutboxRows(const std::string& path) {
  sqlite3* db = nullptr;
  int n = -1;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_busy_timeout(db, 10000);
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM notification_outbox", -1, &st, nullptr) ==
            SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
      n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return n;
}

int Count(const std::vector<std::string>& bodies, const std::string& needle) {
  int n = 0;
  for (const auto& b : bodies) n += b.find(needle) != std::string::npos;
  return n;
}

json Hook(const std::string& url) {
  return {{"alerts",
           {{"webhooks", json::array({{{"name", "hook"},
                                       {"url", url},
                                       {"max_attempts", 50},
                                       {"retry_initial_seconds", 1},
                                       {"retry_max_seconds", 1},
                                       {"timeout_seconds", 3}}})}}}};
}

TEST(OutboxE2eTest, ANotificationOwedAtAKillIsDeliveredOnceAfterTheRestart) {
  TempDir dir;
  const std::string db_path = dir.Path("var/diskpulse.db");
  const std::string summary = "sdq: 8 pending sectors, was 0";
  {
    // What an earlier daemon left: a notification accepted for "hook" and not
    // yet delivered.
    std::filesystem::create_directories(dir.Path("var"));
    auto store = Store::Open(db_path);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    Alert a;
    a.id = 1;
    a.condition = "smart:pending";
    a.severity = "critical";
    a.summary = summary;
    ASSERT_TRUE((*store)
                    ->AddOutboxEntry("hook",
                                     EncodeNotification(MakeNotification(
                                         NotifyKind::kOpened, a, std::chrono::system_clock::now())),
                                     0)
                    .ok());
  }

  WebhookReceiver broken(500), good(200);
  {
    auto d = DaemonProcess::Start(dir, Hook(broken.url()));
    ASSERT_TRUE(d.ok()) << d.status().message();
    // Retried against the 500: at least two attempts seen, then killed
    // while it waits for the next.
    ASSERT_TRUE(broken.WaitFor(summary, std::chrono::seconds(20))) << (*d)->Output();
    for (int i = 0; i < 100 && Count(broken.bodies(), summary) < 2; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_GE(Count(broken.bodies(), summary), 2) << (*d)->Output();
    (*d)->Signal(SIGKILL);
    EXPECT_EQ((*d)->WaitExit(std::chrono::seconds(10)), -SIGKILL);
  }
  EXPECT_EQ(OutboxRows(db_path), 1);  // still owed

  auto d = DaemonProcess::Start(dir, Hook(good.url()));
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_TRUE(good.WaitFor(summary, std::chrono::seconds(20))) << (*d)->Output();
  for (int i = 0; i < 100 && OutboxRows(db_path) != 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(OutboxRows(db_path), 0) << (*d)->Output();
  EXPECT_TRUE((*d)->WaitForOutput("queued again", std::chrono::seconds(5))) << (*d)->Output();
  // Delivered once: a second start must not send it again.
  (*d)->Signal(SIGTERM);
  EXPECT_EQ((*d)->WaitExit(std::chrono::seconds(20)), 0) << (*d)->Output();
  auto again = DaemonProcess::Start(dir, Hook(good.url()));
  ASSERT_TRUE(again.ok()) << again.status().message();
  std::this_thread::sleep_for(std::chrono::seconds(2));
  EXPECT_EQ(Count(good.bodies(), summary), 1);
  (*again)->Signal(SIGTERM);
  EXPECT_EQ((*again)->WaitExit(std::chrono::seconds(20)), 0) << (*again)->Output();
}

}  // namespace
}  // namespace dp::testing
