// Reading smartctl's JSON, shared by the smartctl parser's files
// (smartctl_parser.cc for what every device has, smartctl_ata.cc,
// smartctl_nvme.cc, smartctl_scsi.cc for each protocol): typed look-ups that
// turn a value of the wrong type or range into a parse warning and nullopt,
// and the few rules more than one protocol applies. Internal to the smart
// module; the public interface is smartctl_parser.h.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dp::smartctl {

using nlohmann::json;

// Walks the document collecting typed values and warnings about values that
// are present but not of the expected type or range.
class Reader {
 public:
  explicit Reader(std::vector<std::string>& warnings) : warnings_(warnings) {}

  // nullptr where a key on the path is missing or a step is not an object.
  const json* Find(const json& j, std::initializer_list<const char*> path);

  std::optional<std::uint64_t> U64(const json& j, std::initializer_list<const char*> path,
                                   std::uint64_t max = std::numeric_limits<std::uint64_t>::max());
  std::optional<int> Int(const json& j, std::initializer_list<const char*> path, int lo, int hi);
  std::optional<bool> Bool(const json& j, std::initializer_list<const char*> path);
  // Trimmed; "" when missing or not a string.
  std::string Str(const json& j, std::initializer_list<const char*> path);

  void Warn(std::string w) { warnings_.push_back(std::move(w)); }

 private:
  // The value at path when (v.*is)() holds; nullptr when it is missing or
  // null, and with a warning ("expected <expected>, got ...") when it is of
  // another type.
  const json* Typed(const json& j, std::initializer_list<const char*> path,
                    bool (json::*is)() const noexcept, const char* expected);

  std::vector<std::string>& warnings_;
};

// t when it is a believable drive temperature; otherwise nullopt and a
// warning naming source.
std::optional<int> CheckedCelsius(std::optional<int> t, const char* source, Reader& r);

// A self-test's type as smartctl spells it ("Short offline", "Extended
// self-test", "Background long") as one word: "short", "extended",
// "conveyance", "selective", "offline", "vendor", else lower-cased.
std::string NormaliseTestType(std::string s);

}  // namespace dp::smartctl
