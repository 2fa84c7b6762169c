// The configuration file (JSON with comments): every section, schedules and
// alerts included. An error must name a place (FILE:LINE: key: ...).
#include <string>

#include "config/config.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto config = dp::ParseConfig(dp::fuzz::AsText(data, size), "/etc/diskpulse.json");
  if (!config.ok())
    DP_FUZZ_CHECK(config.status().message().rfind("/etc/diskpulse.json", 0) == 0);
  return 0;
}
