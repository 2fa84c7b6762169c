// `zpool status` output, text (`-P`, Linux, FreeBSD, illumos) and JSON
// (OpenZFS 2.3 `-j`), through the parser discovery uses (which picks one by
// the first character) and each parser directly.
#include "fuzz/fuzz_input.h"
#include "inventory/zpool_status_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto text = dp::fuzz::AsText(data, size);
  auto any = dp::ParseZpoolStatus(text);
  auto plain = dp::ParseZpoolStatusText(text);
  auto json = dp::ParseZpoolStatusJson(text);
  for (const auto* r : {&any, &plain, &json})
    if (!r->ok()) DP_FUZZ_CHECK(!r->status().message().empty());
  return 0;
}
