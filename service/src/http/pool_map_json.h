// The pool map of the API (GET /api/v1/pools and the overview's "pools"):
// the model's pool shape (PoolToJson, the `diskpulse pools --json`
// contract) with what the page needs on top: each member's drive name, the
// scan's progress text, and what ZFS's newest sampling said of the member
// (its SLOW count when discovery's status had none, and sit_out). Pure.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/pool.h"
#include "model/zfs_latency.h"

namespace dp::http {

// names: drive id -> the name people know it by ("sda"); members whose
// drive is not in it get "drive_name": null. zfs: the newest sampling of
// each pool (Store::ZfsLatestSamplings), matched by pool and member path;
// members without one get "slow_ios" from the pool itself and "sit_out": null.
// How old ZFS's newest sampling may be for the pools answer to show it
// (older: SLOW and sit_out unknown rather than stale).
inline constexpr std::int64_t kZfsSamplingFreshSeconds = 7 * 86400;

nlohmann::json PoolMapToJson(const std::vector<Pool>& pools,
                             const std::map<std::string, std::string>& names,
                             const std::vector<ZfsLatencySample>& zfs = {});

}  // namespace dp::http
