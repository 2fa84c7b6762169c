// ReplayCommandRunner: a CommandRunner that runs nothing and answers from
// recorded captures (ARCHITECTURE.md "Seams"): the recording made by
// `diskpulse record DIR`, or captures a test adds by hand. A user's bug report
// becomes a test, and a NAS can be demonstrated on a laptop.
//
// Matching: the argv must equal a recorded one, except that argv[0] is
// compared by basename ("/usr/local/sbin/smartctl" matches "smartctl").
// When the same argv was recorded several times (polling a self-test), the
// captures are replayed in order and the last one repeats. An argv that was
// never recorded gives NotFound naming the command and the recording.
// Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/command_capture.h"
#include "base/command_runner.h"
#include "base/thread_annotations.h"

namespace dp {

class ReplayCommandRunner final : public CommandRunner {
 public:
  ReplayCommandRunner() = default;

  // Loads DIR/commands/* (see command_capture.h).
  static Result<std::unique_ptr<ReplayCommandRunner>> Load(const std::string& dir);

  void Add(CommandCapture capture);
  void AddOutput(std::vector<std::string> argv, std::string stdout_text, int exit_code = 0,
                 std::string stderr_text = "");
  void AddError(std::vector<std::string> argv, Status error);

  Result<CommandOutput> Run(const CommandSpec& spec) override;

  // Every argv Run() was asked for, in order (for tests).
  std::vector<std::vector<std::string>> calls() const;

 private:
  struct Entry {
    std::vector<CommandCapture> captures;
    std::size_t next = 0;
  };
  static std::vector<std::string> Key(const std::vector<std::string>& argv);

  std::string source_ = "the replay captures";
  mutable Mutex mu_;
  std::map<std::vector<std::string>, Entry> entries_ GUARDED_BY(mu_);
  std::vector<std::vector<std::string>> calls_ GUARDED_BY(mu_);
};

}  // namespace dp
