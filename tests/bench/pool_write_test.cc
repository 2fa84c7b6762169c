#include "bench/pool_write.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "base/clock.h"
#include "bench/bench_test_util.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

namespace fs = std::filesystem;

int CountEntries(const fs::path& dir) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

TEST(PoolWriteTest, MeasuresAndRemovesTheScratchFile) {
  testing::TempDir dir;
  SystemClock clock;
  PoolWriteOptions o;
  o.seconds = 1;
  o.max_bytes = 32 << 20;
  o.min_free_percent = 0;
  o.max_sync_writes = 50;
  bool saw_scratch = false;
  auto r = RunPoolWrite(dir.path().string(), o, clock, nullptr, [&](double) {
    for (const auto& e : fs::directory_iterator(dir.path()))
      if (e.path().filename().string().rfind(kScratchPrefix, 0) == 0) saw_scratch = true;
  });
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(saw_scratch);
  EXPECT_FALSE(r->partial) << r->error;
  ASSERT_EQ(r->results.size(), 2u);
  EXPECT_EQ(r->results[0].variant, "stream");
  EXPECT_GT(r->results[0].bytes, 0u);
  EXPECT_GT(r->results[0].mb_per_s, 0);
  EXPECT_EQ(r->results[1].variant, "fsync");
  EXPECT_GT(r->results[1].iops, 0);
  ASSERT_TRUE(r->results[1].latency);
  EXPECT_GT(r->results[1].latency->p50_us, 0);
  EXPECT_EQ(CountEntries(dir.path()), 0);
}

TEST(PoolWriteTest, RefusesWhenFreeSpaceWouldFallBelowTheMargin) {
  testing::TempDir dir;
  Status s = CheckPoolWriteTarget(dir.path().string(), 1 << 20, 99.5);
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(s.message().find("min_free_percent"), std::string::npos) << s.message();
  SystemClock clock;
  PoolWriteOptions o;
  o.min_free_percent = 99.5;
  EXPECT_FALSE(RunPoolWrite(dir.path().string(), o, clock, nullptr, nullptr).ok());
  EXPECT_EQ(CountEntries(dir.path()), 0);
  auto cli =
      testing::RunCli({dir.path().string(), "--test", "pool-write", "--min-free-percent", "99.5"});
  EXPECT_EQ(cli.exit_code, 2) << cli.err;
  EXPECT_NE(cli.err.find("free"), std::string::npos) << cli.err;
  EXPECT_EQ(cli.out, "");
  EXPECT_EQ(CountEntries(dir.path()), 0);
}

TEST(PoolWriteTest, RefusesDevicesAndFiles) {
  testing::TempDir dir;
  std::string file = dir.Write("f", "x");
  for (const std::string& target : {std::string("/dev/null"), file}) {
    EXPECT_EQ(CheckPoolWriteTarget(target, 0, 0).code(), StatusCode::kInvalidArgument);
    auto cli = testing::RunCli({target, "--test", "pool-write"});
    EXPECT_EQ(cli.exit_code, 2);
    EXPECT_NE(cli.err.find("not a directory"), std::string::npos) << cli.err;
  }
  EXPECT_EQ(testing::ReadFile(file), "x");
}

TEST(PoolWriteTest, CancelRemovesTheScratchFile) {
  testing::TempDir dir;
  SystemClock clock;
  PoolWriteOptions o;
  o.seconds = 30;
  o.max_bytes = 256 << 20;
  o.min_free_percent = 0;
  std::atomic<bool> cancel{false};
  auto r = RunPoolWrite(dir.path().string(), o, clock, &cancel, [&](double f) {
    if (f > 0.001) cancel = true;
  });
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->partial);
  EXPECT_NE(r->error.find("cancelled"), std::string::npos);
  EXPECT_EQ(CountEntries(dir.path()), 0);
}

// Starts the CLI on a pool-write; `limit_fsize` caps the file size it may write.
pid_t StartCliPoolWrite(const std::string& dir, rlim_t limit_fsize) {
  pid_t pid = ::fork();
  if (pid == 0) {
    if (limit_fsize) {
      struct rlimit rl = {limit_fsize, limit_fsize};
      ::setrlimit(RLIMIT_FSIZE, &rl);
      ::signal(SIGXFSZ, SIG_IGN);  // write then fails with EFBIG
    }
    int devnull = ::open("/dev/null", O_RDWR);
    ::dup2(devnull, 0);
    ::dup2(devnull, 1);
    ::execl(DP_CLI_BIN, DP_CLI_BIN, "bench", dir.c_str(), "--test", "pool-write", "--seconds", "30",
            "--max-bytes", "512M", "--min-free-percent", "0", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

int Wait(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(PoolWriteTest, ErrorWhileWritingRemovesTheScratchFile) {
  testing::TempDir dir;
  pid_t pid = StartCliPoolWrite(dir.path().string(), 8 << 20);
  EXPECT_EQ(Wait(pid), 1);
  EXPECT_EQ(CountEntries(dir.path()), 0);
}

TEST(PoolWriteTest, SigintRemovesTheScratchFile) {
  testing::TempDir dir;
  pid_t pid = StartCliPoolWrite(dir.path().string(), 0);
  bool appeared = false;
  for (int i = 0; i < 500 && !appeared; ++i) {
    appeared = CountEntries(dir.path()) > 0;
    if (!appeared) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(appeared);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ::kill(pid, SIGINT);
  EXPECT_EQ(Wait(pid), 130);
  EXPECT_EQ(CountEntries(dir.path()), 0);
}

}  // namespace
}  // namespace dp
