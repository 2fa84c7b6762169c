// Parsing `zpool status` into Pools: the text of
// `zpool status [-P] [-p] [-v]` as printed by OpenZFS on Linux and FreeBSD,
// Solaris and illumos (old "scrub:"/"reason:" spellings, hand-pasted
// indentation, import-style rows without counters, nested replacing/spare
// vdevs, logs/cache/spares/special/dedup sections), and the JSON of
// `zpool status -j [--json-int]` (OpenZFS >= 2.3). Pure functions.
// Text in zpool_status_text.cc, JSON in zpool_status_json.cc, what both
// share (and the choice between them) in zpool_status_parser.cc.
#pragma once

#include <string_view>
#include <vector>

#include "base/result.h"
#include "model/pool.h"

namespace dp {

// Text. "no pools available" gives an empty list. Corrupt, with what was not
// understood, for output in a format this parser does not know.
Result<std::vector<Pool>> ParseZpoolStatusText(std::string_view text);

// `zpool status -j` JSON (numbers as integers or strings).
Result<std::vector<Pool>> ParseZpoolStatusJson(std::string_view text);

// Either of the above, chosen by the first non-blank character.
Result<std::vector<Pool>> ParseZpoolStatus(std::string_view text);

// "mirror-0" -> "mirror", "raidz-1"/"raidz1-0" -> "raidz1", "draid2:4d:1s-0"
// -> "draid", "replacing-1" -> "replacing", "spare-0" -> "spare", else "disk".
std::string VdevTypeFromName(std::string_view name);

}  // namespace dp
