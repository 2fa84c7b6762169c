#include "model/drive_override.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <tuple>

#include "model/condition.h"

namespace dp {
namespace {

struct Judged {
  const char* field;
  int ata_id;             // 0: no ATA attribute of its own
  const char* threshold;  // what a threshold means; "" = takes none
};

// The conditions detect/smart_detector.cc judges ("smart:FIELD"); a test
// holds the two lists together.
const std::vector<Judged>& JudgedTable() {
  static const std::vector<Judged> kTable = {
      {"reallocated_sectors", 5, "alert only above this count"},
      {"reported_uncorrectable", 187, "alert only above this count"},
      {"command_timeouts", 188, "alert only above this count"},
      {"pending_sectors", 197, "alert only above this count"},
      {"offline_uncorrectable", 198, "alert only above this count"},
      {"udma_crc_errors", 199, "alert only above this count"},
      {"nvme_media_errors", 0, "alert only above this count"},
      {"health", 0, ""},
      {"self_test", 0, ""},
      {"temperature", 194, "ceiling in C"},
      {"nvme_critical_warning", 0, ""},
      {"nvme_spare", 0, "minimum spare in %"},
  };
  return kTable;
}

bool AllDigits(std::string_view s) {
  return !s.empty() && s.size() <= 3 &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

bool SameFolded(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool IsPoolKind(std::string_view kind) {
  return kind == ConditionKindName(ConditionKind::kPool) ||
         kind == ConditionKindName(ConditionKind::kScrub) ||
         kind == ConditionKindName(ConditionKind::kZfs);
}

std::optional<ConditionKind> KindByName(std::string_view name) {
  for (ConditionKind k : kConditionKinds)
    if (ConditionKindName(k) == name) return k;
  return std::nullopt;
}

int Specificity(const DriveOverride& o) { return o.model.empty() ? 2 : 1; }

std::string By(const DriveOverride& o) {
  if (o.source == "config") return "config " + o.where;
  return "api override " + std::to_string(o.id);
}

}  // namespace

std::optional<std::string> CanonicalSmartAttribute(std::string_view name) {
  for (const Judged& j : JudgedTable()) {
    if (name == j.field) return std::string(j.field);
    if (j.ata_id && AllDigits(name) && std::stoi(std::string(name)) == j.ata_id)
      return std::string(j.field);
  }
  if (AllDigits(name)) {
    int id = std::stoi(std::string(name));
    if (id >= 1 && id <= 255) return std::to_string(id);
  }
  return std::nullopt;
}

const std::vector<std::string>& JudgedSmartAttributes() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> v;
    for (const Judged& j : JudgedTable()) v.push_back(j.field);
    return v;
  }();
  return kNames;
}

std::string SmartAttributeThreshold(std::string_view attribute) {
  for (const Judged& j : JudgedTable())
    if (attribute == j.field) return j.threshold;
  return "";
}

bool SnapshotCarries(const SmartSnapshot& s, std::string_view attribute) {
  if (AllDigits(attribute)) {
    const int id = std::stoi(std::string(attribute));
    return std::any_of(s.attributes.begin(), s.attributes.end(),
                       [id](const SmartAttribute& a) { return a.id == id; });
  }
  if (attribute == "reallocated_sectors") return s.reallocated_sectors.has_value();
  if (attribute == "reported_uncorrectable") return s.reported_uncorrectable.has_value();
  if (attribute == "command_timeouts") return s.command_timeouts.has_value();
  if (attribute == "pending_sectors") return s.pending_sectors.has_value();
  if (attribute == "offline_uncorrectable") return s.offline_uncorrectable.has_value();
  if (attribute == "udma_crc_errors") return s.udma_crc_errors.has_value();
  if (attribute == "temperature") return s.temperature_c.has_value();
  if (attribute == "nvme_media_errors") return s.nvme && s.nvme->media_errors.has_value();
  if (attribute == "nvme_critical_warning") return s.nvme && s.nvme->critical_warning.has_value();
  if (attribute == "nvme_spare") return s.nvme && s.nvme->available_spare.has_value();
  return true;  // health, self_test
}

std::vector<std::string> MissingAttributeWarnings(
    const DriveOverride& o,
    const std::vector<std::pair<Drive, std::optional<SmartSnapshot>>>& drives) {
  std::vector<std::string> out;
  if (o.attribute.empty()) return out;
  const std::string attribute = CanonicalSmartAttribute(o.attribute).value_or(o.attribute);
  for (const auto& [drive, latest] : drives) {
    // No reading yet says nothing about what the drive carries.
    if (!latest || !OverrideMatches(o, drive) || SnapshotCarries(*latest, attribute)) continue;
    out.push_back("drive " + (drive.name.empty() ? drive.id : drive.name + " (" + drive.id + ")") +
                  ": its latest SMART reading has no attribute " + attribute +
                  ", so this override has nothing to act on until it reports one");
  }
  return out;
}

bool IsSmartctlDeviceType(std::string_view s) {
  if (s.empty() || s.size() > 32) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ',' || c == '_' || c == '+';
  });
}

