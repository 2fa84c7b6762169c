// The web page as a browser shows it: headless Chromium loads the page from
// the real daemon, runs its JS modules, and the rendered DOM is checked.
// Skipped (with the reason) when Chromium is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "store/store.h"
#include "support/capability.h"
#include "support/daemon_process.h"

namespace dp {
namespace {

using namespace dp::testing;

std::string FindChromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/local/bin/chrome",
                        "/usr/local/bin/chromium"})
    if (::access(p, X_OK) == 0) return p;
  return "";
}

class PageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = FindChromium();
    if (chromium_.empty())
      DP_SKIP_WITHOUT("chromium",
                      "chromium is not installed (scripts/setup.sh installs it with "
                      "DP_SETUP_BROWSER=1)");
  }

  // Loads url and returns the DOM after the page's scripts ran (and, with
  // DP_SCREENSHOT_DIR set, saves a screenshot there for people to look at).
  std::string RenderedDom(const std::string& url, const std::string& shot_name) {
    std::vector<std::string> common = {
        chromium_,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--user-data-dir=" + profile_.Path("profile"),
        "--virtual-time-budget=8000",
        "--window-size=1280,720",
    };
    if (const char* dir = std::getenv("DP_SCREENSHOT_DIR")) {
      auto argv = common;
      argv.push_back("--screenshot=" + std::string(dir) + "/" + shot_name + ".png");
      argv.push_back(url);
      RunProgram(argv, 90s);
    }
    auto argv = common;
    argv.push_back("--dump-dom");
    argv.push_back(url);
    auto r = RunProgram(argv, 90s);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return r.output;
  }

  std::string chromium_;
  TempDir profile_;
};

TEST_F(PageTest, EmptyStateAndHealth) {
  TempDir tmp;
  auto d = DaemonProcess::Start(tmp);
  ASSERT_TRUE(d.ok()) << d.status().message();
  std::string dom = RenderedDom((*d)->url(), "empty");
  EXPECT_NE(dom.find("<title>diskpulse</title>"), std::string::npos) << dom;
  EXPECT_NE(dom.find(R"(id="status" class="status" data-state="ok")"), std::string::npos) << dom;
  EXPECT_NE(dom.find(R"(id="drives" data-state="empty")"), std::string::npos) << dom;
  EXPECT_NE(dom.find("No drives discovered yet:</strong> diskpulsed lists"), std::string::npos)
      << dom;
  EXPECT_NE(dom.find("diskpulse " DP_VERSION), std::string::npos) << dom;
  // The page asked the API itself (not just the static HTML).
  EXPECT_NE((*d)->Output().find("GET /api/v1/overview -> 200"), std::string::npos)
      << (*d)->Output();
}

TEST_F(PageTest, DrivesTable) {
  TempDir tmp;
  {
    std::filesystem::create_directories(tmp.path() / "var");
    auto store = Store::Open(tmp.Path("var/diskpulse.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    Drive a;
    a.id = "wwn-5000c500a1b2c3d4";
    a.name = "sda";
    a.dev_path = "/dev/sda";
    a.model = "ST4000VN008-2DR166";
    a.serial = "ZDH1ABCD";
    a.size_bytes = 4000787030016;
    a.rotational = true;
    a.rotation_rpm = 5980;
    a.transport = "sata";
    ASSERT_TRUE((*store)->UpsertDrive(a, 1764460800).ok());
    Drive b = a;
    b.id = "model-<script>alert(1)</script>";
    b.name = "sdb";
    b.model = "<img src=x onerror=alert(1)>";
    b.serial = "S2";
    ASSERT_TRUE((*store)->UpsertDrive(b, 1764460800).ok());
    ASSERT_TRUE((*store)->MarkMissingExcept({a.id}, 1764460900).ok());
  }
  auto d = DaemonProcess::Start(tmp);
  ASSERT_TRUE(d.ok()) << d.status().message();
  std::string dom = RenderedDom((*d)->url(), "drives");
  EXPECT_NE(dom.find(R"(id="drives" data-state="list")"), std::string::npos) << dom;
  EXPECT_NE(dom.find("ST4000VN008-2DR166"), std::string::npos) << dom;
  EXPECT_NE(dom.find("4.00 TB"), std::string::npos) << dom;
  EXPECT_NE(dom.find("HDD 5980 rpm"), std::string::npos) << dom;
  EXPECT_NE(dom.find(">missing<"), std::string::npos) << dom;
  EXPECT_NE(dom.find("1 present, 1 missing"), std::string::npos) << dom;
  // Text from the API is text, never markup.
  EXPECT_NE(dom.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos) << dom;
  EXPECT_EQ(dom.find("<img src=\"x\""), std::string::npos) << dom;
}

}  // namespace
}  // namespace dp
