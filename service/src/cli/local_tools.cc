#include "cli/local_tools.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "base/replay_command_runner.h"
#include "inventory/inventory.h"

namespace dp::cli {

Result<LocalOptions> ParseLocalOptions(const std::vector<std::string>& args,
                                       std::vector<std::string>& rest) {
  LocalOptions o;
  rest.clear();
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* flag, std::string& out) -> Status {
      std::string f(flag);
      if (a == f) {
        if (i + 1 >= args.size()) return InvalidArgument(f + " needs a value");
        out = args[++i];
        return Status::Ok();
      }
      out = a.substr(f.size() + 1);
      return Status::Ok();
    };
    if (a == "--json") {
      o.json = true;
    } else if (a == "-h" || a == "--help") {
      o.help = true;
    } else if (a == "--from-file" || a.rfind("--from-file=", 0) == 0) {
      std::string file;
      DP_RETURN_IF_ERROR(value("--from-file", file));
      o.from_file = file;
    } else if (a == "-c" || a == "--config" || a.rfind("--config=", 0) == 0) {
      DP_RETURN_IF_ERROR(value(a == "-c" ? "-c" : "--config", o.config_path));
    } else if (a == "--replay" || a.rfind("--replay=", 0) == 0) {
      DP_RETURN_IF_ERROR(value("--replay", o.replay_dir));
    } else {
      rest.push_back(a);
    }
  }
  return o;
}

Result<Config> LoadLocalConfig(const LocalOptions& options) {
  Config config;
  if (!options.config_path.empty()) {
    DP_ASSIGN_OR_RETURN(config, LoadConfigFile(options.config_path));
  }
  if (!options.replay_dir.empty()) config = ConfigForReplay(config, options.replay_dir);
  return config;
}

Result<std::unique_ptr<CommandRunner>> MakeLocalRunner(const LocalOptions& options) {
  if (options.replay_dir.empty()) return std::unique_ptr<CommandRunner>(new PosixCommandRunner());
  auto replay = ReplayCommandRunner::Load(options.replay_dir);
  if (!replay.ok()) return replay.status().WithContext("--replay " + options.replay_dir);
  return std::unique_ptr<CommandRunner>(std::move(replay).value());
}

Result<std::string> ReadInput(const std::string& path) {
  std::ostringstream ss;
  if (path == "-") {
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound(path + ": cannot read");
  ss << in.rdbuf();
  return ss.str();
}

int UsageError(const char* command, const std::string& message, const char* usage) {
  std::fprintf(stderr, "diskpulse %s: %s\n%s", command, message.c_str(), usage ? usage : "");
  return 2;
}

std::string FormatSize(std::uint64_t bytes) {
  if (bytes == 0) return "-";
  const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  double v = static_cast<double>(bytes);
  int i = 0;
  while (v >= 1000 && i < 5) {
    v /= 1000;
    ++i;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, i == 0 || v >= 100 ? "%.0f %s" : "%.2f %s", v, units[i]);
  return buf;
}

}  // namespace dp::cli
