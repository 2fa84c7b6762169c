// The drive page's Export buttons, in headless Chromium against an
// in-process server over a real store that answers reads only with a token:
// the download carries the token this tab was given and is the drive's
// export (CSV and JSON) with the daemon's file name. The blob is caught as
// the page hands it to the browser. Skipped (with the reason) without Chromium.
#include <gtest/gtest.h>

#include "base/clock.h"
#include "http/api.h"
#include "http/server.h"
#include "store/store.h"
#include "support/capability.h"
#include "support/temp_dir.h"
#include "webui/browser_util.h"

namespace dp {
namespace {

using dp::testing::Browser;
using dp::testing::TempDir;
using namespace std::chrono_literals;

TEST(ExportPageTest, TheExportButtonsDownloadTheDrivesExportWithTheToken) {
  const std::string chromium = Browser::FindChromium();
  if (chromium.empty())
    DP_SKIP_WITHOUT("chromium", "chromium is not installed (scripts/setup.sh installs it with "
                                "DP_SETUP_BROWSER=1)");
  TempDir tmp;
  auto store = Store::Open(tmp.Path("dp.db"));
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  SystemClock clock;
  Drive d;
  d.id = "wwn-5000c500a1b2c3d4";
  d.name = "sda";
  d.dev_path = "/dev/sda";
  d.model = "ST8000VN004-2M2101";
  ASSERT_TRUE((*store)->UpsertDrive(d, ToUnixSeconds(clock.Now())).ok());
  Alert hot;
  hot.drive_id = d.id;
  hot.condition = "smart:temperature";
  hot.severity = "warning";
  hot.summary = "sda: 61 C";
  hot.opened_at = hot.updated_at = ToUnixSeconds(clock.Now());
  ASSERT_TRUE((*store)->InsertAlert(hot).ok());

  http::ApiContext ctx;
  ctx.store = store->get();
  ctx.clock = &clock;
  ctx.started_at = clock.Now();
  ctx.webui_root = std::string(DP_SOURCE_DIR) + "/webui";
  ctx.read_token = "rd-tok";
  ctx.reads_need_token = true;
  http::ServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  auto server = http::Server::Bind(options, http::BuildApiRouter(ctx));
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  (*server)->Start();

  auto browser = Browser::Launch(chromium, tmp.Path("profile"));
  ASSERT_TRUE(browser.ok()) << browser.status().ToString();
  Browser& b = **browser;
  ASSERT_TRUE(b.Open((*server)->url() + "#drive=sda").ok());
  ASSERT_TRUE(b.WaitFor("!document.getElementById('token-form').hidden", 30s).ok());
  ASSERT_TRUE(b.Eval("document.getElementById('token-input').value = 'rd-tok'; "
                     "document.getElementById('token-form').requestSubmit(); true")
                  .ok());
  ASSERT_TRUE(b.WaitFor("!!document.querySelector('#export-csv')", 30s).ok())
      << *b.Eval("document.body.innerText");

  // Catch what the page hands to the browser as the download.
  ASSERT_TRUE(b.Eval(R"((() => {
    window.exported = [];
    const make = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (blob) => {
      blob.text().then((text) => window.exported.push(text));
      return make(blob);
    };
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () {
      window.savedAs = this.download;
      if (!this.download) click.call(this);
    };
    document.querySelector('#export-csv').click();
    return true; })())").ok());
  ASSERT_TRUE(b.WaitFor("window.exported.length === 1", 30s).ok())
      << *b.Eval("document.body.innerText");
  const std::string csv = b.Eval("window.exported[0]")->get<std::string>();
  EXPECT_EQ(csv.rfind("record,at,run_id,test,metric", 0), 0u) << csv;
  EXPECT_NE(csv.find("smart:temperature"), std::string::npos) << csv;
  const std::string name = b.Eval("window.savedAs")->get<std::string>();
  EXPECT_EQ(name.rfind("diskpulse-wwn-5000c500a1b2c3d4-", 0), 0u) << name;
  EXPECT_TRUE(name.ends_with(".csv")) << name;

  ASSERT_TRUE(b.Eval("document.querySelector('#export-json').click(); true").ok());
  ASSERT_TRUE(b.WaitFor("window.exported.length === 2", 30s).ok());
  auto j = nlohmann::json::parse(b.Eval("window.exported[1]")->get<std::string>(), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j["drive"]["id"], d.id);
  EXPECT_EQ(j["alerts"][0]["condition"], "smart:temperature");
  EXPECT_NE(b.Eval("document.querySelector('#panel-status').textContent")->get<std::string>().find(
                "saved"),
            std::string::npos);
  // The reads refused before the token was given are the browser's to log.
  for (const std::string& e : b.Errors())
    EXPECT_NE(e.find("401 (Unauthorized)"), std::string::npos) << e;
  (*server)->Stop();
}

}  // namespace
}  // namespace dp
