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

// smart_snapshots.attribute_values: what a chart of the attributes over time
// reads, as one flat array: "raw_string", then each attribute's id, value,
// raw and smartctl's raw.string ([..., id, value, raw, "26 (Min/Max 18/41)",
// ...]; null where not reported), a small part of the whole list's text; the
// string is what a packed raw value means to a person. Rows written before
// the strings were kept are [id, value, raw, ...] and are still read.
// FromJson gives the attributes with only those fields set, or nullopt when
// the text is neither (read the whole list instead).
std::string SmartAttributeValuesToJson(const std::vector<SmartAttribute>& attributes);
std::optional<std::vector<SmartAttribute>> SmartAttributeValuesFromJson(const std::string& text);

std::string SmartSelfTestsToJson(const std::vector<SmartSelfTest>& tests);
std::vector<SmartSelfTest> SmartSelfTestsFromJson(const std::string& text);

}  // namespace dp
