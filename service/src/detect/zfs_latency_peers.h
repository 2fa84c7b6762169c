// EvaluateZfsLatencyPeers: ZFS's own signals about the members of one vdev,
// judged between diskpulse's tests (no test runs for it):
//
//  - "zfs:POOL:latency": a member whose average disk wait (`zpool iostat -l`
//    disk_wait, the device's own service time, read and write weighted by
//    their operations) is far above its siblings' in the same sampling, in
//    each of the last `samplings` samplings. Far above: more than
//    `min_ratio` times the siblings' median, by more than `sigmas` robust
//    sigmas of their spread (1.4826 * b_n * MAD; median/MAD outlier rule:
//    Hampel 1974, Leys et al. 2013) and by at least `min_excess_seconds`.
//    Siblings share the vdev's load at that moment, so the load cancels;
//    one noisy sampling never fires (each of the last three must agree);
//  - "zfs:POOL:slow_ios": the member's SLOW count (`zpool status -s`, I/Os
//    over zio_slow_io_ms, 30 s by default) rose since the previous
//    sampling: ZFS itself timed those I/Os;
//  - "zfs:POOL:sit_out": OpenZFS 2.4 marks a raidz/draid child it has found
//    to be a persistent slow outlier against its siblings (`sit_out`, a
//    read-only vdev property) and skips it for reads a while: the pool
//    itself says the member is slow. The alert stays open while ZFS keeps
//    sitting it out and resolves after resolve_after_clear_runs samplings
//    with sit_out=off; while it sits out, its disk wait (reads moved away) is
//    inconclusive for "latency". Unknown sit_out (older zpool, mirrors):
//    no verdict.
//
// Both fire as kPoolErrors with severity warning, which the page shows as
// "watch". Members without a drive get no verdict (they still count as
// siblings). Pure function, thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "model/verdict.h"
#include "model/zfs_latency.h"

namespace dp::detect {

struct ZfsPeerRule {
  int samplings = 3;                 // consecutive samplings that must all be far above
  double min_ratio = 2.0;            // times the siblings' median
  double sigmas = 3.0;               // robust sigmas of the siblings' spread
  double min_excess_seconds = 0.001; // and at least this much slower (SSDs: microseconds are noise)
  int min_siblings = 2;              // siblings with a figure in the same sampling
};

// The member's figure for one sample: disk_wait read and write weighted by
// their operations per second (either alone when the other is unknown or
// had no operations); nullopt without any.
std::optional<double> ZfsDiskWait(const ZfsLatencySample& s);

// samples: every member of one vdev over its last samplings (any order;
// Store::ZfsLatencyOfVdev). at: the newest sampling's time. Kinds:
// kPoolErrors, kClear, kInconclusive (too few samplings or siblings, or the
// member idle in the newest one).
std::vector<Verdict> EvaluateZfsLatencyPeers(const std::vector<ZfsLatencySample>& samples,
                                             const ZfsPeerRule& rule = {});

}  // namespace dp::detect
