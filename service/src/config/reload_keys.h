// What a SIGHUP can change in a running daemon, key by key. One table, which
// the daemon's reload (what it applies and what it keeps), its log message and
// docs/configuration.md's list all follow: a key is either applied at once or kept at its
// running value with a warning that a restart is needed, never dropped
// silently.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/config.h"

namespace dp {

enum class OnReload {
  kApplied,       // the running daemon takes the new value
  kNeedsRestart,  // built into a part made at start-up; a restart applies it
};

struct ReloadKey {
  std::string_view name;  // the file's key: "listen", "http", "inventory"
  OnReload on_reload;
  bool (*changed)(const Config& running, const Config& next);
  // Puts the running value back into `next` (restart-only keys).
  void (*keep)(const Config& running, Config& next);
};

// Every top-level key of the configuration file, in the file's order.
const std::vector<ReloadKey>& ReloadKeys();

// The restart-only keys whose value differs between the running and the new
// configuration, by name, in the table's order.
std::vector<std::string> RestartOnlyChanges(const Config& running, const Config& next);

// Puts every restart-only key of `next` back to its running value, so the
// configuration kept after a reload says what is really in effect.
void KeepRestartOnly(const Config& running, Config& next);

}  // namespace dp
