// The JSON shape of a Drive in the REST API (GET /api/v1/drives). Pure.
// Fields are the model's names; unknown optionals are null.
#pragma once

#include <nlohmann/json.hpp>

#include "model/drive.h"

namespace dp::http {

nlohmann::json DriveToJson(const Drive& drive);

}  // namespace dp::http
