// ToolPolicy: the closed list of tools the privileged helper may run for the
// unprivileged daemon, and the argument shapes it accepts for each — exactly
// the command lines diskpulse itself builds (smart/, inventory/), nothing
// else. The executable for a tool id is fixed at start-up from the config
// (tools.smartctl, tools.zpool, ...); a request names the id, never a path.
//
// Pure: CheckToolRequest is a function of its inputs. Immutable after
// construction, so safe to share between threads.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/result.h"
#include "config/config.h"

namespace dp {

class ToolPolicy {
 public:
  // The ids and their executables: smartctl, zpool, geom, diskinfo,
  // camcontrol (from `tools`) and sysctl (FreeBSD disk discovery).
  static ToolPolicy FromConfig(const ToolsConfig& tools);

  // The id whose configured executable is exactly `executable` ("" if none);
  // when several ids share it (tests point all tools at one stand-in), the
  // one whose shapes accept `args`.
  std::string IdFor(const std::string& executable, const std::vector<std::string>& args = {}) const;

  // The argv to run for a request: the configured executable then `args`.
  // Errors (PermissionDenied, naming what was refused): an id not on the
  // list, or arguments that are not one of the tool's known shapes.
  Result<std::vector<std::string>> CheckToolRequest(const std::string& tool_id,
                                                    const std::vector<std::string>& args) const;

  const std::map<std::string, std::string>& tools() const { return tools_; }

 private:
  std::map<std::string, std::string> tools_;  // id -> executable
};

}  // namespace dp
