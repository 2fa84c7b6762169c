#include "model/verdict.h"

namespace dp {

std::string_view VerdictKindName(VerdictKind k) {
  switch (k) {
    case VerdictKind::kClear:
      return "clear";
    case VerdictKind::kBaselining:
      return "baselining";
    case VerdictKind::kInconclusive:
      return "inconclusive";
    case VerdictKind::kNeedsConfirmation:
      return "needs_confirmation";
    case VerdictKind::kSlowdown:
      return "slowdown";
    case VerdictKind::kTrend:
      return "trend";
    case VerdictKind::kPeerOutlier:
      return "peer_outlier";
    case VerdictKind::kSmart:
      return "smart";
    case VerdictKind::kPoolErrors:
      return "pool_errors";
    case VerdictKind::kEnvironment:
      return "environment";
    case VerdictKind::kHealth:
      return "health";
  }
  return "unknown";
}

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kCritical:
      return "critical";
  }
  return "unknown";
}

std::optional<Severity> ParseSeverity(std::string_view s) {
  for (auto v : {Severity::kInfo, Severity::kWarning, Severity::kCritical}) {
    if (SeverityName(v) == s) return v;
  }
  return std::nullopt;
}

bool Verdict::Firing() const {
  switch (kind) {
    case VerdictKind::kSlowdown:
    case VerdictKind::kTrend:
    case VerdictKind::kPeerOutlier:
    case VerdictKind::kSmart:
    case VerdictKind::kPoolErrors:
    case VerdictKind::kEnvironment:
    case VerdictKind::kHealth:
      return true;
    default:
      return false;
  }
}

nlohmann::json VerdictToJson(const Verdict& v) {
  nlohmann::json j;
  j["drive_id"] = v.drive_id;
  j["drive_name"] = v.drive_name;
  j["condition"] = v.condition;
  j["kind"] = VerdictKindName(v.kind);
  j["firing"] = v.Firing();
  j["severity"] = SeverityName(v.severity);
  j["test"] = v.test;
  j["series"] = v.series;
  j["metric"] = v.metric;
  j["unit"] = v.unit;
  j["at"] = v.at;
  j["summary"] = v.summary;
  auto opt = [&j](const char* key, const auto& o) {
    if (o) j[key] = *o;
  };
  opt("current", v.current);
  opt("previous", v.previous);
  if (v.baseline_median) {
    nlohmann::json b;
    b["median"] = *v.baseline_median;
    if (v.baseline_mad) b["mad"] = *v.baseline_mad;
    if (v.baseline_runs) b["runs"] = *v.baseline_runs;
    j["baseline"] = b;
  }
  if (v.band_low || v.band_high) {
    nlohmann::json b;
    b["low"] = v.band_low ? nlohmann::json(*v.band_low) : nlohmann::json();
    b["high"] = v.band_high ? nlohmann::json(*v.band_high) : nlohmann::json();
    j["band"] = b;
  }
  opt("change_percent", v.change_percent);
  opt("slope_percent_per_month", v.slope_percent_per_month);
  opt("p_value", v.p_value);
  opt("peer_median", v.peer_median);
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& r : v.runs) {
    runs.push_back(
        {{"run_id", r.run_id}, {"at", r.at}, {"value", r.value}, {"outside", r.outside}});
  }
  j["runs"] = runs;
  j["details"] = v.details;
  return j;
}

bool Verdict::LowerIsBetter() const {
  auto ends = [&](std::string_view tail) {
    return metric.size() >= tail.size() &&
           std::string_view(metric).substr(metric.size() - tail.size()) == tail;
  };
  return ends("_ms") || ends("_us");
}

}  // namespace dp
