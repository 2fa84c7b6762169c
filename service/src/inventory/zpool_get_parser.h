// Parsing `zpool get -H -p PROPERTY POOL all-vdevs` (OpenZFS >= 2.2, vdev
// properties): one line per vdev, "NAME\tPROPERTY\tVALUE\tSOURCE", where
// NAME is the vdev as zpool names it without -P ("root-0", "raidz2-0",
// "sdb", "ata-WDC_...", "gpt/disk3"). Used for `sit_out` (OpenZFS 2.4: a
// raidz/draid child ZFS has found to be a persistent slow outlier skips
// reads for a while, parity rebuilding its data; vdevprops(7)). Values
// other than "on"/"off" ("-": the property does not apply to that vdev) are
// unknown. Pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace dp {

struct ZpoolVdevProperty {
  std::string vdev;      // NAME column
  std::string property;  // PROPERTY column
  std::string value;     // VALUE column as printed
  std::string source;    // SOURCE column ("-", "default", "local")
};

// One line of `zpool list -Hp -o name,size,allocated`: "tank\t4000787030016\t1473371291648".
struct ZpoolSpace {
  std::string pool;
  std::uint64_t size_bytes = 0;
  std::uint64_t allocated_bytes = 0;
};
// Every line; Corrupt with the line for one that is not three tab-separated
// fields with whole numbers of bytes (so -H or -p left out is refused).
Result<std::vector<ZpoolSpace>> ParseZpoolListSpace(std::string_view text);

// Every line; Corrupt with the line for one that is not 3 or 4 tab-separated
// fields (so text output without -H is refused rather than misread).
Result<std::vector<ZpoolVdevProperty>> ParseZpoolGetVdevProperties(std::string_view text);

// Whether `vdev`, a name from `zpool get`, names the member zpool prints
// with -P as `member_path`: equal after dropping "/dev/" (and on Linux the
// udev folders /dev/disk/by-*/), or equal after dropping the partition zpool
// hides for a whole disk ("-part1", "1" after sdX, "p1" after nvme0n1).
bool ZpoolVdevNameMatches(std::string_view vdev, std::string_view member_path);

// The sit_out flag of each member in member_paths from the parsed lines:
// true "on", false "off"; members whose line says "-", that no line names, or
// that two lines could name, are left out (unknown).
std::map<std::string, bool> ZpoolSitOutByMember(const std::vector<ZpoolVdevProperty>& lines,
                                                const std::vector<std::string>& member_paths);

}  // namespace dp
