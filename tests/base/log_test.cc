#include "base/log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "support/temp_dir.h"

namespace dp {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(LogLevelTest, ParsesTheDocumentedNames) {
  EXPECT_EQ(*ParseLogLevel("debug"), LogLevel::kDebug);
  EXPECT_EQ(*ParseLogLevel("info"), LogLevel::kInfo);
  EXPECT_EQ(*ParseLogLevel("warning"), LogLevel::kWarning);
  EXPECT_EQ(*ParseLogLevel("warn"), LogLevel::kWarning);
  EXPECT_EQ(*ParseLogLevel("error"), LogLevel::kError);
  for (const char* bad : {"", "INFO", "verbose", "err", "info "}) {
    auto r = ParseLogLevel(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(r.status().message(), HasSubstr("expected debug, info, warning or error"));
  }
  for (LogLevel l : {LogLevel::kDebug, LogLevel::kInfo, LogLevel::kWarning, LogLevel::kError})
    EXPECT_EQ(*ParseLogLevel(LogLevelName(l)), l);
}

// Captures what Log writes to stderr while fn runs.
template <typename Fn>
std::string CaptureStderr(Fn fn) {
  testing::TempDir dir;
  std::string path = dir.Path("stderr");
  std::fflush(stderr);
  int saved = dup(2);
  FILE* f = std::fopen(path.c_str(), "w");
  dup2(fileno(f), 2);
  fn();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::fclose(f);
  return testing::ReadFile(path);
}

TEST(LogTest, FiltersByLevelAndWritesOneLinePerCall) {
  std::string out = CaptureStderr([] {
    ConfigureLogging(LogLevel::kWarning, LogTarget::kStderr, "diskpulse-test");
    LogDebug("debug-line");
    LogInfo("info-line");
    LogWarning("warning-line");
    LogError("error-line");
    ConfigureLogging(LogLevel::kInfo, LogTarget::kStderr, "diskpulsed");
  });
  EXPECT_THAT(out, Not(HasSubstr("debug-line")));
  EXPECT_THAT(out, Not(HasSubstr("info-line")));
  EXPECT_THAT(
      out, HasSubstr("diskpulse-test[" + std::to_string(getpid()) + "] warning: warning-line\n"));
  EXPECT_THAT(out, HasSubstr("error: error-line\n"));
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2);
}

}  // namespace
}  // namespace dp
