// EvaluatePool: ZFS error counters and member states of one pool, one Verdict
// per (member drive, condition). READ/WRITE/CKSUM counters are levels in
// zpool (they stay until `zpool clear`), so a member is firing while a
// counter is non-zero; a member whose state is FAULTED, DEGRADED, UNAVAIL or
// REMOVED is firing too. Members without a mapped drive_id are skipped here:
// detect/health_detector.h names them (pool:POOL:members), with the pool's
// own state, in one alert per pool.
// Pure function, thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "model/pool.h"
#include "model/verdict.h"

namespace dp::detect {

// previous (may be nullptr): the same pool's earlier status, used to report
// how much a counter grew. Conditions: "zfs:POOL:read", "zfs:POOL:write",
// "zfs:POOL:cksum", "zfs:POOL:state"; kinds kPoolErrors or kClear.
std::vector<Verdict> EvaluatePool(const Pool& current, const Pool* previous, std::int64_t at);

}  // namespace dp::detect
