// RecordingCommandRunner: wraps another CommandRunner, passes every command
// through, and saves each argv with its stdout, stderr and exit code (or the
// runner's error) under DIR (format in command_capture.h), so
// ReplayCommandRunner can play the session back. Used by `diskpulse record`.
// Thread-safe; captures are numbered in the order the commands finished.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "base/command_runner.h"
#include "base/thread_annotations.h"

namespace dp {

class RecordingCommandRunner final : public CommandRunner {
 public:
  // `inner` must outlive this object.
  RecordingCommandRunner(CommandRunner& inner, std::string dir);

  Result<CommandOutput> Run(const CommandSpec& spec) override;

  // Problems writing the recording (the commands themselves still ran).
  std::vector<Status> write_errors() const;
  int count() const;

 private:
  CommandRunner& inner_;
  std::string dir_;
  mutable Mutex mu_;
  int count_ GUARDED_BY(mu_) = 0;
  std::vector<Status> write_errors_ GUARDED_BY(mu_);
};

}  // namespace dp
