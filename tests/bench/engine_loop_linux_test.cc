// The engines on real loop devices: several jobs on one target stay inside
// their region and their byte budget and read the device's own bytes; the
// unwritten-region detector tells a sparse (never written) region from one
// with data; both engines leave the device's write counters alone; bad
// --jobs / queue depth / a shrinking device give a clear error or a stated clamp.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "base/clock.h"
#include "bench/aligned_buffer.h"
#include "bench/bench_report_format.h"
#include "bench/bench_runner.h"
#include "bench/engine_choice.h"
#include "bench/workload_runner.h"
#include "config/config.h"
#include "support/capability.h"
#include "support/loop_device.h"

namespace dp {
namespace {

using testing::LoopDevice;

#define REQUIRE_LOOP()                                      \
  do {                                                      \
    std::string why = LoopDevice::Unavailable();            \
    if (!why.empty()) DP_SKIP_WITHOUT("loop devices", why); \
  } while (0)

std::vector<EngineKind> Engines() {
  std::vector<EngineKind> v = {EngineKind::kPread};
  if (UringUsable()) v.push_back(EngineKind::kUring);
  return v;
}

// Random bytes (splitmix64), so no block is all zero and no two blocks match.
std::string RandomBytes(std::size_t n, std::uint64_t seed) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i + 8 <= n; i += 8) {
    std::uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    std::memcpy(&s[i], &z, 8);
  }
  return s;
}

Status Fill(const LoopDevice& loop, std::uint64_t size) {
  for (std::uint64_t off = 0; off < size; off += 8 << 20)
    DP_RETURN_IF_ERROR(loop.WriteBacking(off, RandomBytes(8 << 20, off)));
  return Status::Ok();
}

// A loop device over `size` bytes of random data, opened as the bench opens
// it, and its backing file opened plainly to compare what the engines read.
struct FilledLoop {
  std::unique_ptr<LoopDevice> loop;
  std::unique_ptr<BlockDevice> dev;
  int plain = -1;
  ~FilledLoop() {
    if (plain >= 0) ::close(plain);
  }
};

Result<std::unique_ptr<FilledLoop>> MakeFilledLoop(std::uint64_t size) {
  auto f = std::make_unique<FilledLoop>();
  DP_ASSIGN_OR_RETURN(f->loop, LoopDevice::Create(size));
  DP_RETURN_IF_ERROR(Fill(*f->loop, size));
  DP_ASSIGN_OR_RETURN(f->dev, BlockDevice::Open(f->loop->path()));
  f->plain = ::open(f->loop->backing_file().c_str(), O_RDONLY | O_CLOEXEC);
  if (f->plain < 0) return ErrnoStatus(errno, f->loop->backing_file());
  return f;
}

// Sets a queue attribute of a loop device (sysfs) and puts the old value back
// when it goes: the loop driver keeps them across detach, for the next user.
class QueueAttr {
 public:
  QueueAttr(const LoopDevice& loop, const std::string& name, int value)
      : file_("/sys/block/" + loop.name() + "/queue/" + name) {
    std::ifstream in(file_);
    ok_ = static_cast<bool>(in >> old_);
    if (ok_) ok_ = Write(value);
  }
  ~QueueAttr() {
    if (ok_) Write(old_);
  }
  bool ok() const { return ok_; }

 private:
  bool Write(int v) {
    std::ofstream out(file_);
    out << v;
    out.close();
    return !out.fail();
  }
  std::string file_;
  int old_ = 0;
  bool ok_ = false;
};

// Every read the jobs asked for, and whether each came back with the bytes a
// plain read of the backing file sees at the same offset.
struct ReadLog {
  std::mutex mu;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> reads;
  std::atomic<int> compared{0}, mismatches{0};
};

