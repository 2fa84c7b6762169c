#include "base/replay_command_runner.h"

#include <filesystem>

namespace dp {

std::vector<std::string> ReplayCommandRunner::Key(const std::vector<std::string>& argv) {
  std::vector<std::string> key = argv;
  if (!key.empty()) key[0] = std::filesystem::path(key[0]).filename().string();
  return key;
}

Result<std::unique_ptr<ReplayCommandRunner>> ReplayCommandRunner::Load(const std::string& dir) {
  DP_ASSIGN_OR_RETURN(auto captures, ReadCaptures(dir));
  auto runner = std::make_unique<ReplayCommandRunner>();
  runner->source_ = "recording " + dir;
  for (auto& c : captures) runner->Add(std::move(c));
  return runner;
}

void ReplayCommandRunner::Add(CommandCapture capture) {
  MutexLock lock(mu_);
  entries_[Key(capture.argv)].captures.push_back(std::move(capture));
}

void ReplayCommandRunner::AddOutput(std::vector<std::string> argv, std::string stdout_text,
                                    int exit_code, std::string stderr_text) {
  CommandCapture c;
  c.argv = std::move(argv);
  c.output.stdout_text = std::move(stdout_text);
  c.output.stderr_text = std::move(stderr_text);
  c.output.exit_code = exit_code;
  Add(std::move(c));
}

void ReplayCommandRunner::AddError(std::vector<std::string> argv, Status error) {
  CommandCapture c;
  c.argv = std::move(argv);
  c.error = std::move(error);
  Add(std::move(c));
}

Result<CommandOutput> ReplayCommandRunner::Run(const CommandSpec& spec) {
  if (spec.argv.empty() || spec.argv[0].empty()) return InvalidArgument("empty command");
  MutexLock lock(mu_);
  calls_.push_back(spec.argv);
  auto it = entries_.find(Key(spec.argv));
  if (it == entries_.end() || it->second.captures.empty()) {
    return NotFound(FormatArgv(spec.argv) + ": not in " + source_);
  }
  Entry& e = it->second;
  const CommandCapture& c = e.captures[std::min(e.next, e.captures.size() - 1)];
  if (e.next < e.captures.size()) ++e.next;
  if (!c.error.ok()) return c.error;
  return c.output;
}

std::vector<std::vector<std::string>> ReplayCommandRunner::calls() const {
  MutexLock lock(mu_);
  return calls_;
}

}  // namespace dp
