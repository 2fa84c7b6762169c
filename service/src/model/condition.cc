#include "model/condition.h"

namespace dp {

ConditionKind ConditionKindOf(std::string_view condition) {
  const std::string_view head = condition.substr(0, condition.find(':'));
  for (ConditionKind k : kConditionKinds)
    if (head == ConditionKindName(k)) return k;
  return ConditionKind::kOther;
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
