// Conversions between model lists and the JSON text kept in some columns
// (drives.stable_paths, smart_snapshots.attributes/attribute_values/self_tests/
// messages).
// Pure functions; a column that does not parse reads back as empty rather
// than failing the whole query.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/smart_snapshot.h"

namespace dp {

std::string StringsToJson(const std::vector<std::string>& list);
std::vector<std::string> StringsFromJson(const std::string& text);

std::string SmartAttributesToJson(const std::vector<SmartAttribute>& attributes);
std::vector<SmartAttribute> SmartAttributesFromJson(const std::string& text);

// smart_snapshots.attribute_values: each attribute's id, value and raw as one
// flat array [id, value, raw, id, value, raw, ...] (null where not reported),
// what a chart of the attributes over time reads; under a tenth of the
// whole list's text. FromJson gives the attributes with only those three fields set, or
// nullopt when the text is not such an array (read the whole list instead).
std::string SmartAttributeValuesToJson(const std::vector<SmartAttribute>& attributes);
std::optional<std::vector<SmartAttribute>> SmartAttributeValuesFromJson(const std::string& text);

std::string SmartSelfTestsToJson(const std::vector<SmartSelfTest>& tests);
std::vector<SmartSelfTest> SmartSelfTestsFromJson(const std::string& text);

}  // namespace dp
