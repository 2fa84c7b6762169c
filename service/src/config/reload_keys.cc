#include "config/reload_keys.h"

namespace dp {
namespace {

// A row whose value is the members named: changed when any differs, kept by
// copying them all.
template <auto... kMembers>
ReloadKey Row(std::string_view name, OnReload on_reload) {
  return {name, on_reload,
          [](const Config& a, const Config& b) { return ((a.*kMembers != b.*kMembers) || ...); },
          [](const Config& a, Config& b) { ((b.*kMembers = a.*kMembers), ...); }};
}

constexpr OnReload kApplied = OnReload::kApplied;
constexpr OnReload kRestart = OnReload::kNeedsRestart;

std::vector<ReloadKey> MakeTable() {
  return {
      // The socket, the database and its locks, the privilege drop and the
      // command runner (real or replaying) are taken before anything runs.
      Row<&Config::listen, &Config::listen_host, &Config::listen_port>("listen", kRestart),
      Row<&Config::database>("database", kRestart),
      // The router is rebuilt from these on a reload.
      Row<&Config::webui_root>("webui_root", kApplied),
      Row<&Config::pidfile>("pidfile", kRestart),
      Row<&Config::log_level>("log_level", kApplied),
      Row<&Config::log_target>("log_target", kApplied),
      Row<&Config::api_token>("api_token", kApplied),
      Row<&Config::public_read>("public_read", kApplied),
      Row<&Config::read_token>("read_token", kApplied),
      Row<&Config::metrics_token>("metrics_token", kApplied),
      Row<&Config::user>("user", kRestart),
      Row<&Config::replay_dir>("replay_dir", kRestart),
      Row<&Config::tls>("tls", kRestart),
      Row<&Config::http>("http", kApplied),
      // Discovery, the job executor, the ZFS sampler and the privileged
      // helper's tool list each keep the configuration they were started with.
      Row<&Config::tools>("tools", kRestart),
      Row<&Config::inventory>("inventory", kRestart),
      Row<&Config::bench>("bench", kRestart),
      Row<&Config::retention>("retention", kRestart),
      // The scheduler and the alert sinks are built once, at start-up.
      Row<&Config::targets>("targets", kRestart),
      // Compared as parsed: a schedule written differently but meaning the
      // same ("tests": "seq" or ["seq"]) is no change.
      Row<&Config::schedule_list>("schedules", kRestart),
      Row<&Config::scheduler>("scheduler", kRestart),
      Row<&Config::alerts_config>("alerts", kRestart),
      // The job executor and discovery read device_type, the judge and the
      // alert service the rest, each from the configuration it started with.
      Row<&Config::overrides>("overrides", kRestart),
  };
}

}  // namespace

const std::vector<ReloadKey>& ReloadKeys() {
  static const std::vector<ReloadKey> table = MakeTable();
  return table;
}

std::vector<std::string> RestartOnlyChanges(const Config& running, const Config& next) {
  std::vector<std::string> names;
  for (const ReloadKey& k : ReloadKeys())
    if (k.on_reload == OnReload::kNeedsRestart && k.changed(running, next))
      names.emplace_back(k.name);
  return names;
}

void KeepRestartOnly(const Config& running, Config& next) {
  for (const ReloadKey& k : ReloadKeys())
    if (k.on_reload == OnReload::kNeedsRestart) k.keep(running, next);
}

}  // namespace dp
