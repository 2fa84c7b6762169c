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

// Runs `diskpulse bench` with args; `uid` >= 0 drops to that user first.
// `binary` defaults to DP_CLI_BIN; a test that drops privileges passes a
// StagedBinary's path, which that user can reach.
CliResult RunCli(const std::vector<std::string>& args, int uid = -1,
                 const std::string& binary = "");

// Deterministic contents for offset `offset` of a test file (any length).
std::string PatternBytes(std::uint64_t offset, std::size_t length);

}  // namespace dp::testing
