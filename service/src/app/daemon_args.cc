#include "app/daemon_args.h"

namespace dp {

#if defined(__FreeBSD__)
const char* const kDefaultConfigPath = "/usr/local/etc/diskpulse/diskpulse.json";
#else
const char* const kDefaultConfigPath = "/etc/diskpulse/diskpulse.json";
#endif

Result<DaemonArgs> ParseDaemonArgs(const std::vector<std::string>& args) {
  DaemonArgs out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-c" || a == "--config") {
      if (i + 1 >= args.size()) return InvalidArgument(a + " needs a FILE");
      out.config_path = args[++i];
    } else if (a.starts_with("--config=")) {
      out.config_path = a.substr(9);
    } else if (a == "-p" || a == "--pidfile") {
      if (i + 1 >= args.size()) return InvalidArgument(a + " needs a FILE");
      out.pidfile = args[++i];
    } else if (a == "-f" || a == "--foreground") {
      out.foreground = true;
    } else if (a == "-n" || a == "--check-config") {
      out.check_config = true;
    } else if (a == "--show-schedule") {
      out.show_schedule = true;
    } else if (a == "-V" || a == "--version") {
      out.version = true;
    } else if (a == "-h" || a == "--help") {
      out.help = true;
    } else if (a == "--demo") {
      out.demo = true;
    } else if (a == "--demo-weeks") {
      if (i + 1 >= args.size()) return InvalidArgument(a + " needs a number of weeks");
      const std::string& v = args[++i];
      if (v.empty() || v.size() > 4 || v.find_first_not_of("0123456789") != std::string::npos ||
          std::stoi(v) < 1 || std::stoi(v) > 1040)
        return InvalidArgument("--demo-weeks needs 1 to 1040, not '" + v + "'");
      out.demo_weeks = std::stoi(v);
      out.demo = true;
    } else if (a == "--replay") {
      if (i + 1 >= args.size()) return InvalidArgument(a + " needs a DIR");
      out.replay_dir = args[++i];
    } else if (a.starts_with("--replay=")) {
      out.replay_dir = a.substr(9);
    } else {
      return InvalidArgument("unknown argument '" + a + "'");
    }
  }
  if (out.config_path.empty()) return InvalidArgument("-c needs a FILE");
  return out;
}

std::string DaemonUsage() {
  return std::string("usage: diskpulsed [-c FILE] [--foreground] [--pidfile FILE] [--check-config]\n"
                     "                  [--version] [--replay DIR] [--demo]\n"
                     "\n"
                     "  -c, --config FILE   configuration (default ") +
         kDefaultConfigPath +
         ")\n"
         "  -f, --foreground    stay in the foreground and log to stderr\n"
         "  -p, --pidfile FILE  write the pid here (overrides \"pidfile\" in the config)\n"
         "  -n, --check-config  check the configuration, print 'configuration OK', exit\n"
         "  --show-schedule     print when each schedule next runs on each drive, exit\n"
         "  -V, --version       print the version\n"
         "  --replay DIR        run no tool: answer from a `diskpulse record DIR` recording\n"
         "  --demo              simulated NAS (raidz2, SLOG, spare; two years of history) in a\n"
         "                      temporary database: the page without real drives\n"
         "  --demo-weeks N      with --demo: N weeks of history instead of 104\n"
         "\n"
         "Signals: SIGHUP reloads the configuration; SIGTERM or SIGINT stop.\n";
}

}  // namespace dp
