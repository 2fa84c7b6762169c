// End-to-end tests on real loop devices (Linux, root): read-only proof,
// kernel-throttled accuracy, queue depth, a device vanishing (contention:
// contention_linux_test.cc).
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "bench/aligned_buffer.h"
#include "bench/bench_runner.h"
#include "bench/engine_choice.h"
#include "bench/workload_runner.h"
#include "bench/loop_bench_util.h"
#include "support/cgroup_throttle.h"
#include "support/loop_device.h"

namespace dp {
namespace {

using testing::CgroupThrottle;
using testing::LoopDevice;

using testing::Options;
using testing::RunOn;

// Every descriptor this process holds on `path`: {read-only?, direct?}.
std::vector<std::pair<bool, bool>> DescriptorsOn(const std::string& path) {
  std::vector<std::pair<bool, bool>> v;
  DIR* d = ::opendir("/proc/self/fd");
  while (dirent* e = d ? ::readdir(d) : nullptr) {
    std::string fd = e->d_name;
    if (fd == "." || fd == "..") continue;
    char target[512];
    ssize_t n = ::readlink(("/proc/self/fd/" + fd).c_str(), target, sizeof target - 1);
    if (n <= 0 || std::string(target, static_cast<std::size_t>(n)) != path) continue;
    // fcntl rather than /proc/self/fdinfo's octal flags: those are the
    // kernel's encoding, which is not this program's under qemu-user (arm64's
    // O_DIRECT is x86-64's O_DIRECTORY); fcntl's answer is translated.
    const int flags = ::fcntl(std::stoi(fd), F_GETFL);
    if (flags < 0) continue;  // closed since the listing
    v.push_back({(flags & O_ACCMODE) == O_RDONLY, (flags & O_DIRECT) != 0});
  }
  if (d) ::closedir(d);
  return v;
}

TEST(LoopBenchTest, EveryWorkloadIsReadOnly) {
  REQUIRE_LOOP();
  auto loop = LoopDevice::Create(256ULL << 20);
  ASSERT_TRUE(loop.ok()) << loop.status().ToString();
  const std::string dev = (*loop)->path();
  auto before = (*loop)->Stat();
  ASSERT_TRUE(before.ok());
  std::vector<EngineKind> engines = {EngineKind::kPread};
  if (UringUsable()) engines.push_back(EngineKind::kUring);
  int fd_checks = 0;
  for (EngineKind e : engines) {
    BenchOptions o = Options(AllReadTests(1), 0.6);
    o.engine = e;
    o.zone_sweep_points = 3;
    auto r = RunOn(dev, o, nullptr, [&](double) {
      for (auto [ro, direct] : DescriptorsOn(dev)) {
        ASSERT_TRUE(ro) << "a writable descriptor on " << dev;
        ASSERT_TRUE(direct) << "a cached descriptor on " << dev;
        ++fd_checks;
      }
    });
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    // Every point ran to its budget (a tiny point on a loaded machine may be
    // flagged partial for its warm-up, but nothing stopped the run).
    EXPECT_TRUE(r->error.empty()) << r->error;
    EXPECT_EQ(r->engine, EngineKindName(e));
    EXPECT_EQ(r->results.size(), 1u + 6 + 5 + 2 + 9);
  }
  EXPECT_GT(fd_checks, 20);
  auto after = (*loop)->Stat();
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->write_ios, before->write_ios);
  EXPECT_EQ(after->write_sectors, before->write_sectors);
  EXPECT_GT(after->read_sectors, before->read_sectors + (64ULL << 20) / 512);
}

TEST(LoopBenchTest, EnginesReadTheDevicesBytes) {
  REQUIRE_LOOP();
  auto loop = LoopDevice::Create(16ULL << 20);
  ASSERT_TRUE(loop.ok()) << loop.status().ToString();
  std::string data;
  for (int i = 0; i < 4096; ++i) data += static_cast<char>((i * 131) ^ (i >> 5));
  ASSERT_TRUE((*loop)->WriteBacking(5 << 20, data).ok());
  auto dev = BlockDevice::Open((*loop)->path());
  ASSERT_TRUE(dev.ok()) << dev.status().ToString();
  EXPECT_TRUE((*dev)->is_device());
  EXPECT_EQ((*dev)->info().size_bytes, 16u << 20);
  EXPECT_EQ((*dev)->stats_key(), (*loop)->MajMin());
  SystemClock clock;
  for (EngineKind k : {EngineKind::kPread, EngineKind::kUring}) {
    if (k == EngineKind::kUring && !UringUsable()) continue;
    auto e = MakeEngine(k, **dev, 2, clock);
    ASSERT_TRUE(e.ok());
    auto buf = AlignedBuffer::Allocate(4096, 4096);
    ASSERT_TRUE((*e)->Submit({5 << 20, 4096, buf->data(), 7}).ok());
    std::vector<IoCompletion> done;
    ASSERT_TRUE((*e)->Reap(1, std::chrono::seconds(5), done).ok());
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done[0].result, 4096);
    EXPECT_EQ(std::string(reinterpret_cast<char*>(buf->data()), 4096), data) << EngineKindName(k);
  }
}

