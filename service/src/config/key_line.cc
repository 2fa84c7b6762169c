#include "config/key_line.h"

#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

namespace dp {
namespace {

constexpr std::size_t kNone = std::string_view::npos;

// Skips whitespace and comments.
std::size_t SkipSpace(std::string_view t, std::size_t i) {
  while (i < t.size()) {
    if (std::isspace(static_cast<unsigned char>(t[i]))) {
      ++i;
    } else if (t.compare(i, 2, "//") == 0) {
      i = t.find('\n', i);
      if (i == kNone) return t.size();
    } else if (t.compare(i, 2, "/*") == 0) {
      i = t.find("*/", i + 2);
      if (i == kNone) return t.size();
      i += 2;
    } else {
      break;
    }
  }
  return i;
}

// Just past the string that opens at t[i] == '"'.
std::size_t StringEnd(std::string_view t, std::size_t i) {
  for (++i; i < t.size(); ++i) {
    if (t[i] == '\\')
      ++i;
    else if (t[i] == '"')
      return i + 1;
  }
  return t.size();
}

// Just past the value that starts at t[i].
std::size_t ValueEnd(std::string_view t, std::size_t i) {
  if (i >= t.size()) return t.size();
  if (t[i] == '"') return StringEnd(t, i);
  if (t[i] == '{' || t[i] == '[') {
    int depth = 0;
    while (i < t.size()) {
      char c = t[i];
      if (c == '"') {
        i = StringEnd(t, i);
        continue;
      }
      if (c == '/' && (t.compare(i, 2, "//") == 0 || t.compare(i, 2, "/*") == 0)) {
        i = SkipSpace(t, i);
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') {
        if (--depth == 0) return i + 1;
      }
      ++i;
    }
    return t.size();
  }
  while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']' && t[i] != '/' &&
         !std::isspace(static_cast<unsigned char>(t[i])))
    ++i;
  return i;
}

// In the object opening at t[obj] == '{', the position of its own key
// `name` (not a nested one's), or kNone.
std::size_t FindMember(std::string_view t, std::size_t obj, std::string_view name) {
  if (obj >= t.size() || t[obj] != '{') return kNone;
  std::size_t i = obj + 1;
  while (true) {
    i = SkipSpace(t, i);
    if (i >= t.size() || t[i] != '"') return kNone;
    std::size_t key = i, key_end = StringEnd(t, i);
    i = SkipSpace(t, key_end);
    if (i >= t.size() || t[i] != ':') return kNone;
    if (t.substr(key + 1, key_end - key - 2) == name) return key;
    i = ValueEnd(t, SkipSpace(t, i + 1));
    i = SkipSpace(t, i);
    if (i < t.size() && t[i] == ',') ++i;
  }
}

// In the array opening at t[arr] == '[', the start of element n, or kNone.
std::size_t FindElement(std::string_view t, std::size_t arr, std::size_t n) {
  if (arr >= t.size() || t[arr] != '[') return kNone;
  std::size_t i = SkipSpace(t, arr + 1);
  for (std::size_t k = 0; i < t.size() && t[i] != ']'; ++k) {
    if (k == n) return i;
    i = SkipSpace(t, ValueEnd(t, i));
    if (i < t.size() && t[i] == ',') i = SkipSpace(t, i + 1);
  }
  return kNone;
}

// The value that follows the key at t[key].
std::size_t ValueOfKey(std::string_view t, std::size_t key) {
  std::size_t i = SkipSpace(t, StringEnd(t, key));
  return SkipSpace(t, i + 1);  // past ':'
}

int LineAt(std::string_view t, std::size_t pos) {
  int line = 1;
  for (std::size_t i = 0; i < pos && i < t.size(); ++i)
    if (t[i] == '\n') ++line;
  return line;
}

}  // namespace

int LineOfKeyPath(std::string_view text, std::string_view path) {
  std::size_t value = SkipSpace(text, 0);  // the root object
  std::size_t found = kNone;               // the last thing located
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t dot = path.find('.', start);
    std::string_view part = path.substr(start, dot == kNone ? kNone : dot - start);
    std::string_view name = part.substr(0, part.find('['));
    std::size_t key = FindMember(text, value, name);
    if (key == kNone) break;
    found = key;
    value = ValueOfKey(text, key);
    // Indices: "targets[1]", "a[0][2]".
    for (std::size_t b = part.find('['); b != kNone; b = part.find('[', b + 1)) {
      std::size_t n = std::strtoul(std::string(part.substr(b + 1)).c_str(), nullptr, 10);
      std::size_t element = FindElement(text, value, n);
      if (element == kNone) return LineAt(text, found);
      found = value = element;
    }
    if (dot == kNone) break;
    start = dot + 1;
  }
  return found == kNone ? 0 : LineAt(text, found);
}

bool IsBlankJson(std::string_view text) { return SkipSpace(text, 0) >= text.size(); }

}  // namespace dp
