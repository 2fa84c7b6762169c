// Parsing `zpool status` into Pools: the text of
// `zpool status [-P] [-p] [-v]` as printed by OpenZFS on Linux and FreeBSD,
// Solaris and illumos (old "scrub:"/"reason:" spellings, hand-pasted
// indentation, import-style rows without counters, nested replacing/spare
// vdevs, logs/cache/spares/special/dedup sections), and the JSON of
// `zpool status -j [--json-int]` (OpenZFS >= 2.3). Pure functions.
// Text in zpool_status_text.cc, JSON in zpool_status_json.cc, what both
// share (and the choice between them) in zpool_status_parser.cc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "model/pool.h"

namespace dp {

// Text. "no pools available" gives an empty list. Corrupt, with what was not
// understood, for output in a format this parser does not know. A config row
// it cannot place in the vdev tree (one at or left of the pool row that heads
// no section it knows) is left out with the rows under it, and a warning
// naming it goes to `warnings` (may be null): one strange row must not hide
// the pool's state and the rows that were read.
Result<std::vector<Pool>> ParseZpoolStatusText(std::string_view text,
                                               std::vector<std::string>* warnings = nullptr);

// `zpool status -j` JSON (numbers as integers or strings).
Result<std::vector<Pool>> ParseZpoolStatusJson(std::string_view text);

// Either of the above, chosen by the first non-blank character; the text
// parser's warnings go to `warnings` (may be null).
Result<std::vector<Pool>> ParseZpoolStatus(std::string_view text,
                                           std::vector<std::string>* warnings = nullptr);

// "mirror-0" -> "mirror", "raidz-1"/"raidz1-0" -> "raidz1", "draid2:4d:1s-0"
// -> "draid", "replacing-1" -> "replacing", "spare-0" -> "spare", else "disk".
std::string VdevTypeFromName(std::string_view name);

}  // namespace dp
