// Pool, Vdev, PoolMember: a storage pool's layout and state as reported by
// `zpool status` (or /proc/mdstat). Plain value types; JSON shape is the
// `diskpulse pools --json` contract (issue 4).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dp {

struct PoolMember {
  std::string path;        // as printed: "sda", "/dev/disk/by-id/ata-...-part1", "gptid/..."
  std::string state;       // ONLINE, DEGRADED, FAULTED, UNAVAIL, REMOVED, OFFLINE, AVAIL, INUSE, ...
  std::optional<std::uint64_t> read_errors;      // nullopt where the row has no counters
  std::optional<std::uint64_t> write_errors;
  std::optional<std::uint64_t> checksum_errors;
  std::string note;        // trailing text, e.g. "was /dev/sdc1", "(resilvering)"
  std::string drive_id;    // filled by path-to-drive mapping; "" when unmapped
};

struct Vdev {
  std::string name;        // "mirror-0", "raidz2-1", "draid2:4d:1s-0", or the disk itself
  std::string type;        // "mirror", "raidz1", "raidz2", "raidz3", "draid", "disk", "replacing", "spare"
  std::string role;        // "data", "log", "cache", "spare", "special", "dedup"
  std::string state;
  std::vector<PoolMember> members;
};

struct PoolScan {
  std::string function;    // "scrub", "resilver", "none"
  std::string state;       // "in_progress", "finished", "canceled", "none"
  std::optional<double> percent;  // in progress only
  std::string text;        // the raw scan line(s)
};

struct Pool {
  std::string name;
  std::string kind = "zfs";  // "zfs" | "md"
  std::string state;
  PoolScan scan;
  std::string errors;      // the "errors:" line, e.g. "No known data errors"
  std::vector<Vdev> vdevs;

  // True while a scrub or resilver runs: members are not to be tested.
  bool Busy() const { return scan.state == "in_progress"; }
};

}  // namespace dp
