// The drive page's Forget button, in headless Chromium against an
// in-process server over a real store and the real alert service: offered
// for a drive that is gone and not for a present one; it asks first, takes
// the API token when the daemon asks for it, and the drive is retired with
// every alert of it resolved as retired.
#include <gtest/gtest.h>

#include "alert/alert_service.h"
#include "base/clock.h"
#include "http/api.h"
#include "http/server.h"
#include "runs/store_alert_repository.h"
#include "store/store.h"
#include "support/capability.h"
#include "support/temp_dir.h"
#include "webui/browser_util.h"

namespace dp {
namespace {

using dp::testing::Browser;
using dp::testing::TempDir;
using namespace std::chrono_literals;

TEST(ForgetPageTest, AGoneDriveIsRetiredFromItsPageAfterAConfirmation) {
  const std::string chromium = Browser::FindChromium();
  if (chromium.empty())
    DP_SKIP_WITHOUT("chromium", "chromium is not installed (scripts/setup.sh installs it with "
                                "DP_SETUP_BROWSER=1)");
  TempDir tmp;
  auto store = Store::Open(tmp.Path("dp.db"));
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  SystemClock clock;
  const std::int64_t now = ToUnixSeconds(clock.Now());
  Drive gone;
  gone.id = "wwn-gone";
  gone.name = "sdc";
  gone.dev_path = "/dev/sdc";
  Drive here = gone;
  here.id = "wwn-here";
  here.name = "sda";
  here.dev_path = "/dev/sda";
  ASSERT_TRUE((*store)->UpsertDrive(gone, now - 7200).ok());
  ASSERT_TRUE((*store)->UpsertDrive(here, now).ok());
  ASSERT_TRUE((*store)->MarkMissingExcept({here.id}, now - 3600).ok());
  for (const char* condition : {"missing", "smart:temperature"}) {
    Alert a;
    a.drive_id = gone.id;
    a.condition = condition;
    a.severity = "warning";
    a.summary = std::string("sdc: ") + condition;
    a.opened_at = a.updated_at = now - 3600;
    a.notify_count = 1;
    ASSERT_TRUE((*store)->InsertAlert(a).ok());
  }
  StoreAlertRepository repo(**store);
  AlertService alerts(repo, nullptr, clock, AlertServiceOptions{});

  http::ApiContext ctx;
  ctx.store = store->get();
  ctx.clock = &clock;
  ctx.started_at = clock.Now();
  ctx.webui_root = std::string(DP_SOURCE_DIR) + "/webui";
  ctx.api_token = "api-tok";
  ctx.alerts = &alerts;
  http::ServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  auto server = http::Server::Bind(options, http::BuildApiRouter(ctx));
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  (*server)->Start();

  auto browser = Browser::Launch(chromium, tmp.Path("profile"));
  ASSERT_TRUE(browser.ok()) << browser.status().ToString();
  Browser& b = **browser;
  // A present drive offers no Forget.
  ASSERT_TRUE(b.Open((*server)->url() + "#drive=sda").ok());
  ASSERT_TRUE(b.WaitFor("!!document.querySelector('#export-csv')", 30s).ok())
      << *b.Eval("document.body.innerText");
  EXPECT_FALSE(b.Eval("!!document.querySelector('#drive-forget')")->get<bool>());

  ASSERT_TRUE(b.Open((*server)->url() + "#drive=sdc").ok());
  ASSERT_TRUE(b.WaitFor("!!document.querySelector('#drive-forget')", 30s).ok())
      << *b.Eval("document.body.innerText");
  // Cancelling the question does nothing.
  ASSERT_TRUE(b.Eval("window.prompt = () => null; document.querySelector('#drive-forget').click(); "
                     "true").ok());
  std::this_thread::sleep_for(500ms);
  auto still = (*store)->GetDrive(gone.id);
  ASSERT_TRUE(still.ok() && *still);
  EXPECT_FALSE((*still)->forgotten_at.has_value());

  // The question, then the API token (the POST needs it; the page asks).
  ASSERT_TRUE(b.Eval("window.asked = ''; window.prompt = (q) => { if (q.startsWith('API token')) "
                     "return 'api-tok'; window.asked = q; return 'replaced by ZX1'; }; "
                     "document.querySelector('#drive-forget').click(); true").ok());
  ASSERT_TRUE(b.WaitFor("document.querySelector('#panel-status').textContent.includes('forgotten')",
                        30s).ok())
      << *b.Eval("document.body.innerText");
  EXPECT_NE(b.Eval("window.asked")->get<std::string>().find("Forget sdc?"), std::string::npos);
  auto retired = (*store)->GetDrive(gone.id);
  ASSERT_TRUE(retired.ok() && *retired);
  EXPECT_TRUE((*retired)->forgotten_at.has_value());
  EXPECT_EQ((*retired)->forgotten_reason, "replaced by ZX1");
  auto list = (*store)->ListAlerts(AlertFilter{"", gone.id, 0});
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 2u);
  for (const Alert& a : *list) {
    EXPECT_EQ(a.state, "resolved") << a.condition;
    EXPECT_EQ(a.resolution, "retired: replaced by ZX1") << a.condition;
  }
  (*server)->Stop();
}

}  // namespace
}  // namespace dp
