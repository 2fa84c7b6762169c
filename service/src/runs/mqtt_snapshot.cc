#include "runs/mqtt_snapshot.h"

#include "model/verdict.h"

namespace dp {

Result<MqttSnapshot> MqttSnapshotOf(Store& store, OverrideBook* overrides) {
  MqttSnapshot snapshot;
  DP_ASSIGN_OR_RETURN(std::vector<Drive> drives, store.ListDrives());
  AlertFilter active;
  active.state = "active";
  active.limit = 0;
  DP_ASSIGN_OR_RETURN(std::vector<Alert> open, store.ListAlerts(active));
  // The worst severity: an unknown name counts as below info.
  auto rank = [](const std::string& name) {
    auto sev = ParseSeverity(name);
    return sev ? static_cast<int>(*sev) : -1;
  };
  auto add = [&](const Alert& a, std::vector<AlertStanding>& standings, std::string& worst) {
    const bool muted = overrides && overrides->MutedUntil(a.drive_id, a.condition).has_value();
    standings.push_back(StandingOf(a, muted));
    if (rank(a.severity) > rank(worst)) worst = a.severity;
  };
  for (const Drive& d : drives) {
    if (d.forgotten_at) {
      snapshot.retired.push_back(d.id);
      continue;
    }
    MqttDriveState st;
    st.id = d.id;
    st.name = d.name;
    st.model = d.model;
    st.serial = d.serial;
    st.present = d.present;
    if (auto smart = store.LatestSmartFigures(d.id); smart.ok() && smart->has_value())
      st.temperature_c = (*smart)->temperature_c;
    for (const Alert& a : open)
      if (a.drive_id == d.id) add(a, st.standings, st.worst_severity);
    snapshot.drives.push_back(std::move(st));
  }
  if (auto pools = store.LatestPools(); pools.ok()) {
    for (const Pool& p : *pools) {
      MqttPoolState st;
      st.name = p.name;
      st.health = p.state;
      // A pool's own alerts: "pool:NAME:..." and "scrub:NAME:..." with no drive.
      for (const Alert& a : open) {
        if (!a.drive_id.empty()) continue;
        const auto first = a.condition.find(':'), last = a.condition.rfind(':');
        if (first == std::string::npos || last <= first) continue;
        const std::string kind = a.condition.substr(0, first);
        if ((kind == "pool" || kind == "scrub") &&
            a.condition.substr(first + 1, last - first - 1) == p.name)
          add(a, st.standings, st.worst_severity);
      }
      snapshot.pools.push_back(std::move(st));
    }
  }
  return snapshot;
}

}  // namespace dp
