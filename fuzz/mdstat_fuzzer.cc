// Linux /proc/mdstat (md RAID arrays as pools).
#include "fuzz/fuzz_input.h"
#include "inventory/mdstat_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto pools = dp::ParseMdstat(dp::fuzz::AsText(data, size));
  if (!pools.ok()) DP_FUZZ_CHECK(!pools.status().message().empty());
  return 0;
}
