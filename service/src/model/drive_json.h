// JSON for a Drive, as `diskpulse drives --json` prints it (and the REST API
// may serve it): {"id","name","dev_path","model","serial","wwn","firmware",
// "size_bytes","logical_block_size","physical_block_size","rotational",
// "rotation_rpm","transport","stable_paths","present"}. Unknown is null.
// Pure functions.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "model/drive.h"

namespace dp {

nlohmann::json DriveToJson(const Drive& d);
// {"drives": [...]}
nlohmann::json DrivesToJson(const std::vector<Drive>& drives);

}  // namespace dp
