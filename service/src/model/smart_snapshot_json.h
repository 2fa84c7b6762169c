// The normalised SMART JSON of `diskpulse smart ... --json`, a stable
// contract shared by the CLI, the REST API and the store: one object with
// protocol, model, serial, wwn, firmware, capacity_bytes, rotation_rpm,
// health_passed, temperature_c, power_on_hours, power_cycles,
// reallocated_sectors, pending_sectors, offline_uncorrectable,
// reported_uncorrectable, command_timeouts, udma_crc_errors, nvme,
// attributes, self_tests, smartctl_exit_status, messages. A value the device
// does not report is null, never 0. Pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "model/smart_snapshot.h"

namespace dp {

nlohmann::json SmartSnapshotToJson(const SmartSnapshot& s);

// Reads the contract back (raw_json and the diagnostics that are not part of
// the contract stay empty). InvalidArgument naming the first bad key.
Result<SmartSnapshot> SmartSnapshotFromJson(const nlohmann::json& j);

}  // namespace dp
