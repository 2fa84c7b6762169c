// ForeignLoad: someone else's I/O on a device, for tests of the contention
// guard — fio (installed by scripts/setup.sh) run as a child process in one
// of a few shapes, until stopped. RAII: the destructor stops fio (SIGTERM,
// then SIGKILL) and reaps it, also when a test fails. Unavailable() says why
// fio cannot run here, for DP_SKIP_WITHOUT. Writes only in the kWrites shape,
// and only on the device named (give it a test's own loop device).
// WaitForCounters() blocks until the device's counters move — fio is doing
// I/O — so a measurement started after it overlaps the load.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"

namespace dp::testing {

enum class LoadShape {
  kSeq1M,         // sequential 1 MiB reads, queue depth 1
  kRandom4KQd32,  // random 4 KiB reads, queue depth 32
  kRandom64KQd4,  // random 64 KiB reads, queue depth 4
  kWrites,        // random 4 KiB writes, queue depth 1
};

const char* LoadShapeName(LoadShape s);
std::vector<LoadShape> AllLoadShapes();

class ForeignLoad {
 public:
  static std::string Unavailable();  // "" when fio runs here

  // Starts fio on `device` (a /dev node) in `shape`, direct I/O, for at most
  // `limit` (fio's own runtime: it ends by itself even if this process dies).
  // `rate_iops` > 0 caps its rate (requests per second).
  static Result<std::unique_ptr<ForeignLoad>> Start(const std::string& device, LoadShape shape,
                                                    std::uint64_t rate_iops = 0,
                                                    std::chrono::seconds limit = std::chrono::seconds(120));
  ~ForeignLoad();
  ForeignLoad(const ForeignLoad&) = delete;
  ForeignLoad& operator=(const ForeignLoad&) = delete;

  pid_t pid() const { return pid_; }
  // True once the counters of `stats_key` ("MAJ:MIN") grew by I/O of this
  // load's direction (reads, or writes for kWrites) within `timeout`.
  bool WaitForCounters(const std::string& stats_key,
                       std::chrono::milliseconds timeout = std::chrono::seconds(15));
  // Stops fio now (the destructor then has nothing to do).
  void Stop();

 private:
  ForeignLoad() = default;
  pid_t pid_ = -1;
  LoadShape shape_ = LoadShape::kSeq1M;
};

}  // namespace dp::testing
