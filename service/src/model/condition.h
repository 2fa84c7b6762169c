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
  kMissing,      // a known drive not seen for a while (detect/health_detector.h)
  kPool,         // a pool or a member not ONLINE, permanent errors, capacity (health_detector.h)
  kScrub,        // a scrub overdue, or one that repaired or found errors (health_detector.h)
  kWear,         // an SSD's used endurance (health_detector.h)
  kSelfTest,     // a SMART self-test overdue or aborted (health_detector.h)
  kOther,        // a condition of no known kind
};

// Every kind an alert can have, in a fixed order (kOther left out).
inline constexpr std::array<ConditionKind, 11> kConditionKinds = {
    ConditionKind::kSlowdown, ConditionKind::kTrend,   ConditionKind::kPeer,
    ConditionKind::kEnvironment, ConditionKind::kSmart, ConditionKind::kZfs,
    ConditionKind::kMissing,  ConditionKind::kPool,    ConditionKind::kScrub,
    ConditionKind::kWear,     ConditionKind::kSelfTest};

// "slowdown", "trend", "peer", "environment", "smart", "zfs", "missing",
// "pool", "scrub", "wear", "selftest"; "other".
constexpr std::string_view ConditionKindName(ConditionKind kind) {
  switch (kind) {
    case ConditionKind::kSlowdown: return "slowdown";
    case ConditionKind::kTrend: return "trend";
    case ConditionKind::kPeer: return "peer";
    case ConditionKind::kEnvironment: return "environment";
    case ConditionKind::kSmart: return "smart";
    case ConditionKind::kZfs: return "zfs";
    case ConditionKind::kMissing: return "missing";
    case ConditionKind::kPool: return "pool";
    case ConditionKind::kScrub: return "scrub";
    case ConditionKind::kWear: return "wear";
    case ConditionKind::kSelfTest: return "selftest";
    case ConditionKind::kOther: break;
  }
  return "other";
}
ConditionKind ConditionKindOf(std::string_view condition);

// What a condition that is not about one drive is about, for labels and the
// page: the pool of "pool:tank:state", "scrub:tank:overdue" and
// "zfs:tank:cksum"; the group (vdev, "model:M" or "box") of
// "environment:GROUP:TEST:SERIES:METRIC", whose group may itself hold colons.
// Empty where the condition names none.
struct ConditionPlace {
  std::string pool;
  std::string vdev;
};
ConditionPlace ConditionPlaceOf(std::string_view condition);

// How many clear evaluations in a row resolve an alert on `condition`:
// `configured` (alerts.resolve_after_clear_runs) for measured figures, which
// wobble around their limits, but 1 for a state read directly from the
// system (a drive back, a pool ONLINE again, a scrub or self-test that ran):
// the state itself is the evidence, and waiting more passes only delays the
// all-clear. Pool capacity is a figure and keeps the configured count.
int ClearsToResolve(std::string_view condition, int configured);

enum class RunTrigger { kSchedule, kConfirm, kApi, kCli, kOther };

RunTrigger RunTriggerOf(std::string_view trigger);
// The trigger of the confirmation re-test of run `of_run`.
std::string ConfirmTrigger(std::int64_t of_run);

}  // namespace dp
