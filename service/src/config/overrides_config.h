// The config file's "overrides": an array of per-drive tunings
// (model/drive_override.h), e.g.
//   {"serial": "ZA1ABCDE", "attribute": "udma_crc_errors", "ignore": true,
//    "reason": "old cable, replaced 2026-10"}
//   {"drive": "wwn-5000c500a1b2c3d4", "device_type": "sat+megaraid,14"}
//   {"model": "ST8000VN*", "attribute": "1", "ignore": true}
//   {"drive": "wwn-...", "mute_until": "2026-12-31", "reason": "being replaced"}
// Each is checked as the API checks one (OverrideProblem) and gets source
// "config", who "config" and `where` = FILE:LINE of its selector. Whether the
// drive it names exists is checked against the database's drives when the
// daemon starts (runs/override_book.h), since parsing knows no drives.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "model/drive_override.h"

namespace dp {

class JsonWalker;

void ReadOverrides(JsonWalker& root, std::vector<DriveOverride>& out);

// "2026-12-31" (midnight UTC), "2026-12-31T18:30Z" or "2026-12-31T18:30:00Z"
// -> unix seconds; nullopt for anything else.
std::optional<std::int64_t> ParseUtcDateTime(std::string_view text);

}  // namespace dp
