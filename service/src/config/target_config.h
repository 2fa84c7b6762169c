// TargetConfig: a disk or file to watch besides the discovered drives, from
// the config file's top-level "targets" and a schedule's own "targets". One
// reader for both, so they take the same keys and say the same things.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dp {

class JsonWalker;

struct TargetConfig {
  std::string path;                     // e.g. /dev/loop3 or a file
  std::string name;                     // shown to people; defaults to the basename
  bool operator==(const TargetConfig&) const = default;
};

// Appends the targets of the array at `key` to `out`: each
// {"path": required, "name": optional, defaulting to the path's basename}.
void ReadTargets(JsonWalker& parent, std::string_view key, std::vector<TargetConfig>& out);

}  // namespace dp
