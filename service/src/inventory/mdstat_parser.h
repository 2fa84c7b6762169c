// Parsing Linux /proc/mdstat into Pools of kind "md": one pool per array, one vdev (its RAID
// level), members with state from the (F)/(S)/(W) flags, and the
// resync/recovery/check/reshape progress as the pool's scan, so a pool that
// rebuilds is left alone like a resilvering ZFS pool. Pure function.
#pragma once

#include <string_view>
#include <vector>

#include "base/result.h"
#include "model/pool.h"

namespace dp {

Result<std::vector<Pool>> ParseMdstat(std::string_view text);

}  // namespace dp
