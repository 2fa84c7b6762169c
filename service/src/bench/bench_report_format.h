// Renders BenchReports: the `diskpulse bench --json` contract and
// the human text, laid out like FreeBSD `diskinfo -tv` and CrystalDiskMark.
// Pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "model/bench_result.h"

namespace dp {

// {"target":..., "device":{...}, "engine":..., "results":[...]} plus
// "partial"/"error" when the run ended early. A zone that is a fraction
// ("0.25") is written as a number; seek points carry "stroke" and "access_ms";
// "variant" appears where set (pool-write, parallel).
nlohmann::json BenchReportToJson(const BenchReport& report);

// Multi-line text for people.
std::string FormatBenchReport(const BenchReport& report);

}  // namespace dp