class CheckingEngine final : public IoEngine {
 public:
  CheckingEngine(std::unique_ptr<IoEngine> inner, int plain_fd, ReadLog& log)
      : inner_(std::move(inner)), plain_fd_(plain_fd), log_(log) {}
  std::string_view name() const override { return inner_->name(); }
  std::uint32_t queue_depth() const override { return inner_->queue_depth(); }
  bool RegisterBuffers(const std::vector<std::byte*>& b, std::uint32_t len) override {
    return inner_->RegisterBuffers(b, len);
  }
  Status Submit(const IoRequest& r) override {
    {
      std::lock_guard lock(log_.mu);
      log_.reads.push_back({r.offset, r.length});
    }
    pending_[r.tag] = r;
    return inner_->Submit(r);
  }
  Result<std::size_t> Reap(std::size_t min, std::chrono::nanoseconds timeout,
                           std::vector<IoCompletion>& out) override {
    std::size_t before = out.size();
    auto n = inner_->Reap(min, timeout, out);
    for (std::size_t i = before; i < out.size(); ++i) {
      const IoRequest& r = pending_[out[i].tag];
      if (out[i].result != r.length) continue;
      std::string plain(r.length, '\0');
      if (::pread(plain_fd_, plain.data(), r.length, static_cast<off_t>(r.offset)) !=
              static_cast<ssize_t>(r.length) ||
          std::memcmp(plain.data(), r.buffer, r.length) != 0)
        ++log_.mismatches;
      ++log_.compared;
    }
    return n;
  }
  std::uint32_t in_flight() const override { return inner_->in_flight(); }
  std::uint32_t max_concurrency_seen() const override { return inner_->max_concurrency_seen(); }

 private:
  std::unique_ptr<IoEngine> inner_;
  int plain_fd_;
  ReadLog& log_;
  std::map<std::uint64_t, IoRequest> pending_;
};

TEST(EngineJobsTest, JobsStayInsideTheRegionAndTheByteBudgetAndReadTheDevicesBytes) {
  REQUIRE_LOOP();
  auto filled = MakeFilledLoop(64ULL << 20);
  ASSERT_TRUE(filled.ok()) << filled.status().ToString();
  auto& loop = (*filled)->loop;
  auto& dev = (*filled)->dev;
  const int plain = (*filled)->plain;
  SystemClock clock;
  for (EngineKind kind : Engines()) {
    for (AccessPattern pattern : {AccessPattern::kRandom, AccessPattern::kSequential}) {
      for (std::uint32_t jobs : {4u, kAutoJobs}) {
        Workload w;
        w.test = "jobs";
        w.pattern = pattern;
        w.block_size = pattern == AccessPattern::kRandom ? 4096 : 65536;
        w.queue_depth = 4;
        w.jobs = jobs;
        w.region_begin = 8ULL << 20;
        w.region_end = 40ULL << 20;
        w.max_bytes = 6ULL << 20;  // the byte budget ends the point, not the time
        w.seconds = 20;
        w.warmup_seconds = 0;
        ReadLog log;
        auto before = loop->Stat();
        ASSERT_TRUE(before.ok());
        auto r = RunWorkloadJobs(
            [&](std::uint32_t qd) -> Result<std::unique_ptr<IoEngine>> {
              DP_ASSIGN_OR_RETURN(auto e, MakeEngine(kind, *dev, qd, clock));
              return std::unique_ptr<IoEngine>(
                  std::make_unique<CheckingEngine>(std::move(e), plain, log));
            },
            w, 512, 4096, clock, nullptr, nullptr);
        ASSERT_TRUE(r.ok()) << r.status().ToString();
        auto after = loop->Stat();
        ASSERT_TRUE(after.ok());
        const std::string what = std::string(EngineKindName(kind)) + " " +
                                 (pattern == AccessPattern::kRandom ? "random" : "seq") +
                                 " jobs " + (jobs ? std::to_string(jobs) : "auto");
        if (jobs) {
          EXPECT_EQ(r->jobs, jobs) << what;
        }
        EXPECT_GE(r->jobs, 1u) << what;
        if (!jobs) {
          EXPECT_LE(r->jobs, std::max(1u, std::thread::hardware_concurrency())) << what;
        }
        std::uint64_t asked = 0;
        std::set<std::uint64_t> offsets;
        for (auto [off, len] : log.reads) {
          EXPECT_GE(off, w.region_begin) << what;
          EXPECT_LE(off + len, w.region_end) << what;
          asked += len;
          offsets.insert(off);
        }
        EXPECT_LE(asked, w.max_bytes) << what;
        EXPECT_EQ(r->total_bytes, asked) << what;
        EXPECT_GE(asked, w.max_bytes - w.block_size * w.queue_depth * 8) << what;
        // Sequential jobs read disjoint slices, and auto's probes another part
        // of the region: no block is read twice.
        if (pattern == AccessPattern::kSequential) {
          EXPECT_EQ(offsets.size(), log.reads.size()) << what;
        }
        // The kernel saw no more than the budget either (plus a little slack
        // for udev's probe of a new device).
        EXPECT_LE((after->read_sectors - before->read_sectors) * 512, w.max_bytes + (256 << 10))
            << what;
        EXPECT_EQ(after->write_ios, before->write_ios) << what;
        EXPECT_EQ(log.mismatches.load(), 0) << what;
        EXPECT_EQ(static_cast<std::uint64_t>(log.compared.load()), r->total_ios) << what;
        EXPECT_GT(r->iops(), 0) << what;
      }
    }
  }
}

