// ConditionKind: what an alert condition is about, from the first part of
// its key ("slowdown:seq:qd8-1m:mb_per_s" -> kSlowdown). The key stays a
// string (it is stored with every alert and is the alert's identity); code
// that decides by kind asks ConditionKindOf rather than testing prefixes.
//
// RunTrigger: why a run was started, from Run::trigger ("schedule:<name>",
// "confirm:<run id>", "api", "cli").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace dp {

enum class ConditionKind {
  kSlowdown,     // a series against its own baseline (detect/change_detector.h)
  kTrend,        // a series' slope (detect/trend_detector.h)
  kPeer,         // a drive against its vdev siblings (detect/peer_detector.h)
  kEnvironment,  // every member of a vdev at once (detect/environment_detector.h)
  kSmart,        // SMART health and counters (detect/smart_detector.h)
  kZfs,          // pool state, member errors and ZFS latency (pool_detector.h, zfs_latency_peers.h)
  kOther,        // a condition of no known kind
};

// Every kind an alert can have, in a fixed order (kOther left out).
inline constexpr std::array<ConditionKind, 6> kConditionKinds = {
    ConditionKind::kSlowdown, ConditionKind::kTrend, ConditionKind::kPeer,
    ConditionKind::kEnvironment, ConditionKind::kSmart, ConditionKind::kZfs};

ConditionKind ConditionKindOf(std::string_view condition);
// "slowdown", "trend", "peer", "environment", "smart", "zfs"; "other".
std::string_view ConditionKindName(ConditionKind kind);

enum class RunTrigger { kSchedule, kConfirm, kApi, kCli, kOther };

RunTrigger RunTriggerOf(std::string_view trigger);
// The trigger of the confirmation re-test of run `of_run`.
std::string ConfirmTrigger(std::int64_t of_run);

}  // namespace dp
