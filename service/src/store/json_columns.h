// Conversions between model lists and the JSON text kept in some columns
// (drives.stable_paths, smart_snapshots.attributes/self_tests/messages).
// Pure functions; a column that does not parse reads back as empty rather
// than failing the whole query.
#pragma once

#include <string>
#include <vector>

#include "model/smart_snapshot.h"

namespace dp {

std::string StringsToJson(const std::vector<std::string>& list);
std::vector<std::string> StringsFromJson(const std::string& text);

std::string SmartAttributesToJson(const std::vector<SmartAttribute>& attributes);
std::vector<SmartAttribute> SmartAttributesFromJson(const std::string& text);

std::string SmartSelfTestsToJson(const std::vector<SmartSelfTest>& tests);
std::vector<SmartSelfTest> SmartSelfTestsFromJson(const std::string& text);

}  // namespace dp