Result<BenchReport> RunOn(const std::string& path, const BenchOptions& o,
                          const ProgressFn& progress = nullptr) {
  SystemClock clock;
  DP_ASSIGN_OR_RETURN(auto dev, BlockDevice::Open(path));
  DeviceTarget t(std::move(dev), o.engine, clock);
  return RunReadTests(t, o, nullptr, progress);
}

BenchOptions RandomOptions(EngineKind engine, double seconds) {
  BenchOptions o;
  o.tests = {BenchTest::kRandom};
  o.seconds = seconds;
  o.idle_check_seconds = 0;
  o.engine = engine;
  return o;
}

// Reap(0) never waits, yet must hand back every read that has ended, or a
// caller polling it would spin for ever. A ring whose completions are posted
// only when its thread asks (deferred, uring_engine.h) must ask the kernel in
// a non-waiting reap too: without that this test fails for it (no read is
// ever handed back). Every engine, io_uring with a plain and a deferred ring.
TEST(EngineReapTest, ReapingWithoutWaitingCollectsEveryReadWithTheDevicesBytes) {
  REQUIRE_LOOP();
  auto filled = MakeFilledLoop(16ULL << 20);
  ASSERT_TRUE(filled.ok()) << filled.status().ToString();
  const BlockDevice& dev = *(*filled)->dev;
  const int plain = (*filled)->plain;
  SystemClock clock;
  constexpr std::uint32_t kDepth = 8;
  std::vector<std::pair<EngineKind, bool>> rings;
  for (EngineKind kind : Engines()) {
    rings.push_back({kind, false});
    if (kind == EngineKind::kUring) rings.push_back({kind, true});
  }
  for (const auto& [kind, deferred] : rings) {
    const std::string what =
        std::string(EngineKindName(kind)) + (deferred ? " (deferred completions)" : "");
    auto engine = MakeEngine(kind, dev, kDepth, clock, deferred);
    ASSERT_TRUE(engine.ok()) << what << ": " << engine.status().ToString();
    std::vector<AlignedBuffer> buffers;
    for (std::uint32_t i = 0; i < kDepth; ++i) {
      auto b = AlignedBuffer::Allocate(4096, 4096);
      ASSERT_TRUE(b.ok());
      ASSERT_TRUE((*engine)->Submit({i * (1ULL << 20) + 4096 * i, 4096, b->data(), i}).ok()) << what;
      buffers.push_back(std::move(*b));
    }
    std::vector<IoCompletion> done;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (done.size() < kDepth && std::chrono::steady_clock::now() < deadline) {
      auto n = (*engine)->Reap(0, std::chrono::nanoseconds(0), done);
      ASSERT_TRUE(n.ok()) << what << ": " << n.status().ToString();
    }
    ASSERT_EQ(done.size(), kDepth) << what << ": reads never handed back without waiting";
    EXPECT_EQ((*engine)->in_flight(), 0u) << what;
    for (const IoCompletion& c : done) {
      ASSERT_LT(c.tag, kDepth) << what;
      EXPECT_EQ(c.result, 4096) << what;
      const std::uint64_t off = c.tag * (1ULL << 20) + 4096 * c.tag;
      std::string want(4096, '\0');
      ASSERT_EQ(::pread(plain, want.data(), want.size(), static_cast<off_t>(off)), 4096);
      EXPECT_EQ(0, std::memcmp(buffers[c.tag].data(), want.data(), 4096)) << what << " tag " << c.tag;
    }
  }
}

