// JsonKind: how configuration error messages name the type of a JSON value
// ("expected a string, found an array"). Pure; shared by every config reader.
#pragma once

#include <nlohmann/json.hpp>

namespace dp {

// "null", "a boolean", "an integer", "a number", "a string", "an array",
// "an object" (or "something else").
const char* JsonKind(const nlohmann::json& value);

}  // namespace dp