// The whole test process goes into a throttled cgroup; the engines' threads follow.
class ThrottledLoopTest : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_LOOP();
    REQUIRE_CGROUP();
    auto loop = LoopDevice::Create(256ULL << 20);
    ASSERT_TRUE(loop.ok()) << loop.status().ToString();
    loop_ = std::move(*loop);
    auto cg = CgroupThrottle::Create();
    ASSERT_TRUE(cg.ok()) << cg.status().ToString();
    cg_ = std::move(*cg);
  }
  void TearDown() override {
    cg_.reset();  // moves us back out first
    loop_.reset();
  }
  void Enter() { ASSERT_TRUE(cg_->AddProcess(::getpid()).ok()); }

  std::unique_ptr<LoopDevice> loop_;
  std::unique_ptr<CgroupThrottle> cg_;
};

TEST_F(ThrottledLoopTest, BandwidthThrottleMeasuredWithinFivePercent) {
  const double cap = 40e6;  // bytes/s
  ASSERT_TRUE(
      cg_->SetReadBps(loop_->major(), loop_->minor(), static_cast<std::uint64_t>(cap)).ok());
  Enter();
  // auto must pick pread under a bandwidth throttle (it charges io_uring twice).
  auto dev = BlockDevice::Open(loop_->path());
  ASSERT_TRUE(dev.ok());
  EXPECT_EQ(ResolveEngine(EngineKind::kAuto, **dev), EngineKind::kPread);
  BenchOptions o = Options({BenchTest::kSeq}, 2.5);
  auto r = RunOn(loop_->path(), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->engine, "pread");
  ASSERT_EQ(r->results.size(), 1u);
  EXPECT_NEAR(r->results[0].mb_per_s, cap / 1e6, 0.05 * cap / 1e6);
}

TEST_F(ThrottledLoopTest, IopsThrottleMeasuredWithinFivePercentByBothEngines) {
  const double cap = 400;
  ASSERT_TRUE(
      cg_->SetReadIops(loop_->major(), loop_->minor(), static_cast<std::uint64_t>(cap)).ok());
  Enter();
  auto dev = BlockDevice::Open(loop_->path());
  ASSERT_TRUE(dev.ok());
  // auto picks pread under any read throttle.
  EXPECT_EQ(ResolveEngine(EngineKind::kAuto, **dev), EngineKind::kPread);
  for (EngineKind k : {EngineKind::kPread, EngineKind::kUring}) {
    if (k == EngineKind::kUring && !UringUsable()) continue;
    BenchOptions o = Options({BenchTest::kRandom}, 2);
    o.queue_depth = 8;
    o.engine = k;
    auto r = RunOn(loop_->path(), o);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ(r->results.size(), 1u);
    EXPECT_NEAR(r->results[0].iops, cap, 0.05 * cap) << EngineKindName(k);
  }
}

TEST_F(ThrottledLoopTest, QueueDepthIsHonoured) {
  ASSERT_TRUE(cg_->SetReadIops(loop_->major(), loop_->minor(), 200).ok());
  Enter();
  auto dev = BlockDevice::Open(loop_->path());
  ASSERT_TRUE(dev.ok());
  SystemClock clock;
  for (EngineKind k : {EngineKind::kPread, EngineKind::kUring}) {
    if (k == EngineKind::kUring && !UringUsable()) continue;
    auto e = MakeEngine(k, **dev, 8, clock);
    ASSERT_TRUE(e.ok());
    Workload w;
    w.test = "random";
    w.pattern = AccessPattern::kRandom;
    w.block_size = 4096;
    w.queue_depth = 8;
    w.region_end = 256ULL << 20;
    w.seconds = 0.5;
    w.warmup_seconds = 0.05;
    auto r = RunWorkload(**e, w, 512, 4096, clock, nullptr, nullptr);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*e)->max_concurrency_seen(), 8u) << EngineKindName(k);
    EXPECT_GT(r->ios, 0u);
  }
}

TEST(LoopBenchTest, DeviceVanishingMidRunEndsPartial) {
  REQUIRE_LOOP();
  auto loop = LoopDevice::Create(256ULL << 20);
  ASSERT_TRUE(loop.ok()) << loop.status().ToString();
  BenchOptions o = Options({BenchTest::kSeq, BenchTest::kRandom}, 3);
  bool shrunk = false;
  auto r = RunOn((*loop)->path(), o, nullptr, [&](double f) {
    if (!shrunk && f > 0.1) {
      shrunk = true;
      ASSERT_TRUE((*loop)->Shrink(1 << 20).ok());
    }
  });
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(shrunk);
  EXPECT_TRUE(r->partial);
  // Reads in flight when the capacity changes fail with EIO; later ones come back empty.
  EXPECT_TRUE(r->error.find("device shrank or went away") != std::string::npos ||
              r->error.find("Input/output error") != std::string::npos)
      << r->error;
  ASSERT_EQ(r->results.size(), 1u);
  EXPECT_TRUE(r->results[0].partial);
}

}  // namespace
}  // namespace dp
