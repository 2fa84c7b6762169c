#include "model/condition.h"

#include <vector>

namespace dp {

ConditionKind ConditionKindOf(std::string_view condition) {
  const std::string_view head = condition.substr(0, condition.find(':'));
  for (ConditionKind k : kConditionKinds)
    if (head == ConditionKindName(k)) return k;
  return ConditionKind::kOther;
}

ConditionPlace ConditionPlaceOf(std::string_view condition) {
  ConditionPlace place;
  std::vector<std::string_view> parts;
  for (std::size_t from = 0;;) {
    const std::size_t colon = condition.find(':', from);
    parts.push_back(condition.substr(from, colon == std::string_view::npos ? colon : colon - from));
    if (colon == std::string_view::npos) break;
    from = colon + 1;
  }
  switch (ConditionKindOf(condition)) {
    case ConditionKind::kPool:
    case ConditionKind::kScrub:
    case ConditionKind::kZfs:
      // "zfs:cksum" (a member's own counter, filed under its drive) names no pool.
      if (parts.size() >= 3) place.pool = std::string(parts[1]);
      break;
    case ConditionKind::kEnvironment:
      if (parts.size() >= 5) {
        const std::size_t head = parts[0].size() + 1;
        const std::size_t tail = parts[parts.size() - 3].data() - condition.data() - 1;
        place.vdev = std::string(condition.substr(head, tail - head));
        // A vdev's group is "POOL/VDEV" (inventory's naming); box and model groups have no pool.
        const std::size_t slash = place.vdev.find('/');
        if (slash != std::string::npos && place.vdev.rfind("model:", 0) != 0)
          place.pool = place.vdev.substr(0, slash);
      }
      break;
    default:
      break;
  }
  return place;
}

int ClearsToResolve(std::string_view condition, int configured) {
  switch (ConditionKindOf(condition)) {
    case ConditionKind::kMissing:
    case ConditionKind::kScrub:
    case ConditionKind::kSelfTest:
      return 1;
    case ConditionKind::kPool:
      return condition.ends_with(":capacity") ? configured : 1;
    default:
      return configured;
  }
}

RunTrigger RunTriggerOf(std::string_view trigger) {
  const std::string_view head = trigger.substr(0, trigger.find(':'));
  if (head == "schedule") return RunTrigger::kSchedule;
  if (head == "confirm") return RunTrigger::kConfirm;
  if (head == "api") return RunTrigger::kApi;
  if (head == "cli") return RunTrigger::kCli;
  return RunTrigger::kOther;
}

std::string ConfirmTrigger(std::int64_t of_run) { return "confirm:" + std::to_string(of_run); }

}  // namespace dp
