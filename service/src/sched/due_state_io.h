// How the scheduler's per-(schedule, target) DueState is kept in the store's
// scheduler_state key/value table: key "sched/SCHEDULE/TARGET", value
// {"last_run": unix seconds, "first_seen": unix seconds} (either may be absent).
#pragma once

#include <optional>
#include <string>

#include "sched/next_due.h"
#include "sched/scheduler_store.h"

namespace dp {

std::string DueStateKey(const std::string& schedule, const std::string& target_key);
std::string EncodeDueState(const DueState& state);
// nullopt for text that is not a DueState (a corrupt value is treated as absent).
std::optional<DueState> DecodeDueState(const std::string& text);
// The stored state, or an empty one when none is stored.
Result<DueState> LoadDueState(SchedulerStore& store, const std::string& key);

}  // namespace dp
