#include "detect/pool_detector.h"

#include <optional>
#include <string>

namespace dp::detect {
namespace {

const PoolMember* FindMember(const Pool* pool, const std::string& drive_id) {
  if (!pool) return nullptr;
  for (const auto& vdev : pool->vdevs)
    for (const auto& m : vdev.members)
      if (m.drive_id == drive_id) return &m;
  return nullptr;
}

}  // namespace

std::vector<Verdict> EvaluatePool(const Pool& current, const Pool* previous, std::int64_t at) {
  std::vector<Verdict> out;
  for (const auto& vdev : current.vdevs) {
    for (const auto& m : vdev.members) {
      if (m.drive_id.empty()) continue;
      const PoolMember* before = FindMember(previous, m.drive_id);
      auto base = [&](const std::string& what) {
        Verdict v;
        v.drive_id = m.drive_id;
        v.condition = "zfs:" + current.name + ":" + what;
        v.test = "pool";
        v.series = current.name;
        v.metric = what;
        v.at = at;
        v.details["pool"] = current.name;
        v.details["vdev"] = vdev.name;
        v.details["member"] = m.path;
        v.details["member_state"] = m.state;
        return v;
      };
      struct Field {
        const char* name;
        const char* label;
        std::optional<std::uint64_t> now, before;
      } fields[] = {
          {"read", "READ", m.read_errors, before ? before->read_errors : std::nullopt},
          {"write", "WRITE", m.write_errors, before ? before->write_errors : std::nullopt},
          {"cksum", "CKSUM", m.checksum_errors, before ? before->checksum_errors : std::nullopt},
      };
      for (const auto& f : fields) {
        if (!f.now) continue;
        Verdict v = base(f.name);
        v.current = static_cast<double>(*f.now);
        if (f.before) v.previous = static_cast<double>(*f.before);
        std::string where = current.name + " member " + m.path;
        if (*f.now > 0) {
          v.kind = VerdictKind::kPoolErrors;
          v.severity = Severity::kWarning;
          v.summary = where + ": " + std::to_string(*f.now) + " ZFS " + f.label + " errors";
          if (f.before && *f.now > *f.before)
            v.summary += " (+" + std::to_string(*f.now - *f.before) + " since last check)";
        } else {
          v.kind = VerdictKind::kClear;
          v.summary = where + ": no ZFS " + std::string(f.label) + " errors";
        }
        out.push_back(std::move(v));
      }
      if (!m.state.empty()) {
        Verdict v = base("state");
        bool bad = m.state == "FAULTED" || m.state == "DEGRADED" || m.state == "UNAVAIL" ||
                   m.state == "REMOVED";
        v.kind = bad ? VerdictKind::kPoolErrors : VerdictKind::kClear;
        v.severity = bad ? Severity::kCritical : Severity::kInfo;
        v.summary = current.name + " member " + m.path + " is " + m.state;
        if (!m.note.empty()) v.summary += " (" + m.note + ")";
        out.push_back(std::move(v));
      }
    }
  }
  return out;
}

}  // namespace dp::detect
