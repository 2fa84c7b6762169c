#include "detect/smart_detector.h"

#include <cstdio>
#include <functional>
#include <optional>

namespace dp::detect {
namespace {

struct Counter {
  const char* field;
  int ata_id;  // 0 for NVMe
  const char* noun;
  bool alert_on_first_sight;
  Severity severity;
  std::function<std::optional<std::uint64_t>(const SmartSnapshot&)> get;
};

std::optional<std::uint64_t> NvmeMedia(const SmartSnapshot& s) {
  if (!s.nvme) return std::nullopt;
  return s.nvme->media_errors;
}

const std::vector<Counter>& Counters() {
  static const std::vector<Counter> kCounters = {
      {"reallocated_sectors", 5, "reallocated sectors", true, Severity::kWarning,
       [](const SmartSnapshot& s) { return s.reallocated_sectors; }},
      {"reported_uncorrectable", 187, "reported uncorrectable errors", true, Severity::kCritical,
       [](const SmartSnapshot& s) { return s.reported_uncorrectable; }},
      {"command_timeouts", 188, "command timeouts", false, Severity::kWarning,
       [](const SmartSnapshot& s) { return s.command_timeouts; }},
      {"pending_sectors", 197, "pending sectors", true, Severity::kCritical,
       [](const SmartSnapshot& s) { return s.pending_sectors; }},
      {"offline_uncorrectable", 198, "offline uncorrectable sectors", true, Severity::kCritical,
       [](const SmartSnapshot& s) { return s.offline_uncorrectable; }},
      {"udma_crc_errors", 199, "UDMA CRC errors (cable or backplane)", false, Severity::kWarning,
       [](const SmartSnapshot& s) { return s.udma_crc_errors; }},
      {"nvme_media_errors", 0, "NVMe media errors", true, Severity::kCritical, NvmeMedia},
  };
  return kCounters;
}

class Builder {
 public:
  Builder(const std::string& id, const std::string& name, std::int64_t at)
      : id_(id), name_(name.empty() ? id : name), at_(at) {}

  Verdict Make(const std::string& field, bool firing, Severity sev, std::string summary) const {
    Verdict v;
    v.drive_id = id_;
    v.drive_name = name_ == id_ ? "" : name_;
    v.condition = "smart:" + field;
    v.kind = firing ? VerdictKind::kSmart : VerdictKind::kClear;
    v.severity = firing ? sev : Severity::kInfo;
    v.test = "smart";
    v.metric = field;
    v.at = at_;
    v.summary = name_ + ": " + summary;
    return v;
  }