TEST(UnwrittenRegionTest, SparseRegionOnFlashIsUnwrittenAndFilledOneIsNot) {
  REQUIRE_LOOP();
  constexpr std::uint64_t kSize = 64ULL << 20;
  auto sparse = LoopDevice::Create(kSize);
  ASSERT_TRUE(sparse.ok()) << sparse.status().ToString();
  auto filled = LoopDevice::Create(kSize);
  ASSERT_TRUE(filled.ok()) << filled.status().ToString();
  ASSERT_TRUE(Fill(**filled, kSize).ok());
  // Declared flash: the rule applies only to devices not known to rotate.
  auto sparse_flash = std::make_unique<QueueAttr>(**sparse, "rotational", 0);
  QueueAttr filled_flash(**filled, "rotational", 0);
  if (!sparse_flash->ok() || !filled_flash.ok())
    DP_SKIP_WITHOUT("loop queue attributes", "cannot mark the loop devices non-rotational");
  for (EngineKind kind : Engines()) {
    auto s = RunOn((*sparse)->path(), RandomOptions(kind, 3));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    ASSERT_EQ(s->results.size(), 2u);  // QD1 and QD32
    for (const BenchPoint& p : s->results) {
      EXPECT_TRUE(p.unwritten) << EngineKindName(kind) << " QD" << p.queue_depth;
      EXPECT_NE(p.unwritten_reason.find("only zeros"), std::string::npos) << p.unwritten_reason;
    }
    nlohmann::json j = BenchReportToJson(*s);
    EXPECT_EQ(j["results"][0]["unwritten"], true);
    EXPECT_TRUE(j["results"][0]["unwritten_reason"].is_string());
    EXPECT_NE(FormatBenchReport(*s).find("[unwritten: "), std::string::npos);

    auto f = RunOn((*filled)->path(), RandomOptions(kind, 1.5));
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    for (const BenchPoint& p : f->results) {
      EXPECT_FALSE(p.unwritten) << EngineKindName(kind) << ": " << p.unwritten_reason;
      EXPECT_TRUE(p.unwritten_reason.empty());
    }
    EXPECT_EQ(BenchReportToJson(*f)["results"][0]["unwritten"], false);
  }
  // A disk reads its platter whether written or not: never unwritten.
  sparse_flash.reset();
  QueueAttr disk(**sparse, "rotational", 1);
  ASSERT_TRUE(disk.ok());
  auto hdd = RunOn((*sparse)->path(), RandomOptions(EngineKind::kPread, 0.6));
  ASSERT_TRUE(hdd.ok());
  for (const BenchPoint& p : hdd->results) EXPECT_FALSE(p.unwritten);
}

