// SampleZfsLatency: ZFS's own view of every pool member between diskpulse's
// tests, taken every inventory.zfs_sample_minutes (ZfsSamplingTask). For
// each ZFS pool it runs, through the same CommandRunner (and so the
// privileged helper and its timeouts) as discovery:
//   zpool iostat -v -l -p -P -y POOL 5 1   the members' average waits over 5 s
//   zpool status -s -p -P POOL            their slow I/O counts (SLOW column)
//   zpool get -H -p sit_out POOL all-vdevs   OpenZFS 2.4: raidz/draid children
//                                         ZFS sat out of reads as slow outliers
//   zpool iostat -w -v -p -P POOL         each member's latency histograms
//                                         since import; the disk waits since
//                                         the previous sampling are their
//                                         difference
// on Linux and FreeBSD alike (-p: exact numbers, -P: the paths discovery
// mapped to drives). The samples are stored, each vdev's last samplings are
// judged against the siblings (detect/zfs_latency_peers.h), and the verdicts
// returned for the alert service. A pool that scrubs or resilvers is not
// sampled (as it is not tested). No zpool, no ZFS pools, or a zpool too old
// for -l gives no samples; a zpool without vdev properties or sit_out (before
// 2.4) gives sit_out unknown, silently; other tool failures become warnings,
// never errors. Stateless but for ZfsHistogramMemory (the previous
// cumulative histograms, owned by the caller); thread-safe if the runner,
// the store and the memory are not shared between threads.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/command_runner.h"
#include "config/config.h"
#include "detect/zfs_latency_peers.h"
#include "inventory/zpool_iostat_parser.h"
#include "model/pool.h"
#include "model/verdict.h"
#include "model/zfs_latency.h"
#include "store/store.h"

namespace dp {

struct ZfsLatencyReport {
  std::vector<ZfsLatencySample> samples;  // as stored
  std::vector<Verdict> verdicts;          // for AlertService::OnVerdicts
  std::vector<std::string> warnings;      // tool or parse failures, one per pool and command
};

// The argv of each command for one pool (also the privileged helper's
// allowed shapes).
std::vector<std::string> ZfsIostatArgs(const std::string& pool);
std::vector<std::string> ZfsSlowStatusArgs(const std::string& pool);
std::vector<std::string> ZfsSitOutArgs(const std::string& pool);
std::vector<std::string> ZfsHistogramArgs(const std::string& pool);

// What the four commands said about one pool, parsed; members by the path
// zpool prints with -P.
struct ZfsPoolReading {
  bool latency_read = false;  // iostat -l ran and parsed
  std::vector<VdevLatency> latency;
  std::map<std::string, std::uint64_t> slow_ios;
  std::map<std::string, bool> sit_out;
  // disk_wait read and write histograms since import (cumulative counts).
  std::map<std::string, std::pair<std::vector<std::uint64_t>, std::vector<std::uint64_t>>>
      histograms;
  std::vector<std::string> warnings;
};

// Runs the commands for one pool (`diskpulse record` runs them to capture
// them). with_latency false: only status -s (the CLI's SLOW column).
ZfsPoolReading ReadZfsPool(const Config& config, CommandRunner& runner, const Pool& pool,
                           bool with_latency = true);

// ReadZfsPool for every ZFS pool that is not scrubbing or resilvering (as
// SampleZfsLatency asks), for `diskpulse record`; the warnings.
std::vector<std::string> ReadZfsPools(const Config& config, CommandRunner& runner,
                                      const std::vector<Pool>& pools);

// A -w table's disk_wait read and write columns by bucket index (the row's
// label is the bucket's upper bound, about 2^(i+1) ns); Corrupt when the
// table has no disk_wait columns or two rows fall in one bucket.
Result<std::pair<std::vector<std::uint64_t>, std::vector<std::uint64_t>>> DiskWaitBuckets(
    const ZpoolLatencyHistogram& table);

// The cumulative histograms of the previous sampling of each member, so the
// next one can store the difference. Kept by the caller (ZfsSamplingTask);
// lost on a restart, when the next sampling only primes it.
class ZfsHistogramMemory {
 public:
  // The disk waits between the previous cumulative histograms of
  // (pool, member) and these, taken at `at`; nullopt the first time, or when
  // a count went down (pool re-imported, counters reset). Remembers these.
  std::optional<ZfsWaitHistogram> Difference(
      const std::string& pool, const std::string& member, std::int64_t at,
      const std::pair<std::vector<std::uint64_t>, std::vector<std::uint64_t>>& cumulative);
  // Forgets a pool's histograms (it scrubs: the next window starts after).
  void Forget(const std::string& pool);

 private:
  struct Previous {
    std::int64_t at = 0;
    std::vector<std::uint64_t> read, write;
  };
  std::map<std::pair<std::string, std::string>, Previous> previous_;
};

// pools: as discovery saw them, members mapped to drive ids. The store
// errors are returned; everything else is a warning in the report.
// memory: null keeps no histograms.
Result<ZfsLatencyReport> SampleZfsLatency(const Config& config, CommandRunner& runner, Store& store,
                                          const std::vector<Pool>& pools, std::int64_t at,
                                          ZfsHistogramMemory* memory = nullptr,
                                          const detect::ZfsPeerRule& rule = {});

}  // namespace dp
