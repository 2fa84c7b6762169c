// FreeBSD `diskinfo -v` output.
#include "fuzz/fuzz_input.h"
#include "inventory/diskinfo_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto info = dp::ParseDiskinfo(dp::fuzz::AsText(data, size));
  if (!info.ok()) DP_FUZZ_CHECK(!info.status().message().empty());
  return 0;
}