// seq on flash whose front was never written (a young pool) reads from the
// first eighth that holds data, says so, and is then no unwritten result; a
// device written from the start, or a disk, reads from 0.
TEST(UnwrittenRegionTest, SeqOnFlashStartsWhereTheDeviceHoldsData) {
  REQUIRE_LOOP();
  constexpr std::uint64_t kSize = 64ULL << 20, kEighth = kSize / 8;
  auto loop = LoopDevice::Create(kSize);
  ASSERT_TRUE(loop.ok()) << loop.status().ToString();
  for (std::uint64_t off = 3 * kEighth; off < kSize; off += 8 << 20)
    ASSERT_TRUE((*loop)->WriteBacking(off, RandomBytes(8 << 20, off)).ok());
  auto flash = std::make_unique<QueueAttr>(**loop, "rotational", 0);
  if (!flash->ok())
    DP_SKIP_WITHOUT("loop queue attributes", "cannot mark the loop device non-rotational");
  for (EngineKind kind : Engines()) {
    BenchOptions o = RandomOptions(kind, 0.6);
    o.tests = {BenchTest::kSeq};
    auto r = RunOn((*loop)->path(), o);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ(r->results.size(), 1u);
    const BenchPoint& p = r->results[0];
    EXPECT_EQ(p.region_offset, 3 * kEighth) << EngineKindName(kind);
    EXPECT_FALSE(p.unwritten) << EngineKindName(kind) << ": " << p.unwritten_reason;
    EXPECT_EQ(BenchReportToJson(*r)["results"][0]["region_offset"], 3 * kEighth);
    EXPECT_NE(FormatBenchReport(*r).find("[from 24.0 MiB: the device's front held no data]"),
              std::string::npos)
        << FormatBenchReport(*r);
  }
  // Once the front holds data too, seq reads from 0 again.
  ASSERT_TRUE((*loop)->WriteBacking(0, RandomBytes(8 << 20, 0)).ok());
  ASSERT_TRUE((*loop)->WriteBacking(kEighth, RandomBytes(8 << 20, kEighth)).ok());
  BenchOptions o = RandomOptions(EngineKind::kPread, 0.6);
  o.tests = {BenchTest::kSeq};
  auto front = RunOn((*loop)->path(), o);
  ASSERT_TRUE(front.ok()) << front.status().ToString();
  EXPECT_EQ(front->results[0].region_offset, 0u);
  EXPECT_FALSE(BenchReportToJson(*front)["results"][0].contains("region_offset"));
  // A disk reads its platter whatever was written: never probed, from 0.
  auto empty = LoopDevice::Create(kSize);
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  QueueAttr disk(**empty, "rotational", 1);
  ASSERT_TRUE(disk.ok());
  auto hdd = RunOn((*empty)->path(), o);
  ASSERT_TRUE(hdd.ok()) << hdd.status().ToString();
  EXPECT_EQ(hdd->results[0].region_offset, 0u);
}

TEST(EngineReadOnlyTest, BothEnginesWithJobsLeaveTheWriteCountersAlone) {
  REQUIRE_LOOP();
  auto loop = LoopDevice::Create(64ULL << 20);
  ASSERT_TRUE(loop.ok()) << loop.status().ToString();
  auto before = (*loop)->Stat();
  ASSERT_TRUE(before.ok());
  for (EngineKind kind : Engines()) {
    for (std::uint32_t jobs : {1u, 2u}) {
      BenchOptions o = RandomOptions(kind, 0.6);
      o.tests = {BenchTest::kSeq, BenchTest::kRandom};
      o.jobs = jobs;
      auto r = RunOn((*loop)->path(), o);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      EXPECT_EQ(r->engine, EngineKindName(kind));
      for (const BenchPoint& p : r->results) EXPECT_EQ(p.jobs, jobs);
    }
  }
  auto after = (*loop)->Stat();
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->write_ios, before->write_ios);
  EXPECT_EQ(after->write_sectors, before->write_sectors);
  EXPECT_GT(after->read_sectors, before->read_sectors);
}

