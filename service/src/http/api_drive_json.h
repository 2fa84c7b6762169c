// The JSON shape of a Drive in the REST API (GET /api/v1/drives): the
// model's shape (dp::DriveToJson in model/drive_json.h, also what
// `diskpulse drives --json` prints) plus what the store knows: first_seen,
// last_seen (unix seconds), explicit_target and controller (the host
// adapter, "" unknown). Pure.
#pragma once

#include <nlohmann/json.hpp>

#include "model/drive.h"

namespace dp::http {

nlohmann::json ApiDriveToJson(const Drive& drive);

}  // namespace dp::http
