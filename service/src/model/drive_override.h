// DriveOverride: a per-drive tuning of how diskpulse treats one drive (or
// every drive of a model): the `smartctl -d TYPE` the drive needs, and per
// SMART attribute a changed threshold, "ignore", or a mute with an expiry;
// a mute may be narrowed to one kind of alert ("selftest", "wear", ...), and
// a pool's own alerts (pool, scrub, and its members' zfs ones) are muted by
// an override that selects the pool.
// Overrides come from two places: the config file's "overrides" (read-only
// from the API, shown with their FILE:LINE) and the API (kept in SQLite with
// who, when and why, every change audited). How they combine is
// ResolveOverrides' rule below. Plain value types and pure functions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/drive.h"
#include "model/smart_snapshot.h"

namespace dp {

struct DriveOverride {
  std::int64_t id = 0;         // the store's row (API overrides); 0 for the config file's
  std::string source = "api";  // "api" | "config"
  std::string where;           // config: "FILE:LINE" of the override's selector
  // The selector: exactly one of the four.
  std::string drive_id;  // a drive's id ("wwn-5000c500a1b2c3d4")
  std::string serial;    // a drive's serial number (compared ignoring case)
  std::string model;     // a shell pattern over the model ("ST8000VN*"), ignoring case
  // A shell pattern over pool names ("tank", "*"). Pool and scrub alerts have
  // no drive, so this is how they are muted; it only ever mutes, and it
  // matches the alerts whose condition names the pool (pool, scrub, zfs).
  std::string pool;
  // "" = the whole drive (device_type, mute); else the SMART attribute the
  // override is about, canonical (CanonicalSmartAttribute).
  std::string attribute;
  bool ignore = false;                      // the attribute is never alerted on
  std::optional<double> threshold;          // see SmartAttributeThreshold
  std::optional<std::int64_t> mute_until;   // unix seconds: alerts open, nothing is sent
  // "" = the mute holds every alert of the selection; else a ConditionKindName
  // ("slowdown", "selftest", ...) and the mute holds only alerts of that kind.
  std::string kind;
  std::string device_type;                  // smartctl -d TYPE (config file only)
  std::string reason;                       // why (people's words)
  std::string who;                          // "api 192.0.2.7:51234", "config"
  std::int64_t at = 0;                      // when it was set (unix seconds)
  bool operator==(const DriveOverride&) const = default;
};

// One line of the overrides' audit trail: set, deleted, expired.
struct OverrideAudit {
  std::int64_t id = 0;
  std::int64_t at = 0;
  std::string action;  // "set" | "deleted" | "expired"
  std::int64_t override_id = 0;
  std::string who;
  std::string reason;
  std::string override_json;  // the override as it was
};

// The SMART attributes an override may name. Judged ones by their field
// name ("udma_crc_errors", "temperature", "nvme_spare", ...) or, for the ATA
// counters, by attribute id ("199" -> "udma_crc_errors"); any other ATA id
// 1..255 ("1", "7", "195": Seagate's raw error rates) is accepted as itself.
// nullopt for anything else.
std::optional<std::string> CanonicalSmartAttribute(std::string_view name);
// The judged fields, for messages and the page.
const std::vector<std::string>& JudgedSmartAttributes();
// What a threshold means for attribute, "" when it takes none (health,
// self_test, critical warning, ATA ids diskpulse does not judge):
// counters "alert only above this count", temperature "ceiling in C",
// nvme_spare "minimum spare in %".
std::string SmartAttributeThreshold(std::string_view attribute);

// Whether a SMART reading carries `attribute` (canonical): an ATA id by its
// attribute table, a judged field by its figure. health and self_test always
// count as carried (their absence is itself what is judged).
bool SnapshotCarries(const SmartSnapshot& snapshot, std::string_view attribute);
// For an override naming an attribute, the drives (of `drives`, each with
// its latest SMART reading, if any) that match it but whose reading lacks
// the attribute: "drive sda (wwn-1): its latest SMART reading has no
// attribute 195". Not an error: the drive may report it later.
std::vector<std::string> MissingAttributeWarnings(
    const DriveOverride& o,
    const std::vector<std::pair<Drive, std::optional<SmartSnapshot>>>& drives);

// "smartctl -d" types: letters, digits and , _ + ("sat", "megaraid,3",
// "sat+megaraid,14"); never an option.
bool IsSmartctlDeviceType(std::string_view type);

// The problem with one override as written, as {field, message}, or
// nullopt. Checks: exactly one selector, a known attribute, a threshold only
// where one means something, something to do (ignore, threshold, mute or
// device_type), device_type and mute only on the whole drive... see the .cc.
std::optional<std::pair<std::string, std::string>> OverrideProblem(const DriveOverride& o);

bool OverrideMatches(const DriveOverride& o, const Drive& drive);
// The override as the API and the audit trail show it: id ("12", or
// "config-0" for the config file's n-th), source, where, the selector
// (drive / serial / model / pool), attribute, ignore, threshold, mute_until,
// kind, device_type, reason, who, at; absent optionals and empty texts left out.
nlohmann::json DriveOverrideToJson(const DriveOverride& o, std::size_t config_index = 0);
// "drive wwn-1", "serial ZA1", "model ST8000*", "pool tank".
std::string OverrideSelector(const DriveOverride& o);
// A mute whose expiry has passed (nothing else left in it).
bool MuteExpired(const DriveOverride& o, std::int64_t now);

// What is in force for one drive at `now`.
struct AttributeOverride {
  bool ignore = false;
  std::optional<double> threshold;
  std::string by;  // "config diskpulse.json:40" | "api override 3": for evidence and the page
};
struct ResolvedOverrides {
  std::string device_type;                       // "" = smartctl detects
  std::vector<std::pair<std::string, AttributeOverride>> attributes;  // by canonical name
  std::optional<std::int64_t> drive_muted_until;  // every alert of the drive
  std::vector<std::pair<std::string, std::int64_t>> attribute_muted_until;
  std::vector<std::pair<std::string, std::int64_t>> kind_muted_until;  // by kind name
  const AttributeOverride* Attribute(std::string_view attribute) const;
  // Until when an alert of `condition` ("smart:udma_crc_errors",
  // "slowdown:seq:...") is muted; nullopt when it is not.
  std::optional<std::int64_t> MutedUntil(std::string_view condition) const;
};

// The rule: of the overrides that match the drive and name the same
// attribute, the most specific selector wins whole (drive id or serial over
// a model pattern); between equally specific ones, an API override wins over
// the config file's (it is the later decision, and deleting it falls back to
// the file), then the newer. device_type: the most specific config override
// that sets one. Mutes do not compete: the latest expiry still ahead wins.
ResolvedOverrides ResolveOverrides(const std::vector<DriveOverride>& overrides, const Drive& drive,
                                   std::int64_t now);

// The pool an alert condition names ("pool:tank:state", "scrub:tank:overdue",
// "zfs:tank:..." -> "tank"); "" for the kinds that name none.
std::string PoolOfCondition(std::string_view condition);
// Until when the pool overrides hold an alert of `condition` at `now`: the
// latest expiry ahead among those whose pattern matches the condition's pool
// and whose kind is "" or the condition's; nullopt when none does.
std::optional<std::int64_t> PoolMutedUntil(const std::vector<DriveOverride>& overrides,
                                           std::string_view condition, std::int64_t now);

}  // namespace dp
