// The command line of diskpulsed, parsed. Pure.
//   diskpulsed [-c FILE] [--foreground] [--pidfile FILE] [--check-config]
//              [--version] [--help] [--replay DIR] [--demo]
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace dp {

// Where diskpulsed looks when -c is not given.
extern const char* const kDefaultConfigPath;

struct DaemonArgs {
  std::string config_path = kDefaultConfigPath;
  bool foreground = false;    // stay attached to the terminal, log to stderr
  std::optional<std::string> pidfile;  // overrides the config's "pidfile" (rc.d uses it)
  bool check_config = false;  // parse the configuration, report, exit
  bool show_schedule = false; // print the next runs of every schedule, exit
  bool version = false;
  bool help = false;
  std::string replay_dir;     // --replay DIR: answer tools from a `diskpulse record` recording
  bool demo = false;          // --demo: simulated drives in a temporary database (demo/demo_mode.h)
  int demo_weeks = 104;       // --demo-weeks N: weeks of seeded history (tests use fewer)
};

// InvalidArgument with a one-line reason for an unknown flag or a missing value.
Result<DaemonArgs> ParseDaemonArgs(const std::vector<std::string>& args);

// The usage text (ends with a newline).
std::string DaemonUsage();

}  // namespace dp
