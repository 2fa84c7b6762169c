#include "config/json_kind.h"

namespace dp {

const char* JsonKind(const nlohmann::json& value) {
  using Type = nlohmann::json::value_t;
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

}  // namespace dp
