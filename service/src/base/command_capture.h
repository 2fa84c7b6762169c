// CommandCapture: one recorded run of an external tool (argv, stdout, stderr,
// exit code, or the error the runner gave), and its on-disk form, shared by
// RecordingCommandRunner (writes) and ReplayCommandRunner (reads).
//
// A recording directory holds one folder per command, in the order they ran:
//   DIR/commands/0001/argv     one argument per line ("\n" and "\\" escaped)
//   DIR/commands/0001/stdout   the bytes the tool wrote, verbatim
//   DIR/commands/0001/stderr
//   DIR/commands/0001/result   "exit_code 0\nterm_signal 0\n", or for a runner
//                              error "status not found\nmessage smartctl not found\n"
// The files are plain text on purpose: a user can read, trim or hand-edit a
// recording before attaching it to a bug report. Plain value types.
#pragma once

#include <string>
#include <vector>

#include "base/command_runner.h"
#include "base/result.h"

namespace dp {

struct CommandCapture {
  std::vector<std::string> argv;
  Status error;            // not OK: the runner failed (tool missing, timeout); output unused
  CommandOutput output;
};

// "DIR/commands".
std::string CaptureFolder(const std::string& dir);

// Writes capture number `index` (1-based) under DIR/commands/.
Status WriteCapture(const std::string& dir, int index, const CommandCapture& capture);

// Reads every capture under DIR/commands/, in folder-name order. NotFound when
// DIR/commands does not exist; Corrupt (naming the file) for a malformed one.
Result<std::vector<CommandCapture>> ReadCaptures(const std::string& dir);

// Inverse of StatusCodeName(); kInternal for an unknown name.
StatusCode StatusCodeFromName(std::string_view name);

}  // namespace dp
