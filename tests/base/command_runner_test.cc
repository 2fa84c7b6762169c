#include "base/command_runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "support/temp_dir.h"

namespace dp {
namespace {

using std::chrono::milliseconds;
using ::testing::HasSubstr;

CommandSpec Spec(std::vector<std::string> argv, milliseconds timeout = milliseconds(20'000)) {
  CommandSpec s;
  s.argv = std::move(argv);
  s.timeout = timeout;
  return s;
}

double SecondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// True once pid is gone or a zombie (killed, not yet reaped by its new parent).
bool ProcessEnded(pid_t pid) {
  for (int i = 0; i < 200; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    if (!stat) return true;
    std::string line;
    std::getline(stat, line);
    auto close = line.rfind(')');
    if (close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z')
      return true;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return false;
}

pid_t ReadPid(const std::string& path) {
  pid_t pid = 0;
  for (int i = 0; i < 200 && pid == 0; ++i) {
    std::ifstream in(path);
    in >> pid;
    if (pid == 0) std::this_thread::sleep_for(milliseconds(10));
  }
  return pid;
}

TEST(CommandRunnerTest, ExitCodeIsData) {
  PosixCommandRunner runner;
  auto r = runner.Run(Spec({"sh", "-c", "exit 3"}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->term_signal, 0);
  auto t = runner.Run(Spec({"true"}));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->exit_code, 0);
  // smartctl-style bitmask values survive.
  auto m = runner.Run(Spec({"sh", "-c", "exit 196"}));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->exit_code, 196);
}

TEST(CommandRunnerTest, DeathBySignalIsReported) {
  PosixCommandRunner runner;
  auto r = runner.Run(Spec({"sh", "-c", "kill -TERM $$"}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->exit_code, -1);
  EXPECT_EQ(r->term_signal, SIGTERM);
}

TEST(CommandRunnerTest, CapturesStdoutAndStderrSeparately) {
  PosixCommandRunner runner;
  auto r = runner.Run(Spec({"sh", "-c", "echo out; echo err >&2; echo more"}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stdout_text, "out\nmore\n");
  EXPECT_EQ(r->stderr_text, "err\n");
  EXPECT_FALSE(r->stdout_truncated);
  EXPECT_FALSE(r->stderr_truncated);
  EXPECT_GE(r->seconds, 0);
}

TEST(CommandRunnerTest, ArgvIsNeverAShell) {
  testing::TempDir dir;
  std::string victim = dir.Write("victim", "keep me");
  PosixCommandRunner runner;
  auto r = runner.Run(Spec({"echo", "$HOME; rm -f " + victim, "`id`", "a  b"}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stdout_text, "$HOME; rm -f " + victim + " `id` a  b\n");
  EXPECT_EQ(testing::ReadFile(victim), "keep me");
}

TEST(CommandRunnerTest, StdinIsEmpty) {
  PosixCommandRunner runner;
  auto r = runner.Run(Spec({"cat"}, milliseconds(5000)));
  ASSERT_TRUE(r.ok()) << r.status().ToString();  // EOF at once, no hang
  EXPECT_EQ(r->stdout_text, "");
}

TEST(CommandRunnerTest, StdinDataIsFedAndClosed) {
  PosixCommandRunner runner;
  CommandSpec s = Spec({"cat"});
  s.stdin_data = "Subject: sda is slowing down\n\nbody\n";
  auto r = runner.Run(s);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->stdout_text, *s.stdin_data);

  // More than a pipe holds, while the child writes as much back.
  s.stdin_data = std::string(1 << 20, 'x');
  r = runner.Run(s);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->stdout_text.size(), 1u << 20);

  // A child that never reads it is no error (and no SIGPIPE reaches us).
  CommandSpec t = Spec({"sh", "-c", "exit 2"});
  t.stdin_data = std::string(1 << 20, 'y');
  auto q = runner.Run(t);
  ASSERT_TRUE(q.ok()) << q.status().ToString();
  EXPECT_EQ(q->exit_code, 2);
}

TEST(CommandRunnerTest, TimeoutKillsTheChild) {
  PosixCommandRunner runner;
  auto start = std::chrono::steady_clock::now();
  auto r = runner.Run(Spec({"sleep", "30"}, milliseconds(300)));
  double took = SecondsSince(start);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kTimeout);
  EXPECT_THAT(r.status().message(), HasSubstr("sleep 30"));
  EXPECT_THAT(r.status().message(), HasSubstr("killed"));
  EXPECT_LT(took, 10.0);  // nowhere near the 30 s the child wanted
}

TEST(CommandRunnerTest, TimeoutKillsGrandchildrenToo) {
  testing::TempDir dir;
  std::string pidfile = dir.Path("pid");
  PosixCommandRunner runner;
  auto start = std::chrono::steady_clock::now();
  auto r = runner.Run(
      Spec({"sh", "-c", "sleep 30 & echo $! > \"$0\"; wait", pidfile}, milliseconds(500)));
  double took = SecondsSince(start);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kTimeout);
  EXPECT_LT(took, 10.0);
  pid_t grandchild = ReadPid(pidfile);
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(ProcessEnded(grandchild)) << "sleep " << grandchild << " outlived the timeout";
}

TEST(CommandRunnerTest, ABackgroundedGrandchildDoesNotHoldTheRunHostage) {
  // The tool exits at once but leaves a child holding its stdout open.
  testing::TempDir dir;
  std::string pidfile = dir.Path("pid");
  PosixCommandRunner runner;
  auto start = std::chrono::steady_clock::now();
  auto r = runner.Run(Spec({"sh", "-c", "echo hi; sleep 30 & echo $! > \"$0\"; exit 4", pidfile},
                           milliseconds(20'000)));
  double took = SecondsSince(start);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->exit_code, 4);
  EXPECT_EQ(r->stdout_text, "hi\n");
  EXPECT_LT(took, 10.0);
  pid_t grandchild = ReadPid(pidfile);
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(ProcessEnded(grandchild));
}

TEST(CommandRunnerTest, OutputIsCappedPerStream) {
  PosixCommandRunner runner;
  CommandSpec s = Spec({"sh", "-c", "head -c 300000 /dev/zero; head -c 5000 /dev/zero >&2"});
  s.max_output_bytes = 1000;
  auto r = runner.Run(s);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->exit_code, 0);  // the child was not blocked by a full pipe
  EXPECT_EQ(r->stdout_text.size(), 1000u);
  EXPECT_TRUE(r->stdout_truncated);
  EXPECT_EQ(r->stderr_text.size(), 1000u);
  EXPECT_TRUE(r->stderr_truncated);

  s.max_output_bytes = 5000;
  r = runner.Run(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stderr_text.size(), 5000u);
  EXPECT_FALSE(r->stderr_truncated);  // exactly the cap is not truncated
}

TEST(CommandRunnerTest, LargeOutputOnBothStreamsDoesNotDeadlock) {
  PosixCommandRunner runner;
  auto r = runner.Run(Spec({"sh", "-c",
                            "head -c 400000 /dev/zero >&2; head -c 400000 /dev/zero; "
                            "head -c 400000 /dev/zero >&2"}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->stdout_text.size(), 400000u);
  EXPECT_EQ(r->stderr_text.size(), 800000u);
}

TEST(CommandRunnerTest, MissingBinaryIsNotFound) {
  PosixCommandRunner runner;
  auto r = runner.Run(Spec({"diskpulse-no-such-tool", "-x"}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(r.status().message(), "diskpulse-no-such-tool not found");

  auto abs = runner.Run(Spec({"/nonexistent/dir/smartctl"}));
  ASSERT_FALSE(abs.ok());
  EXPECT_EQ(abs.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(abs.status().message(), "/nonexistent/dir/smartctl not found");
}

TEST(CommandRunnerTest, NonExecutableFileIsPermissionDenied) {
  testing::TempDir dir;
  std::string script = dir.Write("tool", "#!/bin/sh\necho hi\n");
  chmod(script.c_str(), 0644);
  PosixCommandRunner runner;
  auto r = runner.Run(Spec({script}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kPermissionDenied);
  EXPECT_THAT(r.status().message(), HasSubstr(script));
}

TEST(CommandRunnerTest, EmptyArgvIsInvalid) {
  PosixCommandRunner runner;
  EXPECT_EQ(runner.Run(Spec({})).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(runner.Run(Spec({""})).status().code(), StatusCode::kInvalidArgument);
}

TEST(CommandRunnerTest, SafeFromManyThreads) {
  PosixCommandRunner runner;
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 5; ++i) {
        auto r = runner.Run(
            Spec({"sh", "-c", "echo $0; exit $1", std::to_string(t), std::to_string(i)}));
        if (!r.ok() || r->exit_code != i || r->stdout_text != std::to_string(t) + "\n") ++bad;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST(FormatArgvTest, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(FormatArgv({"smartctl", "-x", "-j", "/dev/sda"}), "smartctl -x -j /dev/sda");
  EXPECT_EQ(FormatArgv({"echo", "a b", "it's", ""}), "echo 'a b' 'it'\\''s' ''");
  EXPECT_EQ(FormatArgv({"x", "$HOME"}), "x '$HOME'");
}

}  // namespace
}  // namespace dp
