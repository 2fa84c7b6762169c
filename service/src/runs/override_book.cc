#include "runs/override_book.h"

#include <fnmatch.h>

#include <algorithm>

#include "base/log.h"

namespace dp {
namespace {

const char* SelectorKey(const DriveOverride& o) {
  return !o.serial.empty() ? "serial" : !o.model.empty() ? "model" : !o.pool.empty() ? "pool" : "drive";
}

std::string Unknown(const DriveOverride& o) {
  if (!o.drive_id.empty()) return "no known drive has id '" + o.drive_id + "'";
  if (!o.serial.empty()) return "no known drive has serial '" + o.serial + "'";
  return "model pattern '" + o.model + "' matches no known drive";
}

bool AnyMatches(const DriveOverride& o, const std::vector<Drive>& known) {
  return std::any_of(known.begin(), known.end(),
                     [&](const Drive& d) { return OverrideMatches(o, d); });
}

}  // namespace

std::vector<std::string> UnknownDriveProblems(const std::vector<DriveOverride>& from_config,
                                              const std::vector<Drive>& known) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < from_config.size(); ++i) {
    const DriveOverride& o = from_config[i];
    // Pools are only known after the first discovery pass, and a pool that
    // is exported for a while should not stop the daemon from starting.
    if (!o.pool.empty() || AnyMatches(o, known)) continue;
    out.push_back(o.where + ": overrides[" + std::to_string(i) + "]." + SelectorKey(o) + ": " +
                  Unknown(o));
  }
  return out;
}

OverrideBook::OverrideBook(Store& store, const Clock& clock, std::vector<DriveOverride> from_config)
    : store_(store), clock_(clock), from_config_(std::move(from_config)) {}

Status OverrideBook::PurgeExpired() {
  DP_ASSIGN_OR_RETURN(std::vector<DriveOverride> stored, store_.ListOverrides());
  const std::int64_t now = ToUnixSeconds(clock_.Now());
  for (const DriveOverride& o : stored) {
    if (!MuteExpired(o, now)) continue;
    Status s = store_.DeleteOverride(o.id, "expired", "diskpulse",
                                     "mute ended " + FormatUtc(FromUnixSeconds(*o.mute_until)), now);
    // Another caller may have purged it a moment ago.
    if (!s.ok() && s.code() != StatusCode::kNotFound) return s;
    if (s.ok()) LogInfo("override " + std::to_string(o.id) + " (" + OverrideSelector(o) + "): mute expired");
  }
  return Status::Ok();
}

Result<std::vector<DriveOverride>> OverrideBook::All() {
  DP_RETURN_IF_ERROR(PurgeExpired());
  DP_ASSIGN_OR_RETURN(std::vector<DriveOverride> stored, store_.ListOverrides());
  std::vector<DriveOverride> all = from_config_;
  all.insert(all.end(), stored.begin(), stored.end());
  return all;
}

Result<ResolvedOverrides> OverrideBook::For(const Drive& drive) {
  DP_ASSIGN_OR_RETURN(std::vector<DriveOverride> all, All());
  return ResolveOverrides(all, drive, ToUnixSeconds(clock_.Now()));
}

std::optional<std::int64_t> OverrideBook::MutedUntil(const std::string& drive_id,
                                                     const std::string& condition) {
  auto all = All();
  if (!all.ok()) {
    LogWarning("overrides: " + all.status().ToString());
    return std::nullopt;
  }
  const std::int64_t now = ToUnixSeconds(clock_.Now());
  std::optional<std::int64_t> until = PoolMutedUntil(*all, condition, now);
  if (drive_id.empty()) return until;
  auto drive = store_.GetDrive(drive_id);
  if (!drive.ok() || !*drive) return until;
  const std::optional<std::int64_t> drive_until =
      ResolveOverrides(*all, **drive, now).MutedUntil(condition);
  if (drive_until && (!until || *drive_until > *until)) until = drive_until;
  return until;
}

