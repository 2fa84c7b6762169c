#include "store/json_columns.h"

#include <nlohmann/json.hpp>

namespace dp {
namespace {

using nlohmann::json;

json Parse(const std::string& text) {
  json j = json::parse(text, /*cb=*/nullptr, /*allow_exceptions=*/false);
  return j.is_array() ? j : json::array();
}

template <typename T>
void PutOpt(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

template <typename T>
std::optional<T> GetOpt(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if constexpr (std::is_same_v<T, bool>) {
    if (!it->is_boolean()) return std::nullopt;
  } else {
    if (!it->is_number()) return std::nullopt;
  }
  return it->get<T>();
}

std::string GetString(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::string StringsToJson(const std::vector<std::string>& list) {
  // Strings from the OS may hold invalid UTF-8: replace, never throw.
  return json(list).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<std::string> StringsFromJson(const std::string& text) {
  std::vector<std::string> out;
  for (const json& e : Parse(text))
    if (e.is_string()) out.push_back(e.get<std::string>());
  return out;
}

std::string SmartAttributesToJson(const std::vector<SmartAttribute>& attributes) {
  json arr = json::array();
  for (const SmartAttribute& a : attributes) {
    json j = {{"id", a.id},
              {"name", a.name},
              {"raw_string", a.raw_string},
              {"when_failed", a.when_failed},
              {"prefailure", a.prefailure}};
    PutOpt(j, "value", a.value);
    PutOpt(j, "worst", a.worst);
    PutOpt(j, "thresh", a.thresh);
    PutOpt(j, "raw", a.raw);
    arr.push_back(std::move(j));
  }
  return arr.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<SmartAttribute> SmartAttributesFromJson(const std::string& text) {
  std::vector<SmartAttribute> out;
  for (const json& j : Parse(text)) {
    if (!j.is_object()) continue;
    SmartAttribute a;
    a.id = GetOpt<int>(j, "id").value_or(0);
    a.name = GetString(j, "name");
    a.value = GetOpt<int>(j, "value");
    a.worst = GetOpt<int>(j, "worst");
    a.thresh = GetOpt<int>(j, "thresh");
    a.raw = GetOpt<std::uint64_t>(j, "raw");
    a.raw_string = GetString(j, "raw_string");
    a.when_failed = GetString(j, "when_failed");
    a.prefailure = GetOpt<bool>(j, "prefailure").value_or(false);
    out.push_back(std::move(a));
  }
  return out;
}

namespace {
constexpr const char* kWithRawString = "raw_string";
}  // namespace

std::string SmartAttributeValuesToJson(const std::vector<SmartAttribute>& attributes) {
  json arr = json::array({kWithRawString});
  auto opt = [](const auto& v) { return v ? json(*v) : json(nullptr); };
  for (const SmartAttribute& a : attributes) {
    arr.push_back(a.id);
    arr.push_back(opt(a.value));
    arr.push_back(opt(a.raw));
    arr.push_back(a.raw_string.empty() ? json(nullptr) : json(a.raw_string));
  }
  return arr.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<std::vector<SmartAttribute>> SmartAttributeValuesFromJson(const std::string& text) {
  const json j = json::parse(text, /*cb=*/nullptr, /*allow_exceptions=*/false);
  if (!j.is_array()) return std::nullopt;
  const bool strings = !j.empty() && j[0] == kWithRawString;
  const std::size_t first = strings ? 1 : 0, stride = strings ? 4 : 3;
  if ((j.size() - first) % stride != 0) return std::nullopt;
  std::vector<SmartAttribute> out;
  out.reserve((j.size() - first) / stride);
  for (std::size_t i = first; i < j.size(); i += stride) {
    const json& id = j[i];
    const json& value = j[i + 1];
    const json& raw = j[i + 2];
    if (!id.is_number_integer() || !(value.is_null() || value.is_number_integer()) ||
        !(raw.is_null() || raw.is_number_unsigned()) ||
        (strings && !(j[i + 3].is_null() || j[i + 3].is_string())))
      return std::nullopt;
    SmartAttribute a;
    a.id = id.get<int>();
    if (!value.is_null()) a.value = value.get<int>();
    if (!raw.is_null()) a.raw = raw.get<std::uint64_t>();
    if (strings && j[i + 3].is_string()) a.raw_string = j[i + 3].get<std::string>();
    out.push_back(std::move(a));
  }
  return out;
}

std::string SmartSelfTestsToJson(const std::vector<SmartSelfTest>& tests) {
  json arr = json::array();
  for (const SmartSelfTest& t : tests) {
    json j = {{"type", t.type}, {"status", t.status}};
    PutOpt(j, "passed", t.passed);
    PutOpt(j, "lifetime_hours", t.lifetime_hours);
    arr.push_back(std::move(j));
  }
  return arr.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<SmartSelfTest> SmartSelfTestsFromJson(const std::string& text) {
  std::vector<SmartSelfTest> out;
  for (const json& j : Parse(text)) {
    if (!j.is_object()) continue;
    SmartSelfTest t;
    t.type = GetString(j, "type");
    t.status = GetString(j, "status");
    t.passed = GetOpt<bool>(j, "passed");
    t.lifetime_hours = GetOpt<std::uint64_t>(j, "lifetime_hours");
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace dp
