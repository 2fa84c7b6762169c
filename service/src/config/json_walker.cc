#include "config/json_walker.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "config/key_line.h"
#include "config/schedule_config.h"

namespace dp {

using nlohmann::json;

const char* JsonKind(const json& value) {
  using Type = json::value_t;
  switch (value.type()) {
    case Type::null:
      return "null";
    case Type::boolean:
      return "a boolean";
    case Type::number_integer:
    case Type::number_unsigned:
      return "an integer";
    case Type::number_float:
      return "a number";
    case Type::string:
      return "a string";
    case Type::array:
      return "an array";
    case Type::object:
      return "an object";
    default:
      return "something else";
  }
}

std::string ConfigProblems::Where(const std::string& path) const {
  std::string where(file_);
  if (int at = LineOfKeyPath(text_, path); at > 0) where += ":" + std::to_string(at);
  return where;
}

void ConfigProblems::Add(const std::string& path, std::string_view what) {
  const int at = LineOfKeyPath(text_, path);
  lines_.push_back(
      {at > 0 ? at : std::numeric_limits<int>::max(), Where(path) + ": " + path + ": " + std::string(what)});
}

// In the file's order, as an editor walks them: keys are checked section by
// section (and unknown keys only when a section is done), which is not the
// order they are written in. Problems with no line of their own come last.
std::string ConfigProblems::Joined() const {
  std::vector<std::pair<int, std::string>> sorted = lines_;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string all;
  for (const auto& [line, text] : sorted) {
    if (!all.empty()) all += '\n';
    all += text;
  }
  return all;
}

JsonWalker::~JsonWalker() {
  for (auto it = object_.begin(); it != object_.end(); ++it)
    if (!seen_.count(it.key())) Error(it.key(), "unknown key (misspelt?)");
}

std::string JsonWalker::Path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void JsonWalker::Error(std::string_view key, std::string_view what) {
  problems_.Add(Path(key), what);
}

const json* JsonWalker::Find(std::string_view key) {
  if (!seen_.count(key)) seen_.emplace(key);
  auto it = object_.find(key);
  return it == object_.end() ? nullptr : &*it;
}

bool JsonWalker::Required(std::string_view key, std::string_view what) {
  if (Find(key)) return true;
  Error(key, "required: " + std::string(what));
  return false;
}

const json* JsonWalker::FindOfType(std::string_view key, json::value_t type,
                                   std::string_view expected) {
  const json* v = Find(key);
  if (!v) return nullptr;
  if (v->type() == type) return v;
  Error(key, "expected " + std::string(expected) + ", found " + JsonKind(*v));
  return nullptr;
}

bool JsonWalker::String(std::string_view key, std::string& out, std::string_view expected) {
  const json* v = FindOfType(key, json::value_t::string, expected);
  if (!v) return false;
  out = v->get<std::string>();
  return true;
}

bool JsonWalker::Bool(std::string_view key, bool& out) {
  const json* v = FindOfType(key, json::value_t::boolean, "true or false");
  if (!v) return false;
  out = v->get<bool>();
  return true;
}

bool JsonWalker::Strings(std::string_view key, std::vector<std::string>& out) {
  const json* v = Find(key);
  if (!v) return false;
  // A single string is a one-item list everywhere a list is taken.
  const json items = v->is_string() ? json::array({*v}) : *v;
  if (!items.is_array()) {
    Error(key, std::string("expected an array of strings, found ") + JsonKind(*v));
    return false;
  }
  std::vector<std::string> list;
  bool ok = true;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const json& e = items[i];
    // A bare string is reported by its key; an element by its index.
    std::string at = v->is_string() ? std::string(key)
                                    : std::string(key) + "[" + std::to_string(i) + "]";
    if (!e.is_string()) {
      Error(at, std::string("expected a string, found ") + JsonKind(e));
      ok = false;
    } else if (e.get<std::string>().empty()) {
      Error(at, "must not be empty");
      ok = false;
    } else {
      list.push_back(e.get<std::string>());
    }
  }
  if (ok) out = std::move(list);
  return ok;
}

bool JsonWalker::StringMap(std::string_view key, std::map<std::string, std::string>& out) {
  const json* v = FindOfType(key, json::value_t::object, "an object of strings");
  if (!v) return false;
  std::map<std::string, std::string> map;
  bool ok = true;
  for (auto it = v->begin(); it != v->end(); ++it) {
    if (!it.value().is_string()) {
      Error(std::string(key) + "." + it.key(),
            std::string("expected a string, found ") + JsonKind(it.value()));
      ok = false;
      continue;
    }
    map[it.key()] = it.value().get<std::string>();
  }
  if (ok) out = std::move(map);
  return ok;
}

bool JsonWalker::Choice(std::string_view key, std::string& out,
                        std::initializer_list<std::string_view> allowed, std::string_view listed) {
  std::string value;
  if (!String(key, value)) return false;
  for (std::string_view a : allowed) {
    if (a == value) {
      out = value;
      return true;
    }
  }
  std::string list(listed);
  if (list.empty()) {
    std::size_t i = 0;
    for (std::string_view a : allowed) {
      if (i > 0) list += i + 1 == allowed.size() ? " or " : ", ";
      list += a;
      ++i;
    }
  }
  Error(key, "expected " + list + ", found '" + value + "'");
  return false;
}

bool JsonWalker::IsNumber(std::string_view key, const json& v, bool whole) {
  if (!v.is_number()) {
    Error(key, std::string("expected a number, found ") + JsonKind(v));
    return false;
  }
  // Whole before range: 0.5 for a count is "not whole", not "too small". A
  // whole value written as a float (3.0, 1e3, or an integer too large for 64
  // bits) is whole, and then judged by its range.
  double d = v.get<double>();
  if (whole && !(std::isfinite(d) && std::floor(d) == d)) {
    Error(key, "expected a whole number, found " + v.dump());
    return false;
  }
  return true;
}

bool JsonWalker::ReadNumber(std::string_view key, double min, double max, bool whole,
                            double& out) {
  const json* v = Find(key);
  if (!v || !IsNumber(key, *v, whole)) return false;
  double d = v->get<double>();
  if (d < min || d > max) {
    std::ostringstream os;
    os << "must be between " << min << " and " << max << ", found " << v->dump();
    Error(key, os.str());
    return false;
  }
  out = d;
  return true;
}

bool JsonWalker::Duration(std::string_view key, std::int64_t& out, std::int64_t min,
                          std::int64_t max) {
  const json* v = Find(key);
  if (!v) return false;
  std::int64_t seconds = 0;
  if (v->is_string()) {
    auto parsed = ParseDurationSeconds(v->get<std::string>());
    if (!parsed.ok()) {
      Error(key, parsed.status().message());
      return false;
    }
    seconds = *parsed;
  } else if (v->is_number()) {
    if (!IsNumber(key, *v, /*whole=*/true)) return false;
    double d = v->get<double>();
    seconds = d < static_cast<double>(min)   ? min - 1
              : d > static_cast<double>(max) ? max + 1
                                             : static_cast<std::int64_t>(d);
  } else {
    Error(key, std::string("expected a duration like \"30m\" or a number of seconds, found ") +
                   JsonKind(*v));
    return false;
  }
  if (seconds < min || seconds > max) {
    Error(key, "must be between " + FormatDuration(min) + " and " +
                   (max >= kLongestDurationSeconds ? std::string("10 years")
                                                   : FormatDuration(max)) +
                   ", found " + v->dump());
    return false;
  }
  out = seconds;
  return true;
}

}  // namespace dp
