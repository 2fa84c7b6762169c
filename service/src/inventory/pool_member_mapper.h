// Mapping pool member paths as zpool (or mdstat) prints them -- bare "sdb",
// partitions "sda1"/"ada0p3"/"c1t0d0s6", "/dev/disk/by-id/...-part1",
// "wwn-0x...", "gpt/label", "gptid/uuid", dm-crypt holders -- to the
// whole-disk Drive they live on. A path that maps to no drive is left
// unmapped (drive_id "") and reported, never guessed. Pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "inventory/device_aliases.h"
#include "model/drive.h"
#include "model/pool.h"

namespace dp {

// The id of the drive `member_path` lives on, or nullopt.
std::optional<std::string> MapMemberToDrive(const std::string& member_path,
                                            const std::vector<Drive>& drives,
                                            const DeviceAliases& aliases);

// Fills drive_id of every device member of every pool; returns one warning
// per member that maps to no drive ("pool tank: member c1t1d0s6 maps to no
// known drive").
std::vector<std::string> MapPoolMembers(std::vector<Pool>& pools, const std::vector<Drive>& drives,
                                        const DeviceAliases& aliases);

// "sda1" -> "sda", "nvme0n1p2" -> "nvme0n1", "ada0p3" -> "ada0",
// "da0s1a" -> "da0", "c1t0d0s6" -> "c1t0d0"; the name itself when it has no
// partition suffix. A heuristic for when no partition table was gathered.
std::string StripPartitionSuffix(const std::string& kernel_name);

}  // namespace dp
