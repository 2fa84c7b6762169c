// FreeBSD `geom disk list` and `glabel status` output.
#include "fuzz/fuzz_input.h"
#include "inventory/geom_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto text = dp::fuzz::AsText(data, size);
  auto disks = dp::ParseGeomDiskList(text);
  if (!disks.ok()) DP_FUZZ_CHECK(!disks.status().message().empty());
  dp::ParseGlabelStatus(text);
  return 0;
}
