// CommandRunner: runs an external tool (smartctl, zpool, geom, ...) from an argv,
// never through a shell (ARCHITECTURE.md "Seams"; ninja's CommandRunner). The exit
// code is data: smartctl's is a bitmask, so a non-zero exit is not an error here.
// PosixCommandRunner is the real one; ReplayCommandRunner (smart/inventory)
// replays recorded captures. Implementations are safe to call from any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace dp {

struct CommandSpec {
  std::vector<std::string> argv;                  // argv[0] is looked up in PATH
  std::chrono::milliseconds timeout{30'000};      // the child (and its group) is killed after this
  std::size_t max_output_bytes = 16 * 1024 * 1024;  // per stream; the rest is discarded
  // Written to the child's stdin, which is then closed; nullopt = /dev/null.
  // A child that exits without reading it all is not an error (the rest is
  // dropped; no SIGPIPE reaches the caller).
  std::optional<std::string> stdin_data;
};

struct CommandOutput {
  int exit_code = 0;          // WEXITSTATUS, or -1 when killed by a signal
  int term_signal = 0;        // the signal that ended the child, 0 if it exited
  std::string stdout_text;
  std::string stderr_text;
  bool stdout_truncated = false;
  bool stderr_truncated = false;
  double seconds = 0;
};

// "smartctl -x -j /dev/sda"; quotes arguments that need it. For logs and errors only.
std::string FormatArgv(const std::vector<std::string>& argv);

class CommandRunner {
 public:
  virtual ~CommandRunner() = default;
  // Errors: NotFound ("<tool> not found") when argv[0] cannot be executed;
  // Timeout when the child outlived spec.timeout (it has been killed);
  // InvalidArgument for an empty argv. Any exit code is a success.
  virtual Result<CommandOutput> Run(const CommandSpec& spec) = 0;
};

class PosixCommandRunner final : public CommandRunner {
 public:
  Result<CommandOutput> Run(const CommandSpec& spec) override;
};

}  // namespace dp
