// The typed look-ups and shared rules of smartctl_json.h.
#include "smart/smartctl_json.h"

#include "base/strings.h"

namespace dp::smartctl {
namespace {

// Plausible drive temperatures. Drives stop working long before either end;
// values outside (virtual disks say 0, broken bridges say 255) are not believed.
constexpr int kMinCelsius = 1;
constexpr int kMaxCelsius = 120;

std::string PathName(std::initializer_list<const char*> path) {
  std::string out;
  for (const char* p : path) {
    if (!out.empty()) out += '.';
    out += p;
  }
  return out;
}

}  // namespace

const json* Reader::Find(const json& j, std::initializer_list<const char*> path) {
  const json* cur = &j;
  for (const char* key : path) {
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(key);
    if (it == cur->end()) return nullptr;
    cur = &*it;
  }
  return cur;
}

const json* Reader::Typed(const json& j, std::initializer_list<const char*> path,
                          bool (json::*is)() const noexcept, const char* expected) {
  const json* v = Find(j, path);
  if (!v || v->is_null()) return nullptr;
  if (!(v->*is)()) {
    Warn(PathName(path) + ": expected " + expected + ", got " + std::string(v->type_name()) +
         "; ignored");
    return nullptr;
  }
  return v;
}

std::optional<std::uint64_t> Reader::U64(const json& j, std::initializer_list<const char*> path,
                                         std::uint64_t max) {
  const json* v = Find(j, path);
  if (!v || v->is_null()) return std::nullopt;
  if (v->is_number_unsigned()) {
    auto x = v->get<std::uint64_t>();
    if (x > max) {
      Warn(PathName(path) + ": " + std::to_string(x) + " is out of range; ignored");
      return std::nullopt;
    }
    return x;
  }
  if (v->is_number_integer()) {
    Warn(PathName(path) + ": negative value " + std::to_string(v->get<std::int64_t>()) +
         "; ignored");
    return std::nullopt;
  }
  Warn(PathName(path) + ": expected a non-negative integer, got " + std::string(v->type_name()) +
       "; ignored");
  return std::nullopt;
}

std::optional<int> Reader::Int(const json& j, std::initializer_list<const char*> path, int lo,
                               int hi) {
  const json* v = Typed(j, path, &json::is_number_integer, "an integer");
  if (!v) return std::nullopt;
  auto x = v->get<std::int64_t>();
  if (x < lo || x > hi) {
    Warn(PathName(path) + ": " + std::to_string(x) + " is out of range; ignored");
    return std::nullopt;
  }
  return static_cast<int>(x);
}

std::optional<bool> Reader::Bool(const json& j, std::initializer_list<const char*> path) {
  const json* v = Typed(j, path, &json::is_boolean, "true/false");
  if (!v) return std::nullopt;
  return v->get<bool>();
}

std::string Reader::Str(const json& j, std::initializer_list<const char*> path) {
  const json* v = Typed(j, path, &json::is_string, "a string");
  if (!v) return "";
  return Trim(v->get<std::string>());
}

std::optional<int> CheckedCelsius(std::optional<int> t, const char* source, Reader& r) {
  if (!t) return std::nullopt;
  if (*t < kMinCelsius || *t > kMaxCelsius) {
    r.Warn(std::string(source) + ": " + std::to_string(*t) +
           " degrees C is not a believable drive temperature; reported as unknown");
    return std::nullopt;
  }
  return t;
}

std::string NormaliseTestType(std::string s) {
  const std::string lower = AsciiLower(s);
  if (lower.find("short") != std::string::npos) return "short";
  if (lower.find("extended") != std::string::npos || lower.find("long") != std::string::npos) {
    return "extended";
  }
  if (lower.find("conveyance") != std::string::npos) return "conveyance";
  if (lower.find("selective") != std::string::npos) return "selective";
  if (lower.find("offline") != std::string::npos) return "offline";
  if (lower.find("vendor") != std::string::npos) return "vendor";
  return lower;
}

}  // namespace dp::smartctl