TEST(EngineBadInputTest, JobsOutOfRangeAreClearErrors) {
  EXPECT_EQ(*ParseJobs("auto"), kAutoJobs);
  EXPECT_EQ(*ParseJobs("8"), 8u);
  for (const char* bad : {"0", "10000", "65", "-1", "", "2x"}) {
    auto j = ParseJobs(bad);
    ASSERT_FALSE(j.ok()) << bad;
    EXPECT_NE(j.status().message().find("--jobs must be auto or a number from 1 to 64"),
              std::string::npos)
        << j.status().message();
  }
  BenchOptions o;
  o.jobs = 10000;
  EXPECT_FALSE(o.Validate().ok());
  auto bad = ParseConfig(R"({"bench": {"jobs": 0}})", "c.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("bench.jobs"), std::string::npos)
      << bad.status().message();
  EXPECT_FALSE(ParseConfig(R"({"bench": {"jobs": "many"}})", "c.json").ok());
  auto good = ParseConfig(R"({"bench": {"jobs": "auto"}})", "c.json");
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EXPECT_EQ(BenchOptionsFromConfig(good->bench).jobs, kAutoJobs);
  auto four = ParseConfig(R"({"bench": {"jobs": 4}})", "c.json");
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(BenchOptionsFromConfig(four->bench).jobs, 4u);
}

TEST(EngineBadInputTest, QueueDepthAboveTheDevicesLimitIsClampedAndStated) {
  REQUIRE_LOOP();
  auto loop = LoopDevice::Create(64ULL << 20);
  ASSERT_TRUE(loop.ok()) << loop.status().ToString();
  QueueAttr small_queue(**loop, "nr_requests", 16);
  auto dev = BlockDevice::Open((*loop)->path());
  ASSERT_TRUE(dev.ok());
  ASSERT_TRUE((*dev)->info().max_queue_depth.has_value());
  const std::uint32_t limit = *(*dev)->info().max_queue_depth;
  if (limit >= 256)
    DP_SKIP_WITHOUT("loop queue attributes", "nr_requests 16 did not take: the device's limit "
                                                 << limit << " is not below --qd's 256");
  BenchOptions o = RandomOptions(EngineKind::kAuto, 0.6);
  o.queue_depth = 256;
  auto r = RunOn((*loop)->path(), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->results.size(), 1u);
  EXPECT_EQ(r->results[0].queue_depth, limit);
  EXPECT_EQ(r->results[0].queue_depth_requested, 256u);
  EXPECT_EQ(BenchReportToJson(*r)["results"][0]["queue_depth_requested"], 256);
  EXPECT_NE(FormatBenchReport(*r).find("clamped to the device's limit"), std::string::npos);
}

TEST(EngineBadInputTest, DeviceShrinkingUnderSeveralJobsEndsPartialWithTheReason) {
  REQUIRE_LOOP();
  auto loop = LoopDevice::Create(256ULL << 20);
  ASSERT_TRUE(loop.ok()) << loop.status().ToString();
  BenchOptions o = RandomOptions(EngineKind::kAuto, 3);
  o.tests = {BenchTest::kSeq};
  o.jobs = 3;
  bool shrunk = false;
  auto r = RunOn((*loop)->path(), o, [&](double f) {
    if (!shrunk && f > 0.1) {
      shrunk = true;
      ASSERT_TRUE((*loop)->Shrink(1 << 20).ok());
    }
  });
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(shrunk);
  EXPECT_TRUE(r->partial);
  EXPECT_TRUE(r->error.find("device shrank or went away") != std::string::npos ||
              r->error.find("Input/output error") != std::string::npos)
      << r->error;
  ASSERT_EQ(r->results.size(), 1u);
  EXPECT_TRUE(r->results[0].partial);
}

}  // namespace
}  // namespace dp
