// Helpers shared by the model's JSON contracts (drive_json, pool_json,
// smart_snapshot_json): a value that is not known is null, never 0 or "".
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace dp::json_fields {

inline nlohmann::json StrOrNull(const std::string& s) {
  return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}

template <typename T>
nlohmann::json OptOrNull(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// The string at key, or "" when absent, null or not a string.
inline std::string GetString(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace dp::json_fields
