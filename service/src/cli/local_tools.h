// What the CLI's local commands (drives, pools, smart, record) share: the
// flags that choose a configuration file and a replayed recording, and the
// CommandRunner that follows from them (the real one, or a
// ReplayCommandRunner answering from the recording).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/command_runner.h"
#include "base/result.h"
#include "config/config.h"

namespace dp::cli {

struct LocalOptions {
  std::string config_path;  // -c/--config FILE; "" = built-in defaults
  std::string replay_dir;   // --replay DIR
  std::optional<std::string> from_file;  // --from-file FILE ("-" = stdin)
  bool json = false;        // --json
  bool help = false;        // -h/--help
};

// Consumes -c/--config, --replay, --from-file, --json and -h/--help from args
// (also "--flag=value"); what is left is returned in `rest`. InvalidArgument
// for a flag missing its value.
Result<LocalOptions> ParseLocalOptions(const std::vector<std::string>& args,
                                       std::vector<std::string>& rest);

// The configuration (file or defaults), adjusted for --replay.
Result<Config> LoadLocalConfig(const LocalOptions& options);

// PosixCommandRunner, or the recording's ReplayCommandRunner.
Result<std::unique_ptr<CommandRunner>> MakeLocalRunner(const LocalOptions& options);

// The whole text of FILE, or of stdin for "-". NotFound "FILE: cannot read".
Result<std::string> ReadInput(const std::string& path);

// Prints "diskpulse CMD: MESSAGE" (and the usage, if given) to stderr; returns 2.
int UsageError(const char* command, const std::string& message, const char* usage = nullptr);

// "4.00 TB", "500 GB"; "-" for 0.
std::string FormatSize(std::uint64_t bytes);

}  // namespace dp::cli
