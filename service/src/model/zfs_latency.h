// ZfsLatencySample: what ZFS itself said about one pool member at one time,
// between diskpulse's own tests: its average waits over a few seconds of the
// pool's ordinary I/O (`zpool iostat -v -l`) and its count of slow I/Os
// (`zpool status -s`). Plain value type; the store keeps them, detection
// compares a member with its vdev siblings sampled at the same moment.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace dp {

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
};

}  // namespace dp
