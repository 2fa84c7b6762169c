// Helpers shared by the bench tests: running the CLI as a child, and a file
// with known contents on an O_DIRECT-capable file system.
#pragma once

#include <string>
#include <vector>

namespace dp::testing {

struct CliResult {
  int exit_code = -1;
  std::string out, err;
};

// Runs DP_CLI_BIN with args; `uid` >= 0 drops to that user first.
CliResult RunCli(const std::vector<std::string>& args, int uid = -1);

// Deterministic contents for offset `offset` of a test file (any length).
std::string PatternBytes(std::uint64_t offset, std::size_t length);

}  // namespace dp::testing
