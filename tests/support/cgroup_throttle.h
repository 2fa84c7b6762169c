// CgroupThrottle: a cgroup v1 blkio cgroup that slows a device down in the
// kernel (blkio.throttle.read_bps_device / read_iops_device / write_*), for
// tests that need a device of known speed. RAII: Create makes
// /sys/fs/cgroup/blkio/diskpulse-test-<pid>-<n>; the destructor moves every
// process still inside back where it came from, clears the limits and removes
// the cgroup — also when a test fails. Unavailable() says why it cannot work
// here (not root, no cgroup v1 blkio), for GTEST_SKIP(). One owner; not thread-safe.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "base/result.h"

namespace dp::testing {

class CgroupThrottle {
 public:
  static constexpr const char* kBlkioRoot = "/sys/fs/cgroup/blkio";

  static std::string Unavailable();
  // Also removes empty cgroups left by earlier test processes that died.
  static Result<std::unique_ptr<CgroupThrottle>> Create();
  ~CgroupThrottle();
  CgroupThrottle(const CgroupThrottle&) = delete;
  CgroupThrottle& operator=(const CgroupThrottle&) = delete;

  const std::string& path() const { return path_; }

  // Limits for device MAJ:MIN; 0 removes the limit.
  Status SetReadBps(std::uint32_t major, std::uint32_t minor, std::uint64_t bytes_per_second);
  Status SetReadIops(std::uint32_t major, std::uint32_t minor, std::uint64_t ios_per_second);
  Status SetWriteBps(std::uint32_t major, std::uint32_t minor, std::uint64_t bytes_per_second);
  Status SetWriteIops(std::uint32_t major, std::uint32_t minor, std::uint64_t ios_per_second);

  // Moves a whole process (all its threads) in; remembers where it was.
  Status AddProcess(pid_t pid);
  // Moves it back to where it was before AddProcess.
  Status RemoveProcess(pid_t pid);

 private:
  CgroupThrottle() = default;
  Status SetLimit(const char* file, std::uint32_t major, std::uint32_t minor, std::uint64_t value);

  std::string path_;
  std::map<pid_t, std::string> origin_;        // pid -> the cgroup folder it came from
  std::map<std::string, std::string> limits_;  // file -> "MAJ:MIN" set (cleared on teardown)
};

}  // namespace dp::testing
