// RebaselineMark: a re-baseline request. From `at` on, the drive's own
// baselines (of `test`, or of every test when test is "") are formed anew
// from the runs that start at or after it (detect's baseline_since), and the
// drive's slowdown and trend alerts close. Requests are kept as history.
// Plain value type.
#pragma once

#include <cstdint>
#include <string>

namespace dp {

struct RebaselineMark {
  std::int64_t id = 0;
  std::string drive_id;  // required: a known drive
  std::string test;      // "" = every test of the drive
  std::int64_t at = 0;   // unix seconds
  std::string reason;    // "firmware changed from A to B", "new cable", ...
  std::string who;       // "api 127.0.0.1", "discovery", ...
};

}  // namespace dp
