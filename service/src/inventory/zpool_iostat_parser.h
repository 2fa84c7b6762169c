// Parsing `zpool iostat -v -l` (average latencies per pool, vdev and member)
// and `zpool iostat -w` (latency histograms) as OpenZFS prints them, with or
// without -p (exact numbers; times in nanoseconds) and -P (full paths).
//
// The columns are read from the two header lines, so every version's shape
// parses: 0.7 (scrub wait only), 0.8 to 2.0 (scrub, trim), 2.1 and later
// (scrub, trim, rebuild). A column this zpool does not print, and "-" (no
// I/O of that kind in the interval), is unknown (nullopt), never 0. Columns
// the parser does not know (`-c` script output, `-q` queues) are skipped.
// Output of several intervals (`zpool iostat -vl 5 3`) gives the last one.
// Anything not understood is Corrupt with the line it stopped at. Pure
// functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace dp {

// One row of `zpool iostat -v -l`: the pool, a vdev, or a member.
struct VdevLatency {
  std::string pool;
  std::string name;     // as printed: "tank", "raidz1-0", "sda1", "/dev/disk/by-id/...-part1"
  int depth = 0;        // 0 the pool (or a logs/cache/... section), 1 a top-level vdev, 2+ below
  std::string vdev;     // the top-level vdev the row belongs to ("" for the pool row)
  std::string section;  // "" (data), "logs", "cache", "spares", "special", "dedup"
  bool leaf = false;    // no rows below it: a device
  // Per second over the interval (since import without one); bytes per second.
  std::optional<double> read_ops, write_ops, read_bytes, write_bytes;
  // Average waits in seconds.
  std::optional<double> total_wait_read, total_wait_write;    // queue + disk
  std::optional<double> disk_wait_read, disk_wait_write;      // the device itself
  std::optional<double> syncq_wait_read, syncq_wait_write;    // sync priority queues
  std::optional<double> asyncq_wait_read, asyncq_wait_write;  // async priority queues
  std::optional<double> scrub_wait, trim_wait, rebuild_wait;
};

Result<std::vector<VdevLatency>> ParseZpoolIostatLatency(std::string_view text);

// One table of `zpool iostat -w` (the pool's, or with -v each vdev's).
struct ZpoolLatencyHistogram {
  std::string name;                  // the pool or vdev, from the table's corner
  std::vector<std::string> columns;  // "total_wait_read", "disk_wait_write", ..., "scrub", "trim", "rebuild"
  std::vector<double> bucket_seconds;  // each row's label: the bucket's upper bound
  std::vector<std::vector<std::optional<std::uint64_t>>> counts;  // [bucket][column]
};

Result<std::vector<ZpoolLatencyHistogram>> ParseZpoolIostatHistogram(std::string_view text);

// "12ms", "345us", "1.2s", "7ns", or a bare number of nanoseconds (-p), in
// seconds; nullopt for "-" and for anything else.
std::optional<double> ParseZpoolTime(std::string_view token);

}  // namespace dp
