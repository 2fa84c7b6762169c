// smartctl's JSON (`smartctl -x -j`, and `-c -l selftest -j`) as the SMART
// reader and the self-test poller parse it. The first byte picks the exit
// status smartctl is said to have returned (a bitmask; none for 0xff).
#include <optional>

#include "fuzz/fuzz_input.h"
#include "smart/self_test.h"
#include "smart/smartctl_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto text = dp::fuzz::AsText(data, size);
  std::optional<int> exit_code;
  if (!text.empty() && text[0] != '{') {
    if (static_cast<unsigned char>(text[0]) != 0xff) exit_code = static_cast<unsigned char>(text[0]);
    text.remove_prefix(1);
  }
  auto reading = dp::ParseSmartctlOutput(text, exit_code);
  if (!reading.ok()) DP_FUZZ_CHECK(!reading.status().message().empty());
  auto progress = dp::ParseSelfTestProgress(text, exit_code);
  if (!progress.ok()) DP_FUZZ_CHECK(!progress.status().message().empty());
  return 0;
}
