// JsonWalker: reads one object of the configuration file into typed fields.
// Every section (the core keys, targets, schedules, scheduler, alerts) is read
// through it, so the file has one set of rules and one message format,
// "FILE:LINE: key.path: what is wrong", all problems reported at once:
//   - a value of the wrong type: "expected a string, found an integer";
//   - a number: whole where the field is whole ("expected a whole number,
//     found 1.5"; 3.0 and 1e3 are whole), checked before its range ("must be
//     between 1 and 64, found 0"), so 0.5 is "not whole" rather than "too small";
//   - a list of strings also takes a single string as a one-item list, and
//     names a bad element by its index ("include[1]: expected a string");
//     an empty string is never a useful element ("must not be empty");
//   - a duration: "30m"-style text or whole seconds, then its range;
//   - an enumerated string: "expected a, b or c, found 'x'";
//   - a key the walker was never asked for: "unknown key (misspelt?)",
//     reported when the walker goes out of scope.
// LINE is that of the key (or element) named, found by LineOfKeyPath.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace dp {

// "null", "a boolean", "an integer", "a number", "a string", "an array",
// "an object" (or "something else").
const char* JsonKind(const nlohmann::json& value);

// The problems found in one configuration text, each on its own line.
class ConfigProblems {
 public:
  ConfigProblems(std::string_view text, std::string_view file) : text_(text), file_(file) {}

  // path: "http.max_connections", "schedules[2].when", "alerts.mail[0].to[1]".
  void Add(const std::string& path, std::string_view what);
  // "FILE:LINE" of the key at path (just "FILE" when it cannot be found).
  std::string Where(const std::string& path) const;
  std::size_t count() const { return lines_.size(); }
  bool empty() const { return lines_.empty(); }
  std::string Joined() const;

 private:
  std::string_view text_;
  std::string_view file_;
  std::vector<std::pair<int, std::string>> lines_;  // (line, or INT_MAX when unknown; text)
};

class JsonWalker {
 public:
  // path: where `object` sits ("" for the root, "alerts.webhooks[1]").
  JsonWalker(const nlohmann::json& object, std::string path, ConfigProblems& problems)
      : object_(object), path_(std::move(path)), problems_(problems) {}
  ~JsonWalker();  // reports the keys never asked for
  JsonWalker(const JsonWalker&) = delete;
  JsonWalker& operator=(const JsonWalker&) = delete;

  // The full path of a key of this object; key may carry an index ("to[1]").
  std::string Path(std::string_view key) const;
  void Error(std::string_view key, std::string_view what);
  ConfigProblems& problems() { return problems_; }

  // The key's value (nullptr when absent); marks the key as known.
  const nlohmann::json* Find(std::string_view key);
  // Reports "required: <what>" when the key is absent; true when present.
  bool Required(std::string_view key, std::string_view what);

  // Each reader leaves `out` as it was when the key is absent or wrong, and
  // returns true only when it stored a value.
  // `expected` names the value in a type error ("a cron expression ...").
  bool String(std::string_view key, std::string& out, std::string_view expected = "a string");
  bool Bool(std::string_view key, bool& out);
  bool Strings(std::string_view key, std::vector<std::string>& out);
  bool StringMap(std::string_view key, std::map<std::string, std::string>& out);
  // A string that must be one of `allowed`; `listed` replaces the generated
  // "a, b or c" in the message when the list reads better in short.
  bool Choice(std::string_view key, std::string& out,
              std::initializer_list<std::string_view> allowed, std::string_view listed = {});
  template <typename T>
  bool Number(std::string_view key, T& out, double min, double max) {
    double value = 0;
    if (!ReadNumber(key, min, max, std::is_integral_v<T>, value)) return false;
    out = static_cast<T>(value);
    return true;
  }
  // "6h", "1h30m" or a whole number of seconds, within [min, max] seconds.
  bool Duration(std::string_view key, std::int64_t& out, std::int64_t min, std::int64_t max);

  // Calls fn(JsonWalker&) for the object at key.
  template <typename Fn>
  bool Object(std::string_view key, Fn&& fn) {
    const nlohmann::json* v = FindOfType(key, nlohmann::json::value_t::object, "an object");
    if (!v) return false;
    JsonWalker sub(*v, Path(key), problems_);
    fn(sub);
    return true;
  }
  // Calls fn(JsonWalker&, index) for every element of the array of objects
  // at key; an element that is not an object is reported and skipped.
  template <typename Fn>
  bool Objects(std::string_view key, Fn&& fn) {
    const nlohmann::json* v =
        FindOfType(key, nlohmann::json::value_t::array, "an array of objects");
    if (!v) return false;
    for (std::size_t i = 0; i < v->size(); ++i) {
      std::string at = std::string(key) + "[" + std::to_string(i) + "]";
      const nlohmann::json& e = (*v)[i];
      if (!e.is_object()) {
        Error(at, std::string("expected an object, found ") + JsonKind(e));
        continue;
      }
      JsonWalker sub(e, Path(at), problems_);
      fn(sub, i);
    }
    return true;
  }

 private:
  const nlohmann::json* FindOfType(std::string_view key, nlohmann::json::value_t type,
                                   std::string_view expected);
  bool ReadNumber(std::string_view key, double min, double max, bool whole, double& out);
  // Reports a value at key that is not a number, or not a whole one.
  bool IsNumber(std::string_view key, const nlohmann::json& v, bool whole);

  const nlohmann::json& object_;
  std::string path_;
  ConfigProblems& problems_;
  std::set<std::string, std::less<>> seen_;
};

}  // namespace dp