 private:
  std::string id_, name_;
  std::int64_t at_;
};

// The threshold an override sets for field, if any.
std::optional<double> OverrideThreshold(const ResolvedOverrides* o, const char* field) {
  if (!o) return std::nullopt;
  const AttributeOverride* a = o->Attribute(field);
  return a ? a->threshold : std::nullopt;
}

// Ignored attributes become clear verdicts; the override that ignored or
// tuned a verdict is named in its details.
void ApplyOverrides(const ResolvedOverrides* o, std::vector<Verdict>& out) {
  if (!o) return;
  for (Verdict& v : out) {
    const AttributeOverride* a = o->Attribute(v.metric);
    if (!a) continue;
    v.details["override"] = a->by;
    if (!a->ignore) continue;
    v.kind = VerdictKind::kClear;
    v.severity = Severity::kInfo;
    v.summary += " (ignored by " + a->by + ")";
  }
}

}  // namespace

std::vector<Verdict> EvaluateSmart(const std::string& drive_id, const std::string& drive_name,
                                   const SmartSnapshot* previous, const SmartSnapshot& current,
                                   std::int64_t at, const DetectionConfig& cfg,
                                   const ResolvedOverrides* overrides) {
  std::vector<Verdict> out;
  Builder b(drive_id, drive_name, at);

  for (const Counter& c : Counters()) {
    const std::optional<std::uint64_t> got = c.get(current);
    if (!got) continue;
    const std::uint64_t now = *got;
    const std::optional<std::uint64_t> got_before = previous ? c.get(*previous) : std::nullopt;
    const bool seen_before = got_before.has_value();
    const std::uint64_t before = got_before.value_or(0);
    // A threshold tolerates that many: a count at or below it is no alert.
    const std::optional<double> allowed = OverrideThreshold(overrides, c.field);
    const bool tuned = allowed.has_value();
    const double limit = allowed.value_or(0);
    const bool over = !tuned || static_cast<double>(now) > limit;
    bool firing = false;
    std::string text;
    if (seen_before && now > before && over) {
      firing = true;
      text = std::to_string(now - before) + " new " + c.noun + " (" + std::to_string(before) +
             " -> " + std::to_string(now) + ")";
    } else if (!seen_before && (c.alert_on_first_sight || tuned) &&
               static_cast<double>(now) > limit) {
      firing = true;
      text = std::to_string(now) + " " + c.noun + " at first check";
    } else if (!over) {
      text = std::string(c.noun) + ": " + std::to_string(now) + ", within the override's " +
             std::to_string(static_cast<std::uint64_t>(limit));
    } else {
      text = std::string(c.noun) + ": " + std::to_string(now) + ", not increasing";
    }
    Verdict v = b.Make(c.field, firing, c.severity, text);
    v.unit = "";
    v.current = static_cast<double>(now);
    if (seen_before) v.previous = static_cast<double>(before);
    if (c.ata_id) v.details["attribute_id"] = c.ata_id;
    out.push_back(std::move(v));
  }

  if (current.health_passed) {
    bool failed = !*current.health_passed;
    out.push_back(b.Make(
        "health", failed, Severity::kCritical,
        failed ? "SMART overall health self-assessment FAILED" : "SMART overall health passed"));
  }

  if (!current.self_tests.empty() && current.self_tests.front().passed) {
    const SmartSelfTest& t = current.self_tests.front();
    bool failed = !*t.passed;
    Verdict v = b.Make("self_test", failed, Severity::kCritical,
                       (failed ? "latest " + t.type + " self-test failed: " + t.status
                               : "latest " + t.type + " self-test passed"));
    v.details["type"] = t.type;
    v.details["status"] = t.status;
    if (t.lifetime_hours) v.details["lifetime_hours"] = *t.lifetime_hours;
    out.push_back(std::move(v));
  }

  if (current.temperature_c) {
    const bool nvme = current.protocol == "NVMe";
    const int limit = static_cast<int>(OverrideThreshold(overrides, "temperature")
                                           .value_or(nvme ? cfg.nvme_temperature_max_c
                                                          : cfg.temperature_max_c));
    const bool hot = *current.temperature_c > limit;
    Verdict v = b.Make("temperature", hot, Severity::kWarning,
                       "temperature " + std::to_string(*current.temperature_c) + " C" +
                           (hot ? " is over " : " within ") + "the ceiling of " +
                           std::to_string(limit) + " C");
    v.unit = "C";
    v.current = *current.temperature_c;
    v.band_high = limit;
    out.push_back(std::move(v));
  }

  if (current.nvme) {
    const NvmeHealth& n = *current.nvme;
    if (n.critical_warning) {
      bool bad = *n.critical_warning != 0;
      Verdict v =
          b.Make("nvme_critical_warning", bad, Severity::kCritical,
                 bad ? "NVMe critical warning bits set: 0x" +
                           [&] {
                             char buf[32];
                             std::snprintf(buf, sizeof buf, "%02llx",
                                           static_cast<unsigned long long>(*n.critical_warning));
                             return std::string(buf);
                           }()
                     : "no NVMe critical warning");
      v.current = static_cast<double>(*n.critical_warning);
      out.push_back(std::move(v));
    }
    if (n.available_spare) {
      int threshold = n.available_spare_threshold && *n.available_spare_threshold > 0
                          ? *n.available_spare_threshold
                          : cfg.nvme_spare_min_percent;
      if (auto t = OverrideThreshold(overrides, "nvme_spare")) threshold = static_cast<int>(*t);
      bool low = *n.available_spare < threshold;
      Verdict v = b.Make("nvme_spare", low, Severity::kCritical,
                         "NVMe available spare " + std::to_string(*n.available_spare) + "%" +
                             (low ? " is below " : " above ") + "its threshold of " +
                             std::to_string(threshold) + "%");
      v.unit = "%";
      v.current = *n.available_spare;
      v.band_low = threshold;
      out.push_back(std::move(v));
    }
  }
  ApplyOverrides(overrides, out);
  return out;
}

}  // namespace dp::detect
