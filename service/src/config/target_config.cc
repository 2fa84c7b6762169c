#include "config/target_config.h"

#include "config/json_walker.h"

namespace dp {

void ReadTargets(JsonWalker& parent, std::string_view key, std::vector<TargetConfig>& out) {
  parent.Objects(key, [&](JsonWalker& w, std::size_t) {
    std::size_t before = w.problems().count();
    TargetConfig tc;
    w.String("path", tc.path);
    w.String("name", tc.name);
    if (tc.path.empty() && w.problems().count() == before)
      w.Error("path", "required: the device or file to test");
    if (w.problems().count() != before) return;
    if (tc.name.empty()) tc.name = tc.path.substr(tc.path.find_last_of('/') + 1);
    out.push_back(std::move(tc));
  });
}

}  // namespace dp
