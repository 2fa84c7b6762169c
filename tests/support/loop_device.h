// LoopDevice: a loop block device over a sparse file, for end-to-end tests of
// code that reads real devices (RAII: attached by Create, detached and its
// backing file removed by the destructor — also when a test fails).
// Needs root, losetup and /dev/loop-control: Unavailable() says why not, so
// tests can skip with a reason (DP_SKIP_WITHOUT). Not thread-safe; one owner.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "base/result.h"

namespace dp::testing {

// The kernel's counters from /sys/block/<name>/stat (Documentation/block/stat.rst).
struct BlockStat {
  std::uint64_t read_ios = 0, read_merges = 0, read_sectors = 0, read_ticks = 0;
  std::uint64_t write_ios = 0, write_merges = 0, write_sectors = 0, write_ticks = 0;
  std::uint64_t in_flight = 0, io_ticks = 0, time_in_queue = 0;
};

class LoopDevice {
 public:
  // "" when loop devices can be used here, else the reason to skip.
  static std::string Unavailable();

  // A directory on a file system that supports O_DIRECT (tmpfs does not):
  // $DP_TEST_DIRECT_DIR, $TMPDIR, /var/tmp, /tmp — the first that works.
  static std::string DirectIoDir();

  // Creates a sparse file of `size_bytes` in `dir` ("" = DirectIoDir()) and
  // attaches it with `losetup --find --show` (`--direct-io=on` when asked).
  static Result<std::unique_ptr<LoopDevice>> Create(std::uint64_t size_bytes, bool direct_io = true,
                                                    const std::string& dir = "");
  // The same, attached at a free loop number of 200 and above, which
  // `losetup --find` (the lowest free) does not hand to a test running beside
  // it: for a test that detaches its device and must not see the name come
  // back as another test's drive.
  static Result<std::unique_ptr<LoopDevice>> CreateApart(std::uint64_t size_bytes);
  ~LoopDevice();
  LoopDevice(const LoopDevice&) = delete;
  LoopDevice& operator=(const LoopDevice&) = delete;

  const std::string& path() const { return path_; }  // /dev/loopN
  const std::string& backing_file() const { return file_; }
  std::string name() const;  // loopN
  std::uint32_t major() const { return major_; }
  std::uint32_t minor() const { return minor_; }
  std::string MajMin() const;  // "7:3"

  Result<BlockStat> Stat() const;
  // Writes `data` into the backing file at `offset` (not through the device).
  Status WriteBacking(std::uint64_t offset, const std::string& data) const;
  // Truncates the backing file and tells the loop driver (losetup -c): reads
  // past the new end then come back empty, like a device that went away.
  Status Shrink(std::uint64_t new_size) const;
  // Detaches now (losetup -d); the destructor then only removes the file.
  Status Detach();

 private:
  LoopDevice() = default;
  // Attaches at `at` (/dev/loopN), or at the lowest free number when "".
  static Result<std::unique_ptr<LoopDevice>> Attach(std::uint64_t size_bytes, bool direct_io,
                                                    const std::string& dir, const std::string& at);
  std::string path_, file_;
  std::uint32_t major_ = 0, minor_ = 0;
  bool attached_ = false;
};

}  // namespace dp::testing
