// The page in front of a daemon that answers reads only with a token (a LAN
// listener; here 127.0.0.1 with "public_read": false, see
// tests/app/daemon_read_auth_test.cc): the 401 becomes a token form, the
// token given is kept in sessionStorage and the page loads; a reload of the
// tab does not ask again. Skipped (with the reason) without Chromium.
#include <gtest/gtest.h>

#include "support/capability.h"
#include "support/daemon_process.h"
#include "support/temp_dir.h"
#include "webui/browser_util.h"

namespace dp {
namespace {

using dp::testing::Browser;
using dp::testing::DaemonProcess;
using dp::testing::TempDir;
using namespace std::chrono_literals;

class TokenPageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string chromium = Browser::FindChromium();
    if (chromium.empty())
      DP_SKIP_WITHOUT("chromium",
                      "chromium is not installed (scripts/setup.sh installs it with "
                      "DP_SETUP_BROWSER=1)");
    auto b = Browser::Launch(chromium, tmp_.Path("profile"));
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    browser_ = std::move(b).value();
  }
  nlohmann::json Eval(const std::string& js) {
    auto v = browser_->Eval(js);
    EXPECT_TRUE(v.ok()) << v.status().ToString();
    return v.ok() ? *v : nlohmann::json(nullptr);
  }
  void Wait(const std::string& js) {
    Status s = browser_->WaitFor(js, 30s);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  void Submit(const std::string& token) {
    Eval("document.getElementById('token-input').value = '" + token +
         "'; document.getElementById('token-form').requestSubmit(); true");
  }
  TempDir tmp_;
  TempDir daemon_dir_;
  std::unique_ptr<Browser> browser_;
};

constexpr const char* kFormShown = "!document.getElementById('token-form').hidden";

TEST_F(TokenPageTest, AReadRefusedForWantOfATokenAsksForItOnce) {
  auto d = DaemonProcess::Start(daemon_dir_, {{"public_read", false}, {"api_token", "page-tok"}});
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_TRUE(browser_->Open((*d)->url()).ok());
  Wait(kFormShown);
  // In an owner's words: what a token is, where it is set, where the first
  // start's one is, and that a read token is enough; no HTTP header talk,
  // and no "connecting…" while it waits.
  const std::string form = Eval("document.getElementById('token-form').textContent");
  EXPECT_NE(form.find("shows its drives only with a token"), std::string::npos) << form;
  EXPECT_NE(form.find("read token"), std::string::npos) << form;
  EXPECT_NE(form.find("api_token"), std::string::npos) << form;
  EXPECT_NE(form.find("docker logs"), std::string::npos) << form;
  EXPECT_NE(form.find("api-token"), std::string::npos) << form;
  EXPECT_EQ(form.find("Authorization"), std::string::npos) << form;
  EXPECT_EQ(Eval("document.getElementById('status-text').textContent"), "waiting for a token");
  EXPECT_NE(Eval("String(document.body.dataset.loaded)"), "yes");
  // A wrong token is refused and asked for again.
  Submit("wrong");
  Wait(kFormShown);
  Wait("document.getElementById('token-why').textContent.includes('not accepted')");
  Submit("page-tok");
  Wait("document.body.dataset.loaded === 'yes'");
  EXPECT_TRUE(Eval("document.getElementById('token-form').hidden").get<bool>());
  EXPECT_EQ(Eval("sessionStorage.getItem('diskpulse.api_token')"), "page-tok");
  EXPECT_EQ(Eval("document.getElementById('drives').dataset.state"), "empty");
  // The session keeps it: a reload reads without asking.
  ASSERT_TRUE(browser_->Open((*d)->url()).ok());
  Wait("document.body.dataset.loaded === 'yes'");
  EXPECT_TRUE(Eval("document.getElementById('token-form').hidden").get<bool>());
}

}  // namespace
}  // namespace dp
