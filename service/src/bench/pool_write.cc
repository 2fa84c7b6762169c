#include "bench/pool_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "bench/latency_histogram.h"

namespace dp {

const char kScratchPrefix[] = ".diskpulse-scratch-";

namespace {

// The scratch file: created exclusively, removed by the destructor whatever
// happened. The one writable descriptor diskpulse ever opens.
class ScratchFile {
 public:
  ~ScratchFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  Status Create(const std::string& dir, std::uint64_t seed) {
    for (int attempt = 0; attempt < 16; ++attempt) {
      std::string p = dir + "/" + kScratchPrefix + std::to_string(::getpid()) + "-" +
                      std::to_string((seed + static_cast<std::uint64_t>(attempt)) % 1000000);
      int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
      if (fd >= 0) {
        fd_ = fd;
        path_ = p;
        return Status::Ok();
      }
      if (errno != EEXIST) return ErrnoStatus(errno, p + ": cannot create the scratch file");
    }
    return AlreadyExists(dir + ": cannot find a free scratch file name");
  }
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

std::uint64_t SplitMix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Status WriteAll(int fd, const std::byte* data, std::size_t len, std::uint64_t offset) {
  std::size_t done = 0;
  while (done < len) {
    ssize_t n = ::pwrite(fd, data + done, len - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus(errno, "write at " + std::to_string(offset + done));
    done += static_cast<std::size_t>(n);
  }
  return Status::Ok();
}

Status Fsync(int fd) {
  while (::fsync(fd) != 0) {
    if (errno != EINTR) return ErrnoStatus(errno, "fsync");
  }
  return Status::Ok();
}

double Seconds(MonoTime a, MonoTime b) { return std::chrono::duration<double>(b - a).count(); }

BenchPoint MakePoint(const char* variant, std::uint32_t bs, std::uint64_t bytes, std::uint64_t ios,
                     double seconds, const LatencyHistogram& h) {
  BenchPoint p;
  p.test = "pool-write";
  p.variant = variant;
  p.block_size = bs;
  p.queue_depth = 1;
  p.bytes = bytes;
  p.seconds = seconds;
  p.mb_per_s = seconds > 0 ? bytes / seconds / 1e6 : 0;
  p.iops = seconds > 0 ? ios / seconds : 0;
  if (h.count()) {
    p.latency = h.Summary();
    p.histogram = h.Encode();
  }
  return p;
}

}  // namespace

Status CheckPoolWriteTarget(const std::string& dir, std::uint64_t planned_bytes,
                            double min_free_percent) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return ErrnoStatus(errno, dir);
  if (!S_ISDIR(st.st_mode))
    return InvalidArgument(dir +
                           ": not a directory; pool-write writes a scratch file in a "
                           "directory of a pool dataset, never to a device or file");
  if (::access(dir.c_str(), W_OK) != 0) return ErrnoStatus(errno, dir);
  struct statvfs vfs {};
  if (::statvfs(dir.c_str(), &vfs) != 0) return ErrnoStatus(errno, dir);
  const double total = static_cast<double>(vfs.f_blocks) * vfs.f_frsize;
  const double avail = static_cast<double>(vfs.f_bavail) * vfs.f_frsize;
  const double after = avail - static_cast<double>(planned_bytes);
  const double pct_after = total > 0 ? 100.0 * after / total : 0;
  if (after < 0 || pct_after < min_free_percent) {
    char msg[256];
    std::snprintf(msg, sizeof msg,
                  ": writing %.0f MB would leave %.1f%% free, below the %.1f%% margin "
                  "(bench.min_free_percent)",
                  planned_bytes / 1e6, std::max(0.0, pct_after), min_free_percent);
    return ResourceExhausted(dir + msg);
  }
  return Status::Ok();
}

Result<BenchReport> RunPoolWrite(const std::string& dir, const PoolWriteOptions& o,
                                 const Clock& clock, const std::atomic<bool>* cancel,
                                 const ProgressFn& progress) {
  if (!(o.seconds > 0) || o.block_size == 0 || o.sync_block_size == 0 || o.max_bytes < o.block_size)
    return InvalidArgument("pool-write: bad options");
  const std::uint64_t planned = o.max_bytes + o.sync_block_size * 256ULL;
  DP_RETURN_IF_ERROR(CheckPoolWriteTarget(dir, planned, o.min_free_percent));

  BenchReport report;
  report.target = dir;
  report.engine = "pwrite";
  struct statvfs vfs {};
  if (::statvfs(dir.c_str(), &vfs) == 0) {
    report.device.size_bytes = static_cast<std::uint64_t>(vfs.f_blocks) * vfs.f_frsize;
    report.device.logical_block_size = static_cast<std::uint32_t>(vfs.f_frsize);
    report.device.physical_block_size = static_cast<std::uint32_t>(vfs.f_bsize);
  }

  // Incompressible data: an 8 MiB pseudo-random pool; each write takes a
  // different window and stamps its sequence number, so no two blocks match
  // (nothing for compression or dedup to shrink).
  const std::size_t pool_size = std::max<std::size_t>(8u << 20, 2 * o.block_size);
  std::vector<std::byte> pool(pool_size);
  std::uint64_t state = o.seed;
  for (std::size_t i = 0; i + 8 <= pool.size(); i += 8) {
    std::uint64_t v = SplitMix64(state);
    std::memcpy(&pool[i], &v, 8);
  }

  ScratchFile scratch;
  DP_RETURN_IF_ERROR(scratch.Create(dir, o.seed ^ static_cast<std::uint64_t>(::getpid())));
  auto cancelled = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
  auto fail = [&](const Status& s, BenchPoint p) {
    p.partial = true;
    report.results.push_back(std::move(p));
    report.partial = true;
    report.error = s.ToString();
    return report;
  };

  // Phase 1: stream.
  const double stream_budget = o.seconds * 2 / 3;
  LatencyHistogram h;
  std::uint64_t bytes = 0, writes = 0;
  const MonoTime t0 = clock.Monotonic();
  Status err;
  while (bytes + o.block_size <= o.max_bytes && Seconds(t0, clock.Monotonic()) < stream_budget) {
    if (cancelled()) {
      err = Cancelled("cancelled");
      break;
    }
    std::size_t window = (writes * 7919 * 4096) % (pool.size() - o.block_size);
    std::memcpy(&pool[window], &writes, sizeof writes);
    MonoTime a = clock.Monotonic();
    err = WriteAll(scratch.fd(), &pool[window], o.block_size, bytes);
    if (!err.ok()) break;
    h.Record(static_cast<std::uint64_t>(std::chrono::nanoseconds(clock.Monotonic() - a).count()));
    bytes += o.block_size;
    ++writes;
    if (progress && writes % 16 == 0)
      progress(0.66 * std::min(1.0, std::max(Seconds(t0, clock.Monotonic()) / stream_budget,
                                             static_cast<double>(bytes) / o.max_bytes)));
  }
  if (err.ok()) err = Fsync(scratch.fd());
  const double stream_s = Seconds(t0, clock.Monotonic());
  BenchPoint stream = MakePoint("stream", o.block_size, bytes, writes, stream_s, h);
  if (!err.ok()) return fail(err.WithContext(scratch.path()), std::move(stream));
  report.results.push_back(std::move(stream));

  // Phase 2: one write, then fsync; over and over.
  const double sync_budget = o.seconds - stream_budget;
  h.Clear();
  std::uint64_t cycles = 0;
  const MonoTime t1 = clock.Monotonic();
  while (cycles < o.max_sync_writes && Seconds(t1, clock.Monotonic()) < sync_budget) {
    if (cancelled()) {
      err = Cancelled("cancelled");
      break;
    }
    std::size_t window = (cycles * 4093 * 8) % (pool.size() - o.sync_block_size);
    std::memcpy(&pool[window], &cycles, sizeof cycles);
    MonoTime a = clock.Monotonic();
    err = WriteAll(scratch.fd(), &pool[window], o.sync_block_size,
                   (cycles % 256) * o.sync_block_size);
    if (err.ok()) err = Fsync(scratch.fd());
    if (!err.ok()) break;
    h.Record(static_cast<std::uint64_t>(std::chrono::nanoseconds(clock.Monotonic() - a).count()));
    ++cycles;
    if (progress && cycles % 16 == 0)
      progress(0.66 + 0.34 * std::min(1.0, Seconds(t1, clock.Monotonic()) / sync_budget));
  }
  BenchPoint sync = MakePoint("fsync", o.sync_block_size, cycles * o.sync_block_size, cycles,
                              Seconds(t1, clock.Monotonic()), h);
  if (!err.ok()) return fail(err.WithContext(scratch.path()), std::move(sync));
  report.results.push_back(std::move(sync));
  if (progress) progress(1);
  return report;
}

}  // namespace dp
