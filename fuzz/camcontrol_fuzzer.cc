// FreeBSD `camcontrol identify` and `camcontrol devlist` output.
#include "fuzz/fuzz_input.h"
#include "inventory/camcontrol_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto text = dp::fuzz::AsText(data, size);
  auto id = dp::ParseCamcontrolIdentify(text);
  if (!id.ok()) DP_FUZZ_CHECK(!id.status().message().empty());
  dp::ParseCamcontrolDevlist(text);
  return 0;
}
