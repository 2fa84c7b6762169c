// CommandSpec::stdin_data: the child gets the bytes on stdin, then EOF.
#include <gtest/gtest.h>

#include "base/command_runner.h"

namespace dp {
namespace {

TEST(CommandRunnerStdin, ChildReadsAllOfItLargeInputIncluded) {
  PosixCommandRunner runner;
  CommandSpec spec;
  spec.argv = {"cat"};
  std::string data;
  for (int i = 0; data.size() < (3 << 20); ++i) data += "line " + std::to_string(i) + "\n";
  spec.stdin_data = data;  // far more than a pipe buffer: written as the child reads
  auto out = runner.Run(spec);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->exit_code, 0);
  EXPECT_EQ(out->stdout_text.size(), data.size());
  EXPECT_TRUE(out->stdout_text == data);
}

TEST(CommandRunnerStdin, EmptyDataIsImmediateEofAndNoDataIsDevNull) {
  PosixCommandRunner runner;
  CommandSpec spec;
  spec.argv = {"wc", "-c"};
  spec.stdin_data = std::string();
  auto out = runner.Run(spec);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(std::stoi(out->stdout_text), 0);
  spec.stdin_data.reset();
  out = runner.Run(spec);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(std::stoi(out->stdout_text), 0);
}

TEST(CommandRunnerStdin, ChildThatIgnoresStdinDoesNotHurtTheCaller) {
  // `true` exits without reading: our writes hit a closed pipe (EPIPE). The
  // process must survive (no SIGPIPE) and report the child's exit normally.
  PosixCommandRunner runner;
  CommandSpec spec;
  spec.argv = {"true"};
  spec.stdin_data = std::string(4 << 20, 'x');
  for (int i = 0; i < 3; ++i) {
    auto out = runner.Run(spec);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(out->exit_code, 0);
  }
  spec.argv = {"false"};
  auto out = runner.Run(spec);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->exit_code, 1);
}

TEST(CommandRunnerStdin, TimeoutStillAppliesWhileFeeding) {
  // `sleep` never reads: the pipe fills and the deadline must still end it.
  PosixCommandRunner runner;
  CommandSpec spec;
  spec.argv = {"sleep", "5"};
  spec.timeout = std::chrono::milliseconds(300);
  spec.stdin_data = std::string(1 << 20, 'y');
  auto out = runner.Run(spec);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kTimeout);
}

}  // namespace
}  // namespace dp
