// ZfsLatencySample: what ZFS itself said about one pool member at one time,
// between diskpulse's own tests: its average waits over a few seconds of the
// pool's ordinary I/O (`zpool iostat -v -l`) and its count of slow I/Os
// (`zpool status -s`), whether ZFS has it sitting out of reads (`sit_out`,
// OpenZFS 2.4), and the distribution of its disk waits since the previous
// sampling (`zpool iostat -w`). Plain value types; the store keeps them,
// detection compares a member with its vdev siblings sampled at the same
// moment.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dp {

// The disk waits of one member over a window, from ZFS's own latency
// histograms (`zpool iostat -w`, disk_wait): counts[i] is the number of I/Os
// that took at most 2^(i+1) - 1 ns (zpool's power-of-two buckets, 1 ns to
// 137 s; index 0 is "1ns", 9 "1us", 19 "1ms", 29 "1s").
struct ZfsWaitHistogram {
  std::int64_t seconds = 0;         // the window: time since the previous sampling
  std::vector<std::uint64_t> read;  // empty: not known
  std::vector<std::uint64_t> write;
};

// The upper bound in seconds of bucket i (2^(i+1) - 1 ns).
double ZfsBucketUpperSeconds(std::size_t i);

// Quantile q (0 < q <= 1) of binned data: the upper bound of the first
// bucket whose cumulative count reaches q * total (the nearest-rank
// definition applied to buckets, Hyndman & Fan 1996 type 1). The true
// quantile lies in that bucket, so the figure is at most 2x too high and
// never too low. nullopt for an empty histogram.
std::optional<double> ZfsHistogramQuantile(const std::vector<std::uint64_t>& counts, double q);

struct ZfsLatencySample {
  std::int64_t at = 0;   // unix seconds; one sampling of a pool shares it
  std::string pool;
  std::string vdev;      // the top-level vdev ("raidz2-0"; the disk itself when it is one)
  std::string member;    // the path as zpool prints it (-P)
  std::string drive_id;  // "" when the member maps to no drive
  // Per second over the sampling window; nullopt when not known.
  std::optional<double> read_ops, write_ops;
  // Average waits in seconds over the window: the device's own (disk_wait)
  // and with ZFS's queues (total_wait); nullopt without I/O of that kind.
  std::optional<double> disk_wait_read, disk_wait_write;
  std::optional<double> total_wait_read, total_wait_write;
  // I/Os slower than zio_slow_io_ms (30 s by default) since import or
  // `zpool clear`: a counter, so a rise between two samples is new ones.
  std::optional<std::uint64_t> slow_ios;
  // OpenZFS 2.4's `sit_out` vdev property of a raidz/draid child: true while
  // ZFS has judged it a persistent slow outlier and reads skip it; nullopt on
  // older zpools, for mirror or single-disk members, or when not read.
  std::optional<bool> sit_out;
  // Disk waits since the previous sampling; nullopt for the first sampling
  // after a start or a pool import (nothing to subtract) or without -w.
  std::optional<ZfsWaitHistogram> disk_wait_histogram;
};

}  // namespace dp
