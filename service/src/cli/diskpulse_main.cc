// diskpulse: the command-line tool. Talks to the daemon (status, run, alerts)
// and works on its own for one-off checks (bench, smart, drives, pools).
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "base/log.h"
#include "cli/commands.h"

namespace {

struct Subcommand {
  const char* name;
  int (*fn)(const dp::cli::Args&);
  const char* summary;
};

constexpr Subcommand kSubcommands[] = {
    {"status", dp::cli::RunStatusCommand, "ask the daemon for its health and drives"},
    {"drives", dp::cli::RunDrivesCommand, "list the drives on this machine"},
    {"pools", dp::cli::RunPoolsCommand, "list storage pools, vdevs and members"},
    {"smart", dp::cli::RunSmartCommand, "read a drive's SMART health"},
    {"bench", dp::cli::RunBenchCommand, "run read-only drive tests now"},
    {"record", dp::cli::RunRecordCommand, "record every tool's output for a bug report"},
    {"run", dp::cli::RunRunCommand, "ask the daemon to test a drive now"},
    {"alerts", dp::cli::RunAlertsCommand, "list, acknowledge or test alerts"},
    {"rebaseline", dp::cli::RunRebaselineCommand, "start a drive's baselines anew"},
    {"backup", dp::cli::RunBackupCommand, "copy the daemon's database while it runs"},
    {"forget", dp::cli::RunForgetCommand, "retire a drive that is gone for good"},
    {"export", dp::cli::RunExportCommand, "everything kept about a drive, as CSV or JSON"},
};

void Usage(std::FILE* out) {
  std::fprintf(out, "usage: diskpulse COMMAND [ARGS...]\n\ncommands:\n");
  for (const auto& s : kSubcommands) std::fprintf(out, "  %-10s %s\n", s.name, s.summary);
  std::fprintf(out, "\n'diskpulse COMMAND --help' tells more. --version prints the version.\n");
}

}  // namespace

int main(int argc, char** argv) {
  dp::ConfigureLogging(dp::LogLevel::kWarning, dp::LogTarget::kStderr, "diskpulse");
  if (argc < 2) {
    Usage(stderr);
    return 2;
  }
  std::string_view cmd = argv[1];
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    Usage(stdout);
    return 0;
  }
  if (cmd == "--version" || cmd == "version") {
    std::printf("diskpulse %s\n", DP_VERSION);
    return 0;
  }
  dp::cli::Args args(argv + 2, argv + argc);
  for (const auto& s : kSubcommands) {
    if (cmd == s.name) return s.fn(args);
  }
  std::fprintf(stderr, "diskpulse: unknown command '%s'\n\n", argv[1]);
  Usage(stderr);
  return 2;
}
