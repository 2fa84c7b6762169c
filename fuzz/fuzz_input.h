// Helpers shared by the fuzz targets: the input as a string_view, split into
// fields for targets that take several strings, and a check that aborts (so
// libFuzzer and the plain driver both report it) when a property breaks.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace dp::fuzz {

inline std::string_view AsText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Splits at every 0x1f byte (ASCII unit separator) into at most n fields; the
// last field keeps the rest. Missing fields are empty.
inline std::vector<std::string> Fields(std::string_view text, std::size_t n) {
  std::vector<std::string> out;
  while (out.size() + 1 < n) {
    auto at = text.find('\x1f');
    if (at == std::string_view::npos) break;
    out.emplace_back(text.substr(0, at));
    text.remove_prefix(at + 1);
  }
  out.emplace_back(text);
  out.resize(n);
  return out;
}

#define DP_FUZZ_CHECK(cond)                                                        \
  do {                                                                             \
    if (!(cond)) {                                                                 \
      std::fprintf(stderr, "%s:%d: property broken: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                \
    }                                                                              \
  } while (0)

}  // namespace dp::fuzz
