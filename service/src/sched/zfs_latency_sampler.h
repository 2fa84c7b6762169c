// SampleZfsLatency: ZFS's own view of every pool member between diskpulse's
// tests, taken with each discovery pass. For each ZFS pool it runs, through
// the same CommandRunner (and so the privileged helper and its timeouts) as
// discovery:
//   zpool iostat -v -l -p -P -y POOL 5 1   the members' average waits over 5 s
//   zpool status -s -p -P POOL            their slow I/O counts (SLOW column)
// on Linux and FreeBSD alike (-p: exact numbers, -P: the paths discovery
// mapped to drives). The samples are stored, each vdev's last samplings are
// judged against the siblings (detect/zfs_latency_peers.h), and the verdicts
// returned for the alert service. A pool that scrubs or resilvers is not
// sampled (as it is not tested). No zpool, no ZFS pools, or a zpool too old
// for -l gives no samples; tool failures become warnings, never errors.
// Stateless; thread-safe if the runner and the store are.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/command_runner.h"
#include "config/config.h"
#include "detect/zfs_latency_peers.h"
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

// The argv of both commands for one pool (also the privileged helper's
// allowed shapes).
std::vector<std::string> ZfsIostatArgs(const std::string& pool);
std::vector<std::string> ZfsSlowStatusArgs(const std::string& pool);

// pools: as discovery saw them, members mapped to drive ids. The store
// errors are returned; everything else is a warning in the report.
Result<ZfsLatencyReport> SampleZfsLatency(const Config& config, CommandRunner& runner,
                                          Store& store, const std::vector<Pool>& pools,
                                          std::int64_t at,
                                          const detect::ZfsPeerRule& rule = {});

}  // namespace dp
