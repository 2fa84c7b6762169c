// A drive's overrides on the page, in headless Chromium against an
// in-process server over a real store: the config file's override shows
// with its FILE:LINE as read-only and the header says one is in force; an
// override set from the form reaches the API (with the token) and the store,
// and deleting it from the page removes it again, both audited; a mute of
// one kind of the drive's alerts is set from the same form.
// Skipped (with the reason) when Chromium is not installed. With
// DP_SCREENSHOT_DIR set, a screenshot is saved there for people to look at.
#include <gtest/gtest.h>

#include <cstdlib>

#include "base/clock.h"
#include "http/api.h"
#include "http/server.h"
#include "runs/override_book.h"
#include "store/store.h"
#include "support/capability.h"
#include "support/temp_dir.h"
#include "webui/browser_util.h"

namespace dp {
namespace {

using dp::testing::Browser;
using dp::testing::TempDir;
using nlohmann::json;
using namespace std::chrono_literals;

TEST(OverridesPageTest, ShowsWhereAnOverrideIsInForceAndSetsAndDeletesOne) {
  const std::string chromium = Browser::FindChromium();
  if (chromium.empty())
    DP_SKIP_WITHOUT("chromium",
                    "chromium is not installed (scripts/setup.sh installs it with "
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
  d.serial = "ZA1ABCDE";
  ASSERT_TRUE((*store)->UpsertDrive(d, ToUnixSeconds(clock.Now())).ok());
  DriveOverride file;
  file.source = "config";
  file.who = "config";
  file.where = "/etc/diskpulse/diskpulse.json:41";
  file.serial = "ZA1ABCDE";
  file.attribute = "temperature";
  file.threshold = 55;
  file.reason = "hot bay";
  OverrideBook book(**store, clock, {file});

  http::ApiContext ctx;
  ctx.store = store->get();
  ctx.clock = &clock;
  ctx.started_at = clock.Now();
  ctx.webui_root = std::string(DP_SOURCE_DIR) + "/webui";
  ctx.api_token = "t0ken";
  ctx.overrides = &book;
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
  const std::string count = "document.querySelector('#drive-overrides')?.dataset.count";
  ASSERT_TRUE(b.WaitFor(count + " === '1'", 30s).ok());
  auto text = b.Eval("document.querySelector('#drive-overrides').innerText");
  ASSERT_TRUE(text.ok());
  const std::string shown = text->get<std::string>();
  EXPECT_NE(shown.find("temperature: threshold 55"), std::string::npos) << shown;
  EXPECT_NE(shown.find("config file /etc/diskpulse/diskpulse.json:41 (read-only)"), std::string::npos)
      << shown;
  EXPECT_NE(shown.find("hot bay"), std::string::npos) << shown;
  auto badge = b.Eval("(() => { const x = document.querySelector('#override-badge'); "
                      "return x.hidden ? '' : x.textContent; })()");
  ASSERT_TRUE(badge.ok());
  EXPECT_EQ(*badge, "1 override in force");
  // A config file's override has no delete button.
  EXPECT_EQ(*b.Eval("document.querySelectorAll('[data-delete-override]').length"), 0);

  // Set one from the form, with the token this tab keeps.
  ASSERT_TRUE(b.Eval(R"((() => {
    sessionStorage.setItem('diskpulse.api_token', 't0ken');
    document.querySelector('#override-attribute').value = 'udma_crc_errors';
    document.querySelector('#override-action').value = 'ignore';
    document.querySelector('#override-reason').value = 'old cable';
    document.querySelector('#override-set').click();
    return true; })())").ok());
  ASSERT_TRUE(b.WaitFor(count + " === '2'", 30s).ok()) << *b.Eval("document.body.innerText");
  auto kept = (*store)->ListOverrides();
  ASSERT_TRUE(kept.ok());
  ASSERT_EQ(kept->size(), 1u);
  EXPECT_EQ((*kept)[0].drive_id, d.id);
  EXPECT_EQ((*kept)[0].attribute, "udma_crc_errors");
  EXPECT_TRUE((*kept)[0].ignore);
  EXPECT_EQ((*kept)[0].reason, "old cable");
  if (const char* dir = std::getenv("DP_SCREENSHOT_DIR")) {
    ASSERT_TRUE(b.Eval("document.querySelector('#drive-overrides').scrollIntoView(); true").ok());
    EXPECT_TRUE(b.Screenshot(std::string(dir) + "/drive_overrides.png").ok());
  }
  auto two = b.Eval("document.querySelector('#override-badge').textContent");
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(*two, "2 overrides in force");

  // Delete it from the page.
  ASSERT_TRUE(b.Eval(R"((() => {
    window.prompt = () => 'new cable';
    document.querySelector('[data-delete-override]').click();
    return true; })())").ok());
  ASSERT_TRUE(b.WaitFor(count + " === '1'", 30s).ok());
  EXPECT_TRUE((*store)->ListOverrides()->empty());
  auto audit = (*store)->ListOverrideAudit(0);
  ASSERT_TRUE(audit.ok());
  ASSERT_EQ(audit->size(), 2u);
  EXPECT_EQ((*audit)[0].action, "deleted");
  EXPECT_EQ((*audit)[0].reason, "new cable");

  // Mute one kind of the drive's alerts from the same form.
  ASSERT_TRUE(b.Eval(R"((() => {
    document.querySelector('#override-attribute').value = 'kind:selftest';
    document.querySelector('#override-action').value = 'mute';
    document.querySelector('#override-value').value = '3';
    document.querySelector('#override-set').click();
    return true; })())").ok());
  ASSERT_TRUE(b.WaitFor(count + " === '2'", 30s).ok()) << *b.Eval("document.body.innerText");
  kept = (*store)->ListOverrides();
  ASSERT_TRUE(kept.ok());
  ASSERT_EQ(kept->size(), 1u);
  EXPECT_EQ((*kept)[0].kind, "selftest");
  EXPECT_EQ((*kept)[0].attribute, "");
  EXPECT_TRUE((*kept)[0].mute_until);
  auto muted = b.Eval("document.querySelector('#drive-overrides').innerText");
  ASSERT_TRUE(muted.ok());
  EXPECT_NE(muted->get<std::string>().find("selftest alerts: muted until"), std::string::npos)
      << muted->get<std::string>();
  EXPECT_TRUE(b.Errors().empty()) << b.Errors().front();
  (*server)->Stop();
}

}  // namespace
}  // namespace dp
