#include "sched/due_state_io.h"

#include <nlohmann/json.hpp>

namespace dp {

std::string DueStateKey(const std::string& schedule, const std::string& target_key) {
  return "sched/" + schedule + "/" + target_key;
}

std::string EncodeDueState(const DueState& s) {
  nlohmann::json j = nlohmann::json::object();
  if (s.last_run) j["last_run"] = ToUnixSeconds(*s.last_run);
  if (s.first_seen) j["first_seen"] = ToUnixSeconds(*s.first_seen);
  return j.dump();
}

std::optional<DueState> DecodeDueState(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return std::nullopt;
  DueState s;
  for (const char* key : {"last_run", "first_seen"}) {
    auto it = j.find(key);
    if (it == j.end()) continue;
    if (!it->is_number_integer()) return std::nullopt;
    SysTime t = FromUnixSeconds(it->get<std::int64_t>());
    (std::string_view(key) == "last_run" ? s.last_run : s.first_seen) = t;
  }
  return s;
}

Result<DueState> LoadDueState(SchedulerStore& store, const std::string& key) {
  DP_ASSIGN_OR_RETURN(auto text, store.GetState(key));
  if (!text) return DueState{};
  return DecodeDueState(*text).value_or(DueState{});
}

}  // namespace dp