std::optional<std::pair<std::string, std::string>> OverrideProblem(const DriveOverride& o) {
  using P = std::pair<std::string, std::string>;
  const int selectors =
      !o.drive_id.empty() + !o.serial.empty() + !o.model.empty() + !o.pool.empty();
  if (selectors != 1)
    return P{"drive", "name exactly one of drive (a drive id), serial, model (a pattern) or "
                      "pool (a pool name pattern)"};
  if (!o.kind.empty()) {
    if (!KindByName(o.kind)) {
      std::string known;
      for (ConditionKind k : kConditionKinds)
        known += (known.empty() ? "" : ", ") + std::string(ConditionKindName(k));
      return P{"kind", "unknown alert kind '" + o.kind + "': expected one of " + known};
    }
    if (!o.attribute.empty())
      return P{"kind", "give kind or attribute, not both (an attribute's alerts are of kind smart)"};
    if (o.ignore || o.threshold || !o.device_type.empty())
      return P{"kind", "kind narrows a mute: give mute_until, and no ignore, threshold or "
                       "device_type"};
    if (!o.mute_until) return P{"kind", "kind narrows a mute: give mute_until"};
  }
  if (!o.pool.empty()) {
    if (!o.attribute.empty() || o.ignore || o.threshold || !o.device_type.empty() || !o.mute_until)
      return P{"pool", "a pool override only mutes: give mute_until (and a kind: pool, scrub or "
                       "zfs), nothing else"};
    if (!o.kind.empty() && !IsPoolKind(o.kind))
      return P{"kind", "a pool's alerts are of kind pool, scrub or zfs, not " + o.kind};
  } else if (o.kind == ConditionKindName(ConditionKind::kPool) ||
             o.kind == ConditionKindName(ConditionKind::kScrub)) {
    return P{"kind", o.kind + " alerts belong to a pool, not a drive: select the pool with pool"};
  }
  if (!o.attribute.empty() && !CanonicalSmartAttribute(o.attribute)) {
    std::string known;
    for (const auto& n : JudgedSmartAttributes()) known += (known.empty() ? "" : ", ") + n;
    return P{"attribute", "unknown SMART attribute '" + o.attribute + "': expected one of " +
                              known + " or an ATA attribute id 1..255"};
  }
  if (o.threshold) {
    if (o.attribute.empty()) return P{"threshold", "a threshold needs an attribute"};
    std::string canonical = *CanonicalSmartAttribute(o.attribute);
    if (SmartAttributeThreshold(canonical).empty())
      return P{"threshold", "attribute " + canonical +
                                " takes no threshold (ignore or mute it instead)"};
    if (*o.threshold < 0) return P{"threshold", "must not be negative"};
    if (o.ignore) return P{"threshold", "ignore and threshold exclude each other"};
  }
  if (o.ignore && o.attribute.empty())
    return P{"ignore", "ignore needs an attribute (to silence the whole drive, mute it)"};
  if (!o.device_type.empty()) {
    if (!o.attribute.empty())
      return P{"device_type", "device_type is about the whole drive: give no attribute"};
    if (!IsSmartctlDeviceType(o.device_type))
      return P{"device_type", "expected a smartctl -d type such as sat, megaraid,3 or "
                              "sat+megaraid,14, found '" + o.device_type + "'"};
  }
  if (!o.ignore && !o.threshold && !o.mute_until && o.device_type.empty())
    return P{"drive", "says nothing to do: give ignore, threshold, mute_until or device_type"};
  return std::nullopt;
}

bool OverrideMatches(const DriveOverride& o, const Drive& drive) {
  if (!o.drive_id.empty()) return o.drive_id == drive.id;
  if (!o.serial.empty()) return !drive.serial.empty() && SameFolded(o.serial, drive.serial);
  if (!o.model.empty())
    return !drive.model.empty() &&
           fnmatch(o.model.c_str(), drive.model.c_str(), FNM_CASEFOLD) == 0;
  return false;
}

nlohmann::json DriveOverrideToJson(const DriveOverride& o, std::size_t config_index) {
  nlohmann::json j;
  j["id"] = o.source == "config" ? "config-" + std::to_string(config_index) : std::to_string(o.id);
  j["source"] = o.source;
  auto text = [&j](const char* key, const std::string& v) {
    if (!v.empty()) j[key] = v;
  };
  text("where", o.where);
  text("drive", o.drive_id);
  text("serial", o.serial);
  text("model", o.model);
  text("pool", o.pool);
  text("attribute", o.attribute);
  j["ignore"] = o.ignore;
  if (o.threshold) j["threshold"] = *o.threshold;
  if (o.mute_until) j["mute_until"] = *o.mute_until;
  text("kind", o.kind);
  text("device_type", o.device_type);
  j["reason"] = o.reason;
  j["who"] = o.who;
  j["at"] = o.at;
  return j;
}

std::string OverrideSelector(const DriveOverride& o) {
  if (!o.drive_id.empty()) return "drive " + o.drive_id;
  if (!o.serial.empty()) return "serial " + o.serial;
  if (!o.pool.empty()) return "pool " + o.pool;
  return "model " + o.model;
}

