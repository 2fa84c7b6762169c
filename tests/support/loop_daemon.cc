#include "support/loop_daemon.h"

#include "support/eventually.h"

namespace dp::testing {

nlohmann::json LoopTargetConfig(const LoopDevice& loop, const LoopTargetOptions& o) {
  using json = nlohmann::json;
  return {
      {"log_level", "info"},
      {"targets", json::array({{{"path", loop.path()}, {"name", o.name}}})},
      {"inventory",
       {{"include", json::array({loop.name()})},
        {"sysfs_root", "/sys"},
        {"dev_root", "/dev"},
        {"udev_data_dir", "/run/udev/data"},
        {"proc_root", "/proc"}}},
      {"bench", {{"engine", "pread"}, {"max_seconds", 1}, {"max_bytes", o.max_bytes}}},
      {"schedules", json::array({{{"name", "e2e"},
                                  {"tests", {"seq"}},
                                  {"when", o.every},
                                  {"drives", {o.name}}}})},
      {"scheduler", {{"retry_every", "1s"}, {"defer_window", "1h"}, {"busy_above", o.busy_above}}},
  };
}

Result<std::string> WaitForDrive(Store& store, const std::string& name,
                                 std::chrono::milliseconds timeout) {
  std::string id;
  const bool found = Eventually(
      [&] {
        auto drives = store.ListDrives();
        if (!drives.ok()) return false;
        for (const auto& d : *drives)
          if (d.name == name && d.present) id = d.id;
        return !id.empty();
      },
      timeout);
  if (!found) return NotFound("discovery never saved " + name);
  return id;
}

}  // namespace dp::testing
