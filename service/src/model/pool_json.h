// The `diskpulse pools --json` contract, shared by the CLI and the
// REST API: {"pools":[{"name","state","scan":{"function","state","percent"},
// "errors","vdevs":[{"name","type","role","state","members":[{"path","state",
// "read_errors","write_errors","checksum_errors"}]}]}]}. Unknown values are
// null, never 0. Additive keys: pool "kind", member "drive_id" and "note".
// Pure functions.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "model/pool.h"

namespace dp {

nlohmann::json PoolToJson(const Pool& pool);
// {"pools": [...]}
nlohmann::json PoolsToJson(const std::vector<Pool>& pools);

// Reads the contract back ({"pools": [...]} or a single pool object).
// InvalidArgument naming the first bad key.
Result<std::vector<Pool>> PoolsFromJson(const nlohmann::json& j);

}  // namespace dp