bool MuteExpired(const DriveOverride& o, std::int64_t now) {
  return o.mute_until && *o.mute_until <= now && !o.ignore && !o.threshold &&
         o.device_type.empty();
}

const AttributeOverride* ResolvedOverrides::Attribute(std::string_view attribute) const {
  for (const auto& [name, a] : attributes)
    if (name == attribute) return &a;
  return nullptr;
}

std::optional<std::int64_t> ResolvedOverrides::MutedUntil(std::string_view condition) const {
  std::optional<std::int64_t> until = drive_muted_until;
  constexpr std::string_view kSmart = "smart:";
  if (condition.substr(0, kSmart.size()) == kSmart) {
    std::string_view field = condition.substr(kSmart.size());
    for (const auto& [name, t] : attribute_muted_until)
      if (name == field && (!until || t > *until)) until = t;
  }
  const std::string_view kind = ConditionKindName(ConditionKindOf(condition));
  for (const auto& [name, t] : kind_muted_until)
    if (name == kind && (!until || t > *until)) until = t;
  return until;
}

ResolvedOverrides ResolveOverrides(const std::vector<DriveOverride>& overrides, const Drive& drive,
                                   std::int64_t now) {
  ResolvedOverrides r;
  // Rank: specificity, then API over config, then newer (config: later in the file).
  auto rank = [](const DriveOverride& o) {
    return std::make_tuple(Specificity(o), o.source == "api", o.at, o.id);
  };
  std::vector<const DriveOverride*> winners;  // per attribute
  int device_rank = 0;
  for (const DriveOverride& o : overrides) {
    if (!OverrideMatches(o, drive)) continue;
    if (!o.device_type.empty() && o.source == "config" && Specificity(o) > device_rank) {
      r.device_type = o.device_type;
      device_rank = Specificity(o);
    }
    if (o.mute_until && *o.mute_until > now) {
      if (!o.kind.empty()) {
        auto it = std::find_if(r.kind_muted_until.begin(), r.kind_muted_until.end(),
                               [&](const auto& p) { return p.first == o.kind; });
        if (it == r.kind_muted_until.end()) r.kind_muted_until.emplace_back(o.kind, *o.mute_until);
        else it->second = std::max(it->second, *o.mute_until);
      } else if (o.attribute.empty()) {
        if (!r.drive_muted_until || *o.mute_until > *r.drive_muted_until)
          r.drive_muted_until = o.mute_until;
      } else {
        std::string a = CanonicalSmartAttribute(o.attribute).value_or(o.attribute);
        auto it = std::find_if(r.attribute_muted_until.begin(), r.attribute_muted_until.end(),
                               [&](const auto& p) { return p.first == a; });
        if (it == r.attribute_muted_until.end()) r.attribute_muted_until.emplace_back(a, *o.mute_until);
        else it->second = std::max(it->second, *o.mute_until);
      }
    }
    if (o.attribute.empty() || (!o.ignore && !o.threshold)) continue;
    const std::string a = CanonicalSmartAttribute(o.attribute).value_or(o.attribute);
    auto it = std::find_if(winners.begin(), winners.end(), [&](const DriveOverride* w) {
      return CanonicalSmartAttribute(w->attribute).value_or(w->attribute) == a;
    });
    if (it == winners.end()) winners.push_back(&o);
    else if (rank(o) > rank(**it)) *it = &o;
  }
  for (const DriveOverride* w : winners) {
    AttributeOverride a;
    a.ignore = w->ignore;
    a.threshold = w->threshold;
    a.by = By(*w);
    r.attributes.emplace_back(CanonicalSmartAttribute(w->attribute).value_or(w->attribute), a);
  }
  return r;
}

std::string PoolOfCondition(std::string_view condition) {
  const ConditionKind kind = ConditionKindOf(condition);
  if (kind != ConditionKind::kPool && kind != ConditionKind::kScrub && kind != ConditionKind::kZfs)
    return "";
  const std::size_t colon = condition.find(':');
  if (colon == std::string_view::npos) return "";
  std::string_view rest = condition.substr(colon + 1);
  return std::string(rest.substr(0, rest.find(':')));
}

std::optional<std::int64_t> PoolMutedUntil(const std::vector<DriveOverride>& overrides,
                                           std::string_view condition, std::int64_t now) {
  const std::string pool = PoolOfCondition(condition);
  if (pool.empty()) return std::nullopt;
  const std::string_view kind = ConditionKindName(ConditionKindOf(condition));
  std::optional<std::int64_t> until;
  for (const DriveOverride& o : overrides) {
    if (o.pool.empty() || !o.mute_until || *o.mute_until <= now) continue;
    if (!o.kind.empty() && o.kind != kind) continue;
    // Pool names are case-sensitive in ZFS, so the pattern is too.
    if (fnmatch(o.pool.c_str(), pool.c_str(), 0) != 0) continue;
    if (!until || *o.mute_until > *until) until = o.mute_until;
  }
  return until;
}

}  // namespace dp
