// The contention guard's accounting against a modelled kernel: reads split
// per buffer (as max_segments splits a buffer of scattered pages), merges,
// foreign I/O in the probe windows; and the guard's arithmetic itself.
#include "bench/own_io_meter.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <set>

#include "bench/device_counters.h"

namespace dp {
namespace {

// The kernel's counters for one device, and an engine whose reads land on it:
// a read into buffer B counts split[B] requests (1 when not set), a read of a
// registered (fixed) buffer fixed_split[B] (its pages pinned once, so split
// differently; 1 when not set).
struct ModelKernel {
  DeviceCounters counters;
  std::map<const std::byte*, std::uint64_t> split;
  std::map<const std::byte*, std::uint64_t> fixed_split;
  bool registrable = false;   // the engine takes RegisterBuffers
  bool returns_data = true;
  // Foreign I/O added on every Reap while > 0 (then decremented).
  int foreign_reads_per_reap = 0;
  int reaps_with_foreign = 0;

  void Read(const std::byte* buffer, std::uint32_t length, bool fixed) {
    const auto& splits = fixed ? fixed_split : split;
    auto it = splits.find(buffer);
    counters.read_ios += it == splits.end() ? 1 : it->second;
    counters.read_bytes += length;
  }
};

class ModelEngine final : public IoEngine {
 public:
  ModelEngine(ModelKernel& k, std::uint32_t qd) : k_(k), qd_(qd) {}
  std::string_view name() const override { return "model"; }
  bool returns_data() const override { return k_.returns_data; }
  std::uint32_t queue_depth() const override { return qd_; }
  bool RegisterBuffers(const std::vector<std::byte*>& buffers, std::uint32_t) override {
    registered_ = k_.registrable ? buffers : std::vector<std::byte*>{};
    return k_.registrable && !buffers.empty();
  }
  Status Submit(const IoRequest& r) override {
    if (queued_.size() >= qd_) return ResourceExhausted("full");
    if (r.buffer_index >= 0 &&
        (static_cast<std::size_t>(r.buffer_index) >= registered_.size() ||
         registered_[static_cast<std::size_t>(r.buffer_index)] != r.buffer))
      return InvalidArgument("buffer_index is not that registered buffer");
    queued_.push_back(r);
    return Status::Ok();
  }
  Result<std::size_t> Reap(std::size_t min_complete, std::chrono::nanoseconds,
                           std::vector<IoCompletion>& out) override {
    if (k_.reaps_with_foreign > 0) {
      --k_.reaps_with_foreign;
      for (int i = 0; i < k_.foreign_reads_per_reap; ++i) {
        k_.counters.read_ios += 1;
        k_.counters.read_bytes += 4096;
      }
    }
    std::size_t n = 0;
    // Completes everything queued (a fast device); min_complete is met.
    (void)min_complete;
    while (!queued_.empty()) {
      IoRequest r = queued_.front();
      queued_.pop_front();
      k_.Read(r.buffer, r.length, r.buffer_index >= 0);
      out.push_back({r.tag, r.length, std::chrono::microseconds(100)});
      ++n;
    }
    return n;
  }
  std::uint32_t in_flight() const override { return static_cast<std::uint32_t>(queued_.size()); }
  std::uint32_t max_concurrency_seen() const override { return qd_; }

