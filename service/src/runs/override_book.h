// OverrideBook: the overrides in force, from both places they come from —
// the config file's (read-only here, shown with their FILE:LINE) and those
// set through the API (the store's `overrides`, every change audited). The
// judge asks it what applies to a drive (model/drive_override.h's
// ResolveOverrides is the rule), the alert service whether an alert is
// muted, the API lists, sets and deletes. A mute that has expired resolves
// itself: an API override that was only a mute is deleted at the next look
// (audited "expired", by "diskpulse"); one from the config file simply stops
// being in force. Thread-safe (the store is; the config list is immutable).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "model/drive.h"
#include "model/drive_override.h"
#include "store/store.h"

namespace dp {

// The config file's overrides that name no drive of `known`: one line each,
// "FILE:LINE: overrides[N].drive: no known drive has id 'X'" (serial, model
// likewise). The daemon refuses to start on any. Pool selectors are not
// checked here (pools are known only after discovery).
std::vector<std::string> UnknownDriveProblems(const std::vector<DriveOverride>& from_config,
                                              const std::vector<Drive>& known);

using DriveReadings = std::vector<std::pair<Drive, std::optional<SmartSnapshot>>>;

class OverrideBook {
 public:
  OverrideBook(Store& store, const Clock& clock, std::vector<DriveOverride> from_config);

  // Every override: the config file's (in file order), then the API's
  // (oldest first), after removing expired API mutes.
  Result<std::vector<DriveOverride>> All();
  // What is in force for the drive now.
  Result<ResolvedOverrides> For(const Drive& drive);
  // For AlertService: until when alerts of `condition` on the drive are
  // muted (by the drive's overrides, or for a condition naming a pool by
  // that pool's; drive_id "" for a pool's own alerts); nullopt when not (or
  // the store fails: a notification is better sent than lost).
  std::optional<std::int64_t> MutedUntil(const std::string& drive_id, const std::string& condition);

  // Checks (OverrideProblem; a drive id or serial must be a known drive's,
  // a model pattern must match one, a pool pattern a pool of the latest
  // discovery; device_type is config-only), stamps
  // who/at and stores. InvalidArgument naming the field otherwise.
  Result<DriveOverride> Set(DriveOverride o, const std::string& who);
  // Deletes an API override by id ("12"); "config-N" is FailedPrecondition
  // (edit the config file), an unknown one NotFound.
  Status Delete(const std::string& id, const std::string& who, const std::string& reason);

  const std::vector<DriveOverride>& from_config() const { return from_config_; }
  // Called after Set and Delete succeed (a mute began or ended early), so
  // what shows the alerts' standing can show it again. Set before use.
  void OnChange(std::function<void()> f) { on_change_ = std::move(f); }

  // The known drives, each with its latest SMART reading, attributes and all
  // (nullopt: none yet).
  Result<DriveReadings> LatestReadings();
  // Logs a warning for every override that names an attribute one of
  // `drives`' readings lacks (MissingAttributeWarnings), naming the override
  // and the drive. The daemon calls it at start, at reload and after each
  // SMART read of a drive.
  void LogMissingAttributes(const DriveReadings& drives);

 private:
  Status PurgeExpired();

  Store& store_;
  const Clock& clock_;
  const std::vector<DriveOverride> from_config_;
  std::function<void()> on_change_;
};

}  // namespace dp
