// Pool, Vdev, PoolMember: a storage pool's layout and state as reported by
// `zpool status` (or /proc/mdstat). Plain value types; JSON shape is the
// `diskpulse pools --json` contract.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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
  // A nested vdev row ("replacing-1", "spare-0") kept as a member so its own
  // counters are not lost; it is no device and never maps to a drive.
  bool container = false;
  std::string parent;      // the nested vdev this member sits in ("replacing-1"), or ""
  // zpool printed a rounded counter ("5.54M"); the value is its 1024-based reading.
  bool counters_approximate = false;
  // `zpool status -s`: I/Os of this leaf that took longer than zio_slow_io_ms
  // (30 s by default) since the pool was imported or cleared; nullopt when
  // the output had no SLOW column or printed "-" (interior vdevs).
  std::optional<std::uint64_t> slow_ios;
};

struct Vdev {
  std::string name;        // "mirror-0", "raidz2-1", "draid2:4d:1s-0", or the disk itself
  std::string type;        // "mirror", "raidz1", "raidz2", "raidz3", "draid", "disk", "replacing", "spare"
  std::string role;        // "data", "log", "cache", "spare", "special", "dedup"
  std::string state;
  std::vector<PoolMember> members;
};

struct PoolScan {
  std::string function;    // "scrub", "resilver", "none" (md: "resync", "recovery", "check", "reshape")
  std::string state;       // "in_progress", "finished", "canceled", "paused", "none"
  std::optional<double> percent;  // in progress only
  std::string text;        // the raw scan line(s)
};

struct Pool {
  std::string name;
  std::string kind = "zfs";  // "zfs" | "md"
  std::string state;
  PoolScan scan;
  std::string errors;      // the "errors:" line, e.g. "No known data errors"
  std::vector<std::string> error_files;  // `zpool status -v` permanent-error file list
  std::string status;      // the "status:" paragraph ("" when the pool is fine)
  std::vector<Vdev> vdevs;
  // Space, from `zpool list -Hp` (ZFS only; nullopt when not read).
  std::optional<std::uint64_t> size_bytes;
  std::optional<std::uint64_t> allocated_bytes;

  // True while a scrub or resilver runs: members are not to be tested.
  bool Busy() const { return scan.state == "in_progress"; }
};

// Whether `drive_id` is a member of one of the pool's vdevs.
bool HasMember(const Pool& pool, std::string_view drive_id);

// The pool among `pools` that is scrubbing or resilvering and has a member
// mapped to drive_id; nullptr when there is none (the drive may be tested).
const Pool* BusyPoolWithDrive(const std::vector<Pool>& pools, std::string_view drive_id);

// "pool tank is resilvering (52.0% done)", for skip reasons and refusals.
std::string DescribeBusy(const Pool& pool);

}  // namespace dp