Result<DriveReadings> OverrideBook::LatestReadings() {
  DP_ASSIGN_OR_RETURN(std::vector<Drive> drives, store_.ListDrives());
  DriveReadings out;
  for (Drive& d : drives) {
    DP_ASSIGN_OR_RETURN(std::optional<SmartSnapshot> latest, store_.LatestSmart(d.id));
    out.emplace_back(std::move(d), std::move(latest));
  }
  return out;
}

void OverrideBook::LogMissingAttributes(const DriveReadings& drives) {
  auto all = All();
  if (!all.ok()) {
    LogWarning("overrides: " + all.status().ToString());
    return;
  }
  for (const DriveOverride& o : *all)
    for (const std::string& w : MissingAttributeWarnings(o, drives))
      LogWarning("overrides: " + (o.source == "config" ? o.where : "api override " + std::to_string(o.id)) +
                 " (" + OverrideSelector(o) + ", " + o.attribute + "): " + w);
}

Result<DriveOverride> OverrideBook::Set(DriveOverride o, const std::string& who) {
  o.source = "api";
  o.id = 0;
  o.where.clear();
  if (!o.device_type.empty())
    return InvalidArgument(
        "device_type: set it in the config file's overrides (nothing from the network reaches "
        "smartctl's command line)");
  if (auto problem = OverrideProblem(o)) return InvalidArgument(problem->first + ": " + problem->second);
  const std::int64_t now = ToUnixSeconds(clock_.Now());
  if (o.mute_until && *o.mute_until <= now)
    return InvalidArgument("mute_until: is in the past");
  if (!o.pool.empty()) {
    DP_ASSIGN_OR_RETURN(std::vector<Pool> pools, store_.LatestPools());
    const bool known_pool = std::any_of(pools.begin(), pools.end(), [&](const Pool& p) {
      return fnmatch(o.pool.c_str(), p.name.c_str(), 0) == 0;
    });
    if (!known_pool) return InvalidArgument("pool: pool pattern '" + o.pool + "' matches no known pool");
  } else {
    DP_ASSIGN_OR_RETURN(std::vector<Drive> known, store_.ListDrives());
    if (!AnyMatches(o, known)) return InvalidArgument(std::string(SelectorKey(o)) + ": " + Unknown(o));
  }
  if (!o.attribute.empty()) o.attribute = *CanonicalSmartAttribute(o.attribute);
  o.who = who;
  o.at = now;
  DP_ASSIGN_OR_RETURN(o.id, store_.InsertOverride(o));
  LogInfo("override " + std::to_string(o.id) + " set (" + OverrideSelector(o) +
          (o.attribute.empty() ? "" : ", " + o.attribute) +
          (o.kind.empty() ? "" : ", " + o.kind + " alerts") + ") by " + who +
          (o.reason.empty() ? "" : ": " + o.reason));
  if (on_change_) on_change_();
  return o;
}

Status OverrideBook::Delete(const std::string& id, const std::string& who, const std::string& reason) {
  if (id.rfind("config-", 0) == 0) {
    const std::string n = id.substr(7);
    std::size_t i = n.empty() || n.find_first_not_of("0123456789") != std::string::npos
                        ? from_config_.size()
                        : std::stoul(n);
    if (i < from_config_.size())
      return FailedPrecondition("override " + id + " is set in the config file (" +
                                from_config_[i].where + "): edit it there");
    return NotFound("override " + id + " does not exist");
  }
  if (id.empty() || id.size() > 18 || id.find_first_not_of("0123456789") != std::string::npos)
    return NotFound("override " + id + " does not exist");
  DP_RETURN_IF_ERROR(
      store_.DeleteOverride(std::stoll(id), "deleted", who, reason, ToUnixSeconds(clock_.Now())));
  LogInfo("override " + id + " deleted by " + who + (reason.empty() ? "" : ": " + reason));
  if (on_change_) on_change_();
  return Status::Ok();
}

}  // namespace dp
