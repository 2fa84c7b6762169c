// The first start with no token where reads need one: the real daemon makes
// an API token, keeps it beside the database (0600), prints it once with the
// address, and takes it back at the next start; a configured token turns it
// off. Reads need a token here because the test sets "public_read": false
// (the same rule as a listener beyond loopback), so the daemon stays on
// 127.0.0.1.
#include <sys/stat.h>

#include <filesystem>
#include <regex>

#include <gtest/gtest.h>

#include "support/daemon_process.h"
#include "support/http_client.h"

namespace dp {
namespace {

using namespace dp::testing;

std::string TokenIn(const std::string& output) {
  std::smatch m;
  static const std::regex line("give it this token: ([0-9a-f]+)");
  return std::regex_search(output, m, line) ? m[1].str() : "";
}

int ReadDrives(int port, const std::string& token) {
  HeaderList headers;
  if (!token.empty()) headers.push_back({"Authorization", "Bearer " + token});
  return HttpGet(port, "/api/v1/drives", headers).status;
}

TEST(FirstStartToken, MadeOnceKeptAndTakenBackAtTheNextStart) {
  TempDir dir;
  const nlohmann::json patch = {{"public_read", false}};
  std::string token;
  {
    auto d = DaemonProcess::Start(dir, patch);
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    ASSERT_TRUE((*d)->WaitForOutput("give it this token")) << (*d)->Output();
    token = TokenIn((*d)->Output());
    ASSERT_EQ(token.size(), 48u) << (*d)->Output();
    EXPECT_NE((*d)->Output().find((*d)->url()), std::string::npos);
    const std::string path = dir.Path("var/api-token");
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_EQ(ReadFile(path), token + "\n");
    EXPECT_EQ(ReadDrives((*d)->port(), ""), 401);
    EXPECT_EQ(ReadDrives((*d)->port(), token), 200);
  }
  auto again = DaemonProcess::Start(dir, patch);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  ASSERT_TRUE((*again)->WaitForOutput("the one made at the first start")) << (*again)->Output();
  EXPECT_EQ((*again)->Output().find(token), std::string::npos) << "printed once only";
  EXPECT_EQ(ReadDrives((*again)->port(), token), 200);
}

TEST(FirstStartToken, AConfiguredTokenOrLoopbackMakesNone) {
  TempDir configured;
  auto d = DaemonProcess::Start(configured, {{"public_read", false}, {"api_token", "owner-set-token-123"}});
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ((*d)->Output().find("give it this token"), std::string::npos) << (*d)->Output();
  EXPECT_FALSE(std::filesystem::exists(configured.Path("var/api-token")));
  EXPECT_EQ(ReadDrives((*d)->port(), "owner-set-token-123"), 200);

  TempDir loopback;  // the default: loopback reads need no token
  auto open = DaemonProcess::Start(loopback);
  ASSERT_TRUE(open.ok()) << open.status().ToString();
  EXPECT_FALSE(std::filesystem::exists(loopback.Path("var/api-token")));
  EXPECT_EQ(ReadDrives((*open)->port(), ""), 200);
}

}  // namespace
}  // namespace dp
