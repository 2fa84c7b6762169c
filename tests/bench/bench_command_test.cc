// `diskpulse bench` as a user runs it: the JSON contract and every bad input.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bench/bench_test_util.h"
#include "support/capability.h"
#include "support/loop_device.h"
#include "support/staged_binary.h"

namespace dp {
namespace {

using testing::RunCli;

class BenchCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string dir = testing::LoopDevice::DirectIoDir();
    ASSERT_FALSE(dir.empty());
    base_ = dir + "/diskpulse-cli-" + std::to_string(::getpid());
    ASSERT_EQ(::mkdir(base_.c_str(), 0755), 0);
    file_ = Make("target.img", 64 << 20);
  }
  void TearDown() override { std::filesystem::remove_all(base_); }
  std::string Make(const std::string& name, std::uint64_t size, mode_t mode = 0644) {
    std::string p = base_ + "/" + name;
    { std::ofstream(p).flush(); }
    std::filesystem::resize_file(p, size);
    ::chmod(p.c_str(), mode);
    return p;
  }
  std::string base_, file_;
};

TEST_F(BenchCommandTest, JsonFollowsTheContract) {
  auto r = RunCli({file_, "--test", "seq,random,seek,zones", "--seconds", "0.5", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["target"], file_);
  EXPECT_EQ(j["device"]["size_bytes"], 64u << 20);
  EXPECT_TRUE(j["device"]["logical_block_size"].is_number());
  EXPECT_TRUE(j["device"]["physical_block_size"].is_number());
  EXPECT_TRUE(j["device"].contains("rotational"));
  EXPECT_TRUE(j["engine"] == "uring" || j["engine"] == "pread") << j["engine"];
  EXPECT_FALSE(j["partial"].get<bool>());
  const auto& res = j["results"];
  ASSERT_EQ(res.size(), 1u + 2 + 5 + 3);
  const auto& seq = res[0];
  EXPECT_EQ(seq["test"], "seq");
  EXPECT_EQ(seq["block_size"], 1048576);
  EXPECT_EQ(seq["queue_depth"], 8);
  EXPECT_TRUE(seq["zone"].is_null());
  EXPECT_GT(seq["bytes"].get<double>(), 0);
  EXPECT_GT(seq["seconds"].get<double>(), 0);
  EXPECT_GT(seq["mb_per_s"].get<double>(), 0);
  EXPECT_GT(seq["iops"].get<double>(), 0);
  for (const char* k : {"p50", "p90", "p99", "p999", "max", "mean"})
    EXPECT_TRUE(seq["latency_us"][k].is_number()) << k;
  EXPECT_TRUE(seq["contended"].is_boolean());
  EXPECT_EQ(res[1]["test"], "random");
  EXPECT_EQ(res[1]["queue_depth"], 1);
  EXPECT_EQ(res[2]["queue_depth"], 32);
  EXPECT_EQ(res[3]["test"], "seek");
  EXPECT_EQ(res[3]["stroke"], "full");
  EXPECT_TRUE(res[3]["access_ms"].is_number());
  EXPECT_EQ(res[7]["stroke"], "short_backward");
  EXPECT_EQ(res[8]["zone"], "outer");
  EXPECT_EQ(res[9]["zone"], "middle");
  EXPECT_EQ(res[10]["zone"], "inner");
}

TEST_F(BenchCommandTest, HumanOutputLooksLikeDiskinfo) {
  auto r = RunCli({file_, "--test", "seek", "--seconds", "0.5", "--engine", "pread"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("# mediasize in bytes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Seek times:"), std::string::npos);
  EXPECT_NE(r.out.find("Full stroke:"), std::string::npos);
  EXPECT_NE(r.out.find("msec"), std::string::npos);
  EXPECT_NE(r.out.find("pread"), std::string::npos);
}

TEST_F(BenchCommandTest, SeveralTargetsGiveAnArray) {
  std::string second = Make("second.img", 32 << 20);
  auto r = RunCli({file_, second, "--test", "seq", "--seconds", "0.3", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[1]["target"], second);
}

struct BadCase {
  std::vector<std::string> args;
  std::string expect_in_stderr;
};

TEST_F(BenchCommandTest, BadInputIsAClearErrorAndWritesNothing) {
  std::string small = Make("small.img", 2 << 20);
  std::string odd = base_ + "/odd.img";
  std::ofstream(odd) << std::string(1000, 'x');
  const std::vector<BadCase> cases = {
      {{base_ + "/missing.img", "--test", "seq"}, "No such file or directory"},
      {{base_, "--test", "seq"}, "is a directory"},
      {{file_, "--test", "pool-write"}, "not a directory"},
      {{small, "--test", "seq"}, "target smaller than the workload"},
      {{small, "--test", "random", "--bs", "4M", "--qd", "1"}, "target smaller than the workload"},
      {{file_, "--test", "random", "--bs", "1000"}, "not a multiple"},
      {{odd, "--test", "seq"}, "not a multiple of the block size"},
      {{file_, "--test", "fast"}, "unknown test"},
      {{file_, "--test", "seq", "--qd", "0"}, "--qd"},
      {{file_, "--test", "seq", "--seconds", "-1"}, "--seconds"},
      {{file_, "--test", "seq", "--max-bytes", "lots"}, "--max-bytes"},
      {{file_, "--test", "seq", "--engine", "aio"}, "unknown engine"},
      {{file_, "--test", "seq", "--frobnicate"}, "unknown option"},
      {{file_}, "--test is required"},
      {{"--test", "seq"}, "no TARGET"},
      {{file_, "--test", "parallel"}, "two or more targets"},
  };
  for (const auto& c : cases) {
    auto r = RunCli(c.args);
    std::string what = c.args.empty() ? "" : c.args.back();
    EXPECT_EQ(r.exit_code, 2) << what << ": " << r.err;
    EXPECT_NE(r.err.find(c.expect_in_stderr), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << what;
  }
  // Nothing was created next to the targets.
  int entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(base_)) ++entries;
  EXPECT_EQ(entries, 3);
}

TEST_F(BenchCommandTest, PermissionDenied) {
  if (::geteuid() != 0) DP_SKIP_WITHOUT("root", "needs root to drop to another user");
  // The user must reach the CLI itself, or the exec fails (127) before the
  // open it is meant to be refused; a copy in a world-readable folder does.
  auto cli = testing::StagedBinary::Create(DP_CLI_BIN, 65534, 65534);
  if (!cli.ok())
    DP_SKIP_WITHOUT("uid 65534 running a staged copy",
                    "uid 65534 cannot run a copy of the CLI: " << cli.status().ToString());
  std::string secret = Make("secret.img", 8 << 20, 0600);
  ::chmod(base_.c_str(), 0755);
  auto r = RunCli({secret, "--test", "seq"}, 65534, (*cli)->path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("Permission denied"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace dp
