#include "base/recording_command_runner.h"

#include "base/command_capture.h"

namespace dp {

RecordingCommandRunner::RecordingCommandRunner(CommandRunner& inner, std::string dir)
    : inner_(inner), dir_(std::move(dir)) {}

Result<CommandOutput> RecordingCommandRunner::Run(const CommandSpec& spec) {
  Result<CommandOutput> result = inner_.Run(spec);
  CommandCapture capture;
  capture.argv = spec.argv;
  if (result.ok()) capture.output = result.value();
  else capture.error = result.status();
  MutexLock lock(mu_);
  Status s = WriteCapture(dir_, ++count_, capture);
  if (!s.ok()) write_errors_.push_back(s);
  return result;
}

std::vector<Status> RecordingCommandRunner::write_errors() const {
  MutexLock lock(mu_);
  return write_errors_;
}

int RecordingCommandRunner::count() const {
  MutexLock lock(mu_);
  return count_;
}

}  // namespace dp