 private:
  ModelKernel& k_;
  std::uint32_t qd_;
  std::deque<IoRequest> queued_;
  std::vector<std::byte*> registered_;
};

DeviceCounters LoopLimits() {
  DeviceCounters l;
  l.max_request_bytes = 1280 * 1024;
  l.unsplit_bytes = 512 * 1024;  // 128 segments of a page
  return l;
}

struct Rig {
  ModelKernel kernel;
  std::unique_ptr<OwnIoMeter> meter;
  Rig(std::uint32_t qd, const DeviceCounters& limits = LoopLimits()) {
    meter = std::make_unique<OwnIoMeter>(std::make_unique<ModelEngine>(kernel, qd),
                                         [this] { return std::optional(kernel.counters); }, limits);
  }
};

// Runs `reads` reads of `length` cycling over `buffers` with up to
// buffers.size() in flight, like RunWorkload; returns the tags reaped.
// `fixed`: the reads name their registered buffer (buffer_index = slot).
std::multiset<std::uint64_t> Drive(OwnIoMeter& m, std::vector<std::byte*> buffers,
                                   std::uint32_t length, int reads, bool fixed = false) {
  std::multiset<std::uint64_t> seen;
  std::vector<std::uint64_t> free_slots;
  for (std::uint64_t i = 0; i < buffers.size(); ++i) free_slots.push_back(i);
  int submitted = 0;
  std::uint64_t offset = 0;
  while (true) {
    while (submitted < reads && !free_slots.empty()) {
      std::uint64_t slot = free_slots.back();
      free_slots.pop_back();
      IoRequest r{offset, length, buffers[slot], slot};
      if (fixed) r.buffer_index = static_cast<std::int32_t>(slot);
      EXPECT_TRUE(m.Submit(r).ok());
      offset += length;
      ++submitted;
    }
    if (m.in_flight() == 0) break;
    std::vector<IoCompletion> done;
    auto n = m.Reap(1, std::chrono::milliseconds(100), done);
    EXPECT_TRUE(n.ok());
    EXPECT_EQ(*n, done.size());
    for (const auto& c : done) {
      seen.insert(c.tag);
      free_slots.push_back(c.tag);
    }
  }
  return seen;
}

std::byte* Buffer(int i) { return reinterpret_cast<std::byte*>(0x100000 * (i + 1)); }

TEST(OwnIoMeterTest, CountsSplitReadsPerBufferAsTheKernelDoes) {
  Rig rig(3);
  // Three 1 MiB buffers: contiguous, scattered, scattered (1, 2, 2 requests).
  rig.kernel.split = {{Buffer(0), 1}, {Buffer(1), 2}, {Buffer(2), 2}};
  const DeviceCounters before = rig.kernel.counters;
  auto tags = Drive(*rig.meter, {Buffer(0), Buffer(1), Buffer(2)}, 1 << 20, 30);
  EXPECT_EQ(tags.size(), 30u);  // every read handed back once
  for (std::uint64_t t : {0, 1, 2}) EXPECT_EQ(tags.count(t), 10u);
  const OwnIo& own = rig.meter->own();
  EXPECT_EQ(own.bytes, rig.kernel.counters.read_bytes - before.read_bytes);
  EXPECT_EQ(own.requests, rig.kernel.counters.read_ios - before.read_ios);
  EXPECT_EQ(own.reads, 30u + 3);  // three calibration reads
  EXPECT_EQ(rig.meter->calibrated(), 3);
  EXPECT_EQ(rig.meter->fell_back(), 0);
  // Hence no foreign I/O on an idle device — where the worst case (2 per
  // read) would have claimed 1 MiB reads as ours that never happened.
  ForeignIo f = EstimateForeignIo(before, rig.kernel.counters, own);
  EXPECT_EQ(f.ios, 0u);
  EXPECT_EQ(f.bytes, 0u);
  EXPECT_EQ(f.share, 0);
}

// The io_uring engine registers the runner's buffers and reads into them as
// fixed buffers, which the kernel splits differently from plain reads into
// the same memory: the calibration read must be the same kind of read (a plain
// one measured 3.9% fewer requests than the kernel counted on an idle loop
// device, and seq points read as 19% foreign).
TEST(OwnIoMeterTest, RegisteredBuffersAreCalibratedWithFixedReads) {
  Rig rig(2);
  rig.kernel.registrable = true;
  rig.kernel.split = {{Buffer(0), 2}, {Buffer(1), 2}};        // plain: scattered pages
  rig.kernel.fixed_split = {{Buffer(0), 1}, {Buffer(1), 3}};  // fixed: as pinned
  ASSERT_TRUE(rig.meter->RegisterBuffers({Buffer(0), Buffer(1)}, 1 << 20));
  const DeviceCounters before = rig.kernel.counters;
  auto tags = Drive(*rig.meter, {Buffer(0), Buffer(1)}, 1 << 20, 20, /*fixed=*/true);
  EXPECT_EQ(tags.size(), 20u);
  EXPECT_EQ(rig.meter->calibrated(), 2);
  EXPECT_EQ(rig.meter->own().requests, rig.kernel.counters.read_ios - before.read_ios);
  EXPECT_EQ(EstimateForeignIo(before, rig.kernel.counters, rig.meter->own()).share, 0);
  EXPECT_FALSE(rig.meter->RegisterBuffers({}, 0));  // unregistering passes through
}

// The meter is the engine for the runner: what it says of the engine's data
// (a modelled drive returns none, so the unwritten-region check must skip it)
// is the engine's.
TEST(OwnIoMeterTest, SaysWhatTheEngineSaysOfItsData) {
  Rig rig(1);
  EXPECT_TRUE(rig.meter->returns_data());
  rig.kernel.returns_data = false;
  EXPECT_FALSE(rig.meter->returns_data());
  EXPECT_FALSE(rig.meter->RegisterBuffers({Buffer(0)}, 4096));  // engine without registration
}

TEST(OwnIoMeterTest, ForeignReadsBesideOursAreSeenExactly) {
  Rig rig(2);
  rig.kernel.split = {{Buffer(0), 1}, {Buffer(1), 1}};  // contiguous buffers
  const DeviceCounters before = rig.kernel.counters;
  Drive(*rig.meter, {Buffer(0), Buffer(1)}, 1 << 20, 4);  // calibrated on a quiet device
  // Then a small foreign reader: 1 request per read of ours.
  rig.kernel.reaps_with_foreign = 1000;
  rig.kernel.foreign_reads_per_reap = 1;
  Drive(*rig.meter, {Buffer(0), Buffer(1)}, 1 << 20, 20);
  ForeignIo f = EstimateForeignIo(before, rig.kernel.counters, rig.meter->own());
  std::uint64_t reaps = 1000 - static_cast<std::uint64_t>(rig.kernel.reaps_with_foreign);
  EXPECT_EQ(f.ios, reaps);
  EXPECT_EQ(f.bytes, reaps * 4096);
  // By requests, about a third of the device's I/O: contended. The worst
  // case for our reads (2 requests each) would have left none foreign.
  EXPECT_GT(f.share, 0.25);
}

// Requests the kernel counted beyond ours with no bytes beyond ours are our
// own reads split more than their buffer's calibration said (its pages moved
// since): no foreign I/O. Seen on an idle loop device in a full test run, a
// seq point of 1 MiB reads then read as 6% foreign and contended. A foreign
// read carries at least one sector, so real small foreign reads still count.
TEST(ForeignIoTest, OurOwnReadsSplitMoreThanCalibratedAreNotForeign) {
  DeviceCounters before, after;
  const OwnIo own{100, 100ull << 20, 100};
  after.read_bytes = 100ull << 20;
  after.read_ios = 106;
  ForeignIo f = EstimateForeignIo(before, after, own);
  EXPECT_EQ(f.ios, 0u);
  EXPECT_EQ(f.share, 0);
  EXPECT_FALSE(f.Contends(0.05));
  // Two 4 KiB foreign reads beside those splits: at most 16 sectors' worth
  // of requests are theirs, here all 6 the kernel counted beyond ours.
  after.read_bytes += 8192;
  f = EstimateForeignIo(before, after, own);
  EXPECT_EQ(f.bytes, 8192u);
  EXPECT_EQ(f.ios, 6u);
  // One foreign sector is one request at most.
  after.read_bytes = (100ull << 20) + 512;
  EXPECT_EQ(EstimateForeignIo(before, after, own).ios, 1u);
  // A small random reader as heavy as in the guard's tests (4 KiB reads,
  // one per request) keeps every request it made.
  after.read_ios = 100 + 400;
  after.read_bytes = (100ull << 20) + 400 * 4096;
  f = EstimateForeignIo(before, after, own);
  EXPECT_EQ(f.ios, 400u);
  EXPECT_NEAR(f.share, 0.8, 1e-9);
}

// A stray request or two (udev's probe, an identify read) in a point of a
// dozen reads is a large share but no contention; three, or one large read,
// is.
TEST(ForeignIoTest, AStrayRequestInATinyPointIsNoContention) {
  DeviceCounters before, after;
  OwnIo own{15, 15 * 4096, 15};
  after.read_ios = 16;
  after.read_bytes = 16 * 4096;
  ForeignIo one = EstimateForeignIo(before, after, own);
  EXPECT_EQ(one.ios, 1u);
  EXPECT_NEAR(one.share, 1.0 / 16, 1e-9);
  EXPECT_FALSE(one.Contends(0.05));
  after.read_ios = 17;
  after.read_bytes = 17 * 4096;
  EXPECT_FALSE(EstimateForeignIo(before, after, own).Contends(0.05));
  after.read_ios = 18;
  after.read_bytes = 18 * 4096;
  ForeignIo three = EstimateForeignIo(before, after, own);
  EXPECT_EQ(three.ios, 3u);
  EXPECT_TRUE(three.Contends(0.05));
  EXPECT_FALSE(three.Contends(0.5));  // the threshold still rules
  after.read_ios = 16;
  after.read_bytes = 15 * 4096 + (1 << 20);  // one 1 MiB read of someone else's
  EXPECT_TRUE(EstimateForeignIo(before, after, own).Contends(0.05));
  after.write_ios = 1;  // a write is foreign too, and counts toward the stray floor
  after.read_bytes = 15 * 4096 + 4096;
  after.write_bytes = 4096;
  ForeignIo mixed = EstimateForeignIo(before, after, own);
  EXPECT_EQ(mixed.ios, 2u);
  EXPECT_FALSE(mixed.Contends(0.05));
}

TEST(OwnIoMeterTest, ReadsThatCannotSplitAreNotProbed) {
  Rig rig(4);
  const DeviceCounters before = rig.kernel.counters;
  Drive(*rig.meter, {Buffer(0), Buffer(1), Buffer(2), Buffer(3)}, 4096, 40);
  Drive(*rig.meter, {Buffer(0), Buffer(1)}, 512 * 1024, 10);  // 128 pages: one request
  EXPECT_EQ(rig.meter->own().reads, 50u);
  EXPECT_EQ(rig.meter->own().requests, rig.kernel.counters.read_ios - before.read_ios);
  EXPECT_EQ(rig.meter->calibrated() + rig.meter->fell_back(), 0);
}

TEST(OwnIoMeterTest, BusyProbeWindowsStillBoundOursFromAbove) {
  Rig rig(2);
  rig.kernel.split = {{Buffer(0), 1}, {Buffer(1), 1}};
  rig.kernel.reaps_with_foreign = 1 << 20;  // a foreign 4K read in every window
  rig.kernel.foreign_reads_per_reap = 1;
  auto tags = Drive(*rig.meter, {Buffer(0), Buffer(1)}, 1 << 20, 6);
  EXPECT_EQ(tags.size(), 6u);
  EXPECT_EQ(rig.meter->fell_back(), 2);
  EXPECT_EQ(rig.meter->calibrated(), 0);
  // 4 probes per buffer; each window grew by ours + 1 foreign request, so
  // the bound is ours exactly (the worst case would be 2 per read).
  EXPECT_EQ(rig.meter->own().reads, 6u + 8);
  EXPECT_EQ(rig.meter->own().requests, 6u + 8);

  // Two foreign reads per window: the bound is one over, capped at the worst case.
  Rig busier(1);
  busier.kernel.reaps_with_foreign = 1 << 20;
  busier.kernel.foreign_reads_per_reap = 2;
  Drive(*busier.meter, {Buffer(0)}, 1 << 20, 3);
  EXPECT_EQ(busier.meter->own().requests, (3u + 4) * 2);
}

TEST(OwnIoMeterTest, UnknownLimitsStillCalibrate) {
  Rig rig(1, DeviceCounters{});
  rig.kernel.split = {{Buffer(0), 3}};
  const DeviceCounters before = rig.kernel.counters;
  Drive(*rig.meter, {Buffer(0)}, 256 * 1024, 5);
  EXPECT_EQ(rig.meter->calibrated(), 1);
  EXPECT_EQ(rig.meter->own().requests, rig.kernel.counters.read_ios - before.read_ios);
}

TEST(DeviceCountersTest, ForeignIoCountsMergesAndWritesAndClamps) {
  DeviceCounters a, b;
  b.read_ios = 90;
  b.read_merges = 10;  // merged bios: still I/Os
  b.read_bytes = 100ULL << 20;
  b.write_ios = 5;
  b.write_bytes = 5 * 4096;
  OwnIo own{80, 80ULL << 20, 80};
  ForeignIo f = EstimateForeignIo(a, b, own);
  EXPECT_EQ(f.bytes, (20ULL << 20) + 5 * 4096);
  EXPECT_EQ(f.ios, 20u + 5);
  EXPECT_EQ(f.device_bytes, (100ULL << 20) + 5 * 4096);
  EXPECT_EQ(f.device_ios, 105u);
  EXPECT_DOUBLE_EQ(f.share, 25.0 / 105.0);
  // Counters that went backwards (a device re-created) give no foreign I/O.
  ForeignIo back = EstimateForeignIo(b, a, own);
  EXPECT_EQ(back.bytes, 0u);
  EXPECT_EQ(back.ios, 0u);
  EXPECT_EQ(back.share, 0);
  // More of ours than the device saw (it vanished mid-point): not foreign.
  ForeignIo under = EstimateForeignIo(a, b, OwnIo{200, 200ULL << 20, 200});
  EXPECT_EQ(under.share, 5.0 / 205.0);
}

TEST(DeviceCountersTest, BusyShareFromBusyTimeElseRequests) {
  DeviceCounters a, b;
  a.busy_ms = 1000;
  b.busy_ms = 1150;
  EXPECT_DOUBLE_EQ(BusyShare(a, b, 0.5), 0.3);
  b.busy_ms = 99999;
  EXPECT_EQ(BusyShare(a, b, 0.5), 1.0);
  DeviceCounters c, d;  // no busy time kept: ~100 requests a second is busy
  d.read_ios = 10;
  d.write_ios = 10;
  EXPECT_DOUBLE_EQ(BusyShare(c, d, 1.0), 0.2);
  EXPECT_EQ(BusyShare(c, d, 0), 0);
}

}  // namespace
}  // namespace dp
