// The real diskpulsed warns, at start and at each reload, when the config
// file holds a token and every user may read it, naming the file, its mode
// and what it holds; once the file is closed to others the warning stops.
// A config without a secret in it is left alone whatever its mode.
#include <sys/stat.h>

#include <chrono>
#include <csignal>
#include <thread>

#include <gtest/gtest.h>

#include "support/daemon_process.h"

namespace dp {
namespace {

using namespace dp::testing;

std::size_t Count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

TEST(SecretFileModeTest, AWorldReadableConfigHoldingATokenIsWarnedOfAtStartAndReload) {
  TempDir tmp;
  auto d = DaemonProcess::Start(tmp, {{"api_token", "tok-123"}, {"read_token", "rd-456"}});
  ASSERT_TRUE(d.ok()) << d.status().message();
  const std::string path = (*d)->config_path();
  // However the test's umask wrote it, the file is now open to everyone.
  ASSERT_EQ(::chmod(path.c_str(), 0644), 0);
  (*d)->Signal(SIGHUP);
  const std::string warning = path + " is readable by every user (mode 0644) and holds "
                                     "api_token, read_token: make it unreadable to others "
                                     "(chmod o-r " + path;
  ASSERT_TRUE((*d)->WaitForOutput(warning)) << (*d)->Output();
  EXPECT_EQ((*d)->Output().find("tok-123"), std::string::npos);  // the secret itself never

  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  const std::string reloaded = "configuration reloaded from " + path;
  ASSERT_TRUE((*d)->WaitForOutput(reloaded));
  const std::size_t before = Count((*d)->Output(), warning);
  const std::size_t reloads = Count((*d)->Output(), reloaded);
  (*d)->Signal(SIGHUP);
  for (int i = 0; i < 1000 && Count((*d)->Output(), reloaded) == reloads; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_GT(Count((*d)->Output(), reloaded), reloads) << (*d)->Output();
  EXPECT_EQ(Count((*d)->Output(), warning), before) << (*d)->Output();
}

TEST(SecretFileModeTest, AConfigWithoutSecretsIsNotWarnedOf) {
  TempDir tmp;
  auto d = DaemonProcess::Start(tmp);
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_EQ(::chmod((*d)->config_path().c_str(), 0644), 0);
  (*d)->Signal(SIGHUP);
  ASSERT_TRUE((*d)->WaitForOutput("configuration reloaded from " + (*d)->config_path()));
  EXPECT_EQ((*d)->Output().find("is readable by every user"), std::string::npos)
      << (*d)->Output();
}

}  // namespace
}  // namespace dp
