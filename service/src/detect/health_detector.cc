#include "detect/health_detector.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <limits>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

namespace dp::detect {
namespace {

constexpr std::int64_t kDay = 86400;

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Days(std::int64_t seconds) {
  return std::to_string(seconds / kDay) + (seconds / kDay == 1 ? " day" : " days");
}

// "WDC WD40EFRX serial WD-X (wwn-...)", how people know a drive.
std::string DriveLabel(const Drive& d) {
  std::string out = d.model.empty() ? d.name : d.model;
  if (!d.serial.empty()) out += " serial " + d.serial;
  return out + " (" + d.id + ")";
}

Verdict Base(const std::string& drive_id, const std::string& condition, const std::string& test,
             const std::string& series, const std::string& metric, std::int64_t at) {
  Verdict v;
  v.drive_id = drive_id;
  v.condition = condition;
  v.test = test;
  v.series = series;
  v.metric = metric;
  v.at = at;
  return v;
}

void Fire(Verdict& v, Severity s, std::string summary) {
  v.kind = VerdictKind::kHealth;
  v.severity = s;
  v.summary = std::move(summary);
}

void Clear(Verdict& v, std::string summary) {
  v.kind = VerdictKind::kClear;
  v.severity = Severity::kInfo;
  v.summary = std::move(summary);
}

bool BadState(const std::string& s) {
  return !s.empty() && s != "ONLINE" && s != "AVAIL" && s != "INUSE";
}

// The path a member had before it went away: zpool's "was /dev/sdc1" note.
std::string WasPath(const std::string& note) {
  const auto at = note.find("was ");
  if (at == std::string::npos) return "";
  std::string p = note.substr(at + 4);
  const auto end = p.find_first_of(" )");
  return end == std::string::npos ? p : p.substr(0, end);
}

// "repaired 448K" -> "448K"; "" when the text says nothing was repaired.
std::string RepairedAmount(const std::string& text) {
  static const std::regex kRepaired(R"(repaired\s+(\S+))");
  std::smatch m;
  if (!std::regex_search(text, m, kRepaired)) return "";
  const std::string amount = m[1].str();
  static const std::regex kZero(R"(0+(\.0+)?[BKMGTP]?)");
  return std::regex_match(amount, kZero) ? "" : amount;
}

std::optional<std::uint64_t> ScanErrors(const PoolScan& scan) {
  if (!scan.text.empty() && scan.text.front() == '{') {
    const auto j = nlohmann::json::parse(scan.text, nullptr, false);
    if (j.is_object() && j.contains("errors")) {
      const auto& e = j["errors"];
      if (e.is_number_unsigned()) return e.get<std::uint64_t>();
      if (e.is_string()) {
        try {
          return std::stoull(e.get<std::string>());
        } catch (const std::exception&) {
        }
      }
    }
    return std::nullopt;
  }
  static const std::regex kErrors(R"(with\s+(\d+)\s+errors?)");
  std::smatch m;
  if (!std::regex_search(scan.text, m, kErrors)) return std::nullopt;
  try {
    return std::stoull(m[1].str());
  } catch (const std::exception&) {
    return std::numeric_limits<std::uint64_t>::max();  // more than a count can say: errors
  }
}

// Bytes a scrub repaired per zpool status -j ("processed" of a finished
// scrub is what `zpool status` prints as "repaired"); "" when none or unknown.
std::string JsonRepaired(const PoolScan& scan) {
  const auto j = nlohmann::json::parse(scan.text, nullptr, false);
  if (!j.is_object() || !j.contains("processed")) return "";
  const auto& p = j["processed"];
  std::uint64_t n = 0;
  if (p.is_number_unsigned()) n = p.get<std::uint64_t>();
  else if (p.is_string()) n = std::strtoull(p.get<std::string>().c_str(), nullptr, 10);
  return n == 0 ? "" : std::to_string(n) + " bytes";
}

void AddPoolState(const Pool& pool, std::int64_t now, std::vector<Verdict>& out) {
  Verdict v = Base("", "pool:" + pool.name + ":state", "pool", pool.name, "state", now);
  v.details["pool"] = pool.name;
  v.details["kind"] = pool.kind;
  v.details["pool_state"] = pool.state;
  nlohmann::json bad_vdevs = nlohmann::json::array();
  for (const Vdev& vd : pool.vdevs) {
    if (vd.role == "spare" || vd.role == "cache") continue;  // their states are not redundancy
    if (BadState(vd.state))
      bad_vdevs.push_back({{"vdev", vd.name}, {"role", vd.role}, {"state", vd.state}});
  }
  v.details["vdevs_not_online"] = bad_vdevs;
  if (!pool.status.empty()) v.details["status"] = pool.status;
  const bool pool_bad = BadState(pool.state);
  if (!pool_bad && bad_vdevs.empty()) {
    Clear(v, "pool " + pool.name + " is " + (pool.state.empty() ? "ONLINE" : pool.state));
  } else if (pool.kind == "md" && pool.state == "DEGRADED") {
    Fire(v, Severity::kCritical,
         "md array " + pool.name + " is missing a member (DEGRADED): it has no redundancy left "
         "until a member is added back");
  } else {
    std::string what = pool_bad ? "pool " + pool.name + " is " + pool.state
                                : "pool " + pool.name + " has a vdev not ONLINE";
    for (const auto& b : bad_vdevs)
      what += "; " + b["vdev"].get<std::string>() + " " + b["state"].get<std::string>();
    Fire(v, pool_bad && pool.state != "DEGRADED" ? Severity::kCritical : Severity::kWarning,
         what);
    if (pool.state == "DEGRADED") v.severity = Severity::kCritical;
  }
  out.push_back(std::move(v));
}

void AddUnmappedMembers(const Pool& pool, const PoolMemory& memory, std::int64_t now,
                        std::vector<Verdict>& out) {
  Verdict v = Base("", "pool:" + pool.name + ":members", "pool", pool.name, "member_state", now);
  v.details["pool"] = pool.name;
  nlohmann::json members = nlohmann::json::array();
  std::vector<std::string> names;
  for (const Vdev& vd : pool.vdevs) {
    for (const PoolMember& m : vd.members) {
      if (m.container || !m.drive_id.empty()) continue;
      if (m.state != "UNAVAIL" && m.state != "FAULTED" && m.state != "REMOVED") continue;
      nlohmann::json row = {{"vdev", vd.name}, {"member", m.path}, {"state", m.state}};
      if (!m.note.empty()) row["note"] = m.note;
      std::string name = m.path;
      const std::string was = WasPath(m.note);
      auto known = memory.last_drive_at.find(m.path);
      if (known == memory.last_drive_at.end() && !was.empty())
        known = memory.last_drive_at.find(was);
      if (known != memory.last_drive_at.end()) {
        const Drive& d = known->second;
        row["last_known_drive"] = d.id;
        row["model"] = d.model;
        row["serial"] = d.serial;
        name = DriveLabel(d);
      } else if (!was.empty()) {
        name = m.path + " (was " + was + ")";
      }
      row["identity"] = name;
      members.push_back(std::move(row));
      names.push_back(name + " " + m.state);
    }
  }
  v.details["members"] = members;
  v.current = static_cast<double>(members.size());
  if (members.empty()) {
    Clear(v, "pool " + pool.name + ": every member is present");
  } else {
    std::string list;
    for (std::size_t i = 0; i < names.size() && i < 5; ++i) list += (i ? ", " : "") + names[i];
    if (names.size() > 5) list += ", and " + std::to_string(names.size() - 5) + " more";
    Fire(v, Severity::kCritical,
         "pool " + pool.name + ": " + std::to_string(names.size()) +
             (names.size() == 1 ? " member is" : " members are") +
             " gone from the pool and from the system: " + list);
  }
  out.push_back(std::move(v));
}

void AddPermanentErrors(const Pool& pool, std::int64_t now, std::vector<Verdict>& out) {
  if (pool.kind != "zfs") return;
  Verdict v = Base("", "pool:" + pool.name + ":errors", "pool", pool.name, "data_errors", now);
  v.details["pool"] = pool.name;
  v.details["errors"] = pool.errors;
  v.details["files"] = pool.error_files;
  const std::string e = Lower(pool.errors);
  if (e.empty() || e.find("no known data errors") != std::string::npos) {
    if (pool.error_files.empty()) {
      Clear(v, "pool " + pool.name + ": no known data errors");
      out.push_back(std::move(v));
      return;
    }
  }
  std::string summary = "pool " + pool.name + " has permanent data errors";
  if (!pool.error_files.empty())
    summary += " in " + std::to_string(pool.error_files.size()) +
               (pool.error_files.size() == 1 ? " file" : " files") + " (first: " +
               pool.error_files.front() + ")";
  else if (!pool.errors.empty())
    summary += ": " + pool.errors;
  Fire(v, Severity::kCritical, summary + "; restore them from a backup");
  out.push_back(std::move(v));
}

void AddCapacity(const Pool& pool, std::int64_t now, const DetectionConfig& cfg,
                 std::vector<Verdict>& out) {
  if (!pool.size_bytes || !pool.allocated_bytes || *pool.size_bytes == 0) return;
  Verdict v = Base("", "pool:" + pool.name + ":capacity", "pool", pool.name, "used_percent", now);
  v.unit = "%";
  const double used = 100.0 * static_cast<double>(*pool.allocated_bytes) /
                      static_cast<double>(*pool.size_bytes);
  v.current = used;
  v.details["pool"] = pool.name;
  v.details["size_bytes"] = *pool.size_bytes;
  v.details["allocated_bytes"] = *pool.allocated_bytes;
  v.details["warning_percent"] = cfg.pool_capacity_warning_percent;
  v.details["critical_percent"] = cfg.pool_capacity_critical_percent;
  const std::string what =
      "pool " + pool.name + " is " + std::to_string(static_cast<int>(used)) + "% full";
  if (used >= cfg.pool_capacity_critical_percent)
    Fire(v, Severity::kCritical, what + ": ZFS slows down and can run out; free space now");
  else if (used >= cfg.pool_capacity_warning_percent)
    Fire(v, Severity::kWarning, what + "; plan more space");
  else
    Clear(v, what);
  out.push_back(std::move(v));
}

void AddScrub(const Pool& pool, const PoolMemory& memory, std::int64_t now,
              const DetectionConfig& cfg, std::vector<Verdict>& out) {
  if (pool.kind != "zfs") return;
  const PoolScan& scan = pool.scan;
  const std::optional<std::int64_t> finished = ScanFinishedAt(scan);
  // Overdue: judged from the last finished scrub; a running scrub is on time.
  if (cfg.scrub_overdue_days > 0) {
    Verdict v = Base("", "scrub:" + pool.name + ":overdue", "pool", pool.name, "scrub_age", now);
    v.unit = "days";
    v.details["pool"] = pool.name;
    v.details["scan"] = scan.text;
    v.details["limit_days"] = cfg.scrub_overdue_days;
    const std::int64_t limit = static_cast<std::int64_t>(cfg.scrub_overdue_days) * kDay;
    if (scan.function == "scrub" && scan.state == "in_progress") {
      Clear(v, "pool " + pool.name + " is being scrubbed");
    } else if (scan.function == "scrub" && scan.state == "finished" && finished) {
      v.details["last_scrub_at"] = *finished;
      v.current = static_cast<double>(now - *finished) / kDay;
      if (now - *finished > limit)
        Fire(v, Severity::kWarning,
             "pool " + pool.name + " was last scrubbed " + Days(now - *finished) +
                 " ago (limit " + std::to_string(cfg.scrub_overdue_days) + " days)");
      else
        Clear(v, "pool " + pool.name + " was scrubbed " + Days(now - *finished) + " ago");
    } else if (memory.first_seen && now - *memory.first_seen > limit) {
      // No finished scrub on record (never, canceled, or a resilver since):
      // overdue once the pool has been watched for longer than the limit.
      v.details["watched_since"] = *memory.first_seen;
      Fire(v, Severity::kWarning,
           "pool " + pool.name + " shows no finished scrub (" +
               (scan.text.empty() ? std::string("none requested") : scan.state) +
               ") and has been watched for " + Days(now - *memory.first_seen) + " (limit " +
               std::to_string(cfg.scrub_overdue_days) + " days)");
    } else {
      v.kind = VerdictKind::kInconclusive;
      v.summary = "pool " + pool.name + ": no finished scrub to judge yet";
    }
    out.push_back(std::move(v));
  }
  // Findings of the last finished scrub or resilver.
  if (scan.state != "finished" || (scan.function != "scrub" && scan.function != "resilver"))
    return;
  Verdict v = Base("", "scrub:" + pool.name + ":findings", "pool", pool.name, "scan_errors", now);
  v.details["pool"] = pool.name;
  v.details["scan"] = scan.text;
  v.details["function"] = scan.function;
  if (finished) v.details["finished_at"] = *finished;
  const std::optional<std::uint64_t> errors = ScanErrors(scan);
  // A resilver "repairs" by design; only a scrub's repairs are news.
  const std::string repaired =
      scan.function != "scrub"            ? ""
      : (!scan.text.empty() && scan.text.front() == '{') ? JsonRepaired(scan)
                                                          : RepairedAmount(scan.text);
  if (errors) v.current = static_cast<double>(*errors);
  if (!repaired.empty()) v.details["repaired"] = repaired;
  if (errors && *errors > 0) {
    Fire(v, Severity::kCritical,
         "the last " + scan.function + " of pool " + pool.name + " finished with " +
             std::to_string(*errors) + (*errors == 1 ? " error" : " errors") +
             (repaired.empty() ? "" : " (repaired " + repaired + ")") +
             ": data it could not repair; see zpool status -v");
  } else if (!repaired.empty()) {
    Fire(v, Severity::kWarning,
         "the last scrub of pool " + pool.name + " repaired " + repaired +
             ": a member returned bad data; watch its error counters and SMART");
  } else {
    Clear(v, "the last " + scan.function + " of pool " + pool.name + " found nothing to repair");
  }
  out.push_back(std::move(v));
}

// Used endurance in percent and where it came from, for a solid-state drive.
std::optional<std::pair<int, std::string>> WearUsed(const SmartSnapshot& s) {
  if (s.nvme && s.nvme->percentage_used)
    return std::make_pair(*s.nvme->percentage_used, std::string("NVMe percentage_used"));
  if (s.rotation_rpm.value_or(-1) != 0) return std::nullopt;  // not known to be an SSD
  // These attributes' normalised value counts down from 100 as the flash
  // wears, whatever the raw value means; the id alone is not enough (a
  // SandForce 177 is Wear_Range_Delta, a Kingston 233 is Flash_Writes_GiB).
  static const std::set<std::pair<int, std::string>> kLifeLeft = {
      {177, "Wear_Leveling_Count"},     {202, "Percent_Lifetime_Remain"},
      {202, "Perc_Rated_Life_Used"},    {231, "SSD_Life_Left"},
      {233, "Media_Wearout_Indicator"},
  };
  for (const SmartAttribute& a : s.attributes) {
    if (!a.value || !kLifeLeft.count({a.id, a.name})) continue;
    const int left = std::clamp(*a.value, 0, 100);
    return std::make_pair(100 - left,
                          "ATA " + std::to_string(a.id) + " " + a.name + " (normalised " +
                              std::to_string(*a.value) + ")");
  }
  return std::nullopt;
}

bool HasSelfTestLog(const SmartSnapshot& s) {
  if (!s.self_tests.empty()) return true;
  for (const char* key : {"\"ata_smart_self_test_log\"", "\"nvme_self_test_log\""})
    if (s.raw_json.find(key) != std::string::npos) return true;
  return false;
}

// Powered-on hours since the self-test logged at `lifetime`; ATA keeps the
// log's hours in 16 bits, so a drive past 65535 hours compares modulo 2^16.
std::optional<std::int64_t> HoursSince(std::uint64_t power_on, std::uint64_t lifetime) {
  if (lifetime <= power_on) return static_cast<std::int64_t>(power_on - lifetime);
  return std::nullopt;
}

std::optional<std::int64_t> SelfTestAge(const SmartSnapshot& s, const SmartSelfTest& t) {
  if (!s.power_on_hours || !t.lifetime_hours) return std::nullopt;
  const std::uint64_t poh = *s.power_on_hours, lt = *t.lifetime_hours;
  if (s.protocol == "ATA" && poh > 65535 && lt <= 65535) {
    const std::uint64_t wrapped = poh % 65536;
    return static_cast<std::int64_t>(wrapped >= lt ? wrapped - lt : wrapped + 65536 - lt);
  }
  return HoursSince(poh, lt);
}

}  // namespace

std::optional<std::int64_t> ScanFinishedAt(const PoolScan& scan) {
  if (!scan.text.empty() && scan.text.front() == '{') {
    const auto j = nlohmann::json::parse(scan.text, nullptr, false);
    if (!j.is_object() || !j.contains("end_time")) return std::nullopt;
    const auto& e = j["end_time"];
    if (e.is_number_integer() && e.get<std::int64_t>() > 0) return e.get<std::int64_t>();
    if (!e.is_string()) return std::nullopt;
    const std::string s = e.get<std::string>();
    if (!s.empty() && std::all_of(s.begin(), s.end(), ::isdigit)) return std::stoll(s);
    PoolScan text;
    text.text = "on " + s;
    return ScanFinishedAt(text);
  }
  static const std::regex kOn(R"(on\s+[A-Za-z]{3}\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(\d{4}))");
  std::smatch m;
  // The last date in the text: "scrub repaired ... on DATE".
  std::optional<std::int64_t> out;
  for (auto it = std::sregex_iterator(scan.text.begin(), scan.text.end(), kOn);
       it != std::sregex_iterator(); ++it) {
    static const std::string kMonths = "JanFebMarAprMayJunJulAugSepOctNovDec";
    const auto mon = kMonths.find((*it)[1].str());
    if (mon == std::string::npos || mon % 3 != 0) continue;
    std::tm tm{};
    tm.tm_mon = static_cast<int>(mon / 3);
    tm.tm_mday = std::stoi((*it)[2].str());
    tm.tm_hour = std::stoi((*it)[3].str());
    tm.tm_min = std::stoi((*it)[4].str());
    tm.tm_sec = std::stoi((*it)[5].str());
    tm.tm_year = std::stoi((*it)[6].str()) - 1900;
    tm.tm_isdst = -1;
    const std::time_t t = std::mktime(&tm);
    if (t != static_cast<std::time_t>(-1)) out = static_cast<std::int64_t>(t);
  }
  return out;
}

bool ExcludedDrive(const Drive& drive, const std::vector<std::string>& excluded) {
  for (const std::string& e : excluded) {
    if (IsDriveRef(drive, e)) return true;
    // "sdc" in the list stands for /dev/sdc (the lists take either form).
    if (!drive.dev_path.empty() && "/dev/" + e == drive.dev_path) return true;
    for (const std::string& p : drive.stable_paths)
      if (p == e) return true;
  }
  return false;
}

std::vector<Verdict> EvaluateMissingDrives(const std::vector<Drive>& drives, std::int64_t now,
                                           const DetectionConfig& cfg,
                                           const std::vector<std::string>& excluded) {
  std::vector<Verdict> out;
  const std::int64_t grace = static_cast<std::int64_t>(cfg.missing_grace_minutes) * 60;
  for (const Drive& d : drives) {
    if (d.transport == "file") continue;  // a benchmark file target is no drive
    Verdict v = Base(d.id, "missing", "inventory", "", "present", now);
    v.drive_name = d.name;
    v.details["dev_path"] = d.dev_path;
    v.details["model"] = d.model;
    v.details["serial"] = d.serial;
    v.details["last_seen"] = d.last_seen;
    if (d.missing_since) v.details["missing_since"] = *d.missing_since;
    if (d.present) {
      Clear(v, DriveLabel(d) + " is present");
    } else if (ExcludedDrive(d, excluded)) {
      v.details["excluded"] = true;
      Clear(v, "excluded: " + DriveLabel(d) + " is listed in inventory.exclude");
    } else if (d.forgotten_at) {
      v.details["forgotten_at"] = *d.forgotten_at;
      Clear(v, DriveLabel(d) + " was forgotten: " +
                   (d.forgotten_reason.empty() ? "retired by its owner" : d.forgotten_reason));
    } else {
      const std::int64_t since = d.missing_since.value_or(d.last_seen);
      v.current = static_cast<double>(now - since) / 60;
      v.unit = "min";
      if (now - since < grace) {
        v.kind = VerdictKind::kInconclusive;
        v.summary = DriveLabel(d) + " not seen for " + std::to_string((now - since) / 60) +
                    " min (grace " + std::to_string(cfg.missing_grace_minutes) + " min)";
      } else {
        Fire(v, Severity::kCritical,
             DriveLabel(d) + ", last seen as " + (d.dev_path.empty() ? d.name : d.dev_path) +
                 ", has been missing for " +
                 (now - since >= kDay ? Days(now - since)
                                      : std::to_string((now - since) / 60) + " min") +
                 "; if it was taken out for good, Forget it on its page (or `diskpulse forget " + d.id + "`)");
      }
    }
    out.push_back(std::move(v));
  }
  return out;
}

std::vector<Verdict> EvaluatePoolHealth(const Pool& pool, const PoolMemory& memory,
                                        std::int64_t now, const DetectionConfig& cfg) {
  std::vector<Verdict> out;
  if (pool.name.empty()) return out;
  AddPoolState(pool, now, out);
  AddUnmappedMembers(pool, memory, now, out);
  AddPermanentErrors(pool, now, out);
  AddCapacity(pool, now, cfg, out);
  AddScrub(pool, memory, now, cfg, out);
  // Notifications name what an alert is about; these are about the pool.
  for (Verdict& v : out) v.drive_name = "pool " + pool.name;
  return out;
}

std::vector<Verdict> EvaluateDriveUpkeep(const Drive& drive, const SmartSnapshot& s,
                                         std::int64_t at, const DetectionConfig& cfg) {
  std::vector<Verdict> out;
  if (auto wear = WearUsed(s)) {
    Verdict v = Base(drive.id, "wear:endurance", "smart", "", "wear_used_percent", at);
    v.drive_name = drive.name;
    v.unit = "%";
    v.current = wear->first;
    v.details["source"] = wear->second;
    v.details["warning_percent"] = cfg.wear_warning_percent;
    v.details["critical_percent"] = cfg.wear_critical_percent;
    const std::string what = drive.name + ": " + std::to_string(wear->first) +
                             "% of its rated endurance used (" + wear->second + ")";
    if (wear->first >= cfg.wear_critical_percent)
      Fire(v, Severity::kCritical, what + "; plan its replacement now");
    else if (wear->first >= cfg.wear_warning_percent)
      Fire(v, Severity::kWarning, what + "; plan its replacement");
    else
      Clear(v, what);
    out.push_back(std::move(v));
  }
  if (!HasSelfTestLog(s) || !s.power_on_hours) return out;
  const SmartSelfTest* newest = s.self_tests.empty() ? nullptr : &s.self_tests.front();
  if (newest) {
    Verdict v = Base(drive.id, "selftest:aborted", "smart", "", "self_test_status", at);
    v.drive_name = drive.name;
    v.details["type"] = newest->type;
    v.details["status"] = newest->status;
    if (newest->lifetime_hours) v.details["lifetime_hours"] = *newest->lifetime_hours;
    const std::string status = Lower(newest->status);
    if (status.find("abort") != std::string::npos || status.find("interrupt") != std::string::npos)
      Fire(v, Severity::kWarning,
           drive.name + ": its newest " + newest->type + " self-test did not finish: " +
               newest->status + " (a sleep, a reset or another command stopped it)");
    else
      Clear(v, drive.name + ": newest self-test: " + newest->status);
    out.push_back(std::move(v));
  }
  if (cfg.self_test_overdue_days > 0) {
    const std::int64_t limit_h = static_cast<std::int64_t>(cfg.self_test_overdue_days) * 24;
    Verdict v = Base(drive.id, "selftest:overdue", "smart", "", "self_test_age", at);
    v.drive_name = drive.name;
    v.unit = "h";
    v.details["power_on_hours"] = *s.power_on_hours;
    v.details["limit_days"] = cfg.self_test_overdue_days;
    if (s.self_test_running) {
      Clear(v, drive.name + ": a self-test is running");
    } else if (!newest) {
      v.current = static_cast<double>(*s.power_on_hours);
      if (static_cast<std::int64_t>(*s.power_on_hours) > limit_h)
        Fire(v, Severity::kWarning,
             drive.name + " has never run a SMART self-test in " +
                 std::to_string(*s.power_on_hours) + " powered-on hours");
      else
        Clear(v, drive.name + ": no self-test yet, a young drive");
    } else if (const auto age = SelfTestAge(s, *newest)) {
      v.current = static_cast<double>(*age);
      v.details["last_test_type"] = newest->type;
      v.details["last_test_lifetime_hours"] = newest->lifetime_hours.value_or(0);
      if (*age > limit_h)
        Fire(v, Severity::kWarning,
             drive.name + ": its newest self-test (" + newest->type + ") ran " +
                 std::to_string(*age / 24) + " powered-on days ago (limit " +
                 std::to_string(cfg.self_test_overdue_days) + " days)");
      else
        Clear(v, drive.name + ": newest self-test " + std::to_string(*age) +
                     " powered-on hours ago");
    } else {
      v.kind = VerdictKind::kInconclusive;
      v.summary = drive.name + ": the self-test log's hours do not fit the power-on hours";
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace dp::detect
