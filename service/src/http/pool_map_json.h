// The pool map of the API (GET /api/v1/pools and the overview's "pools"):
// the model's pool shape (PoolToJson, the `diskpulse pools --json`
// contract) with what the page needs on top: each member's drive name, and
// the scan's progress text. Pure.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/pool.h"

namespace dp::http {

// names: drive id -> the name people know it by ("sda"); members whose
// drive is not in it get "drive_name": null.
nlohmann::json PoolMapToJson(const std::vector<Pool>& pools,
                             const std::map<std::string, std::string>& names);

}  // namespace dp::http
