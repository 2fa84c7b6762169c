#include "runs/smart_jobs.h"

#include <filesystem>

#include "base/strings.h"
#include "smart/smart_reader.h"

namespace dp {

std::string SmartDevicePath(const Drive& drive) {
  if (drive.explicit_target && drive.transport == "file") return drive.dev_path;
  std::string base = std::filesystem::path(drive.dev_path).filename().string();
  if (base.empty()) base = drive.name;
  return "/dev/" + base;
}

SmartctlOptions DriveSmartctlOptions(const Config& config, const Drive& drive) {
  SmartctlOptions o = SmartctlOptionsFrom(config.tools);
  // Only the config file's overrides carry a device type (mutes do not
  // matter here, so the time does not either).
  o.device_type = ResolveOverrides(config.overrides, drive, 0).device_type;
  return o;
}

Result<SmartReading> ReadDriveSmart(const Config& config, CommandRunner& runner, const Drive& drive) {
  if (drive.transport == "file") {
    return Unsupported(drive.name + " is a file: no SMART");
  }
  return ReadSmart(runner, DriveSmartctlOptions(config, drive), SmartDevicePath(drive));
}

Status SaveDriveSmart(Store& store, const Drive& drive, const SmartReading& reading, std::int64_t at) {
  if (reading.asleep) return Status::Ok();
  const SmartSnapshot& s = reading.snapshot;
  if (!s.serial.empty() && !drive.serial.empty() && FoldName(s.serial) != FoldName(drive.serial)) {
    return FailedPrecondition(drive.name + ": smartctl reports serial '" + s.serial +
                              "' but the drive is '" + drive.serial +
                              "' (device name moved?); snapshot not saved");
  }
  if (s.wwn && drive.wwn && *s.wwn != *drive.wwn) {
    return FailedPrecondition(drive.name + ": smartctl reports WWN " + *s.wwn + " but the drive is " +
                              *drive.wwn + " (device name moved?); snapshot not saved");
  }
  auto id = store.InsertSmartSnapshot(drive.id, at, s);
  return id.ok() ? Status::Ok() : id.status();
}

Result<SelfTestStart> StartDriveSelfTest(const Config& config, CommandRunner& runner, Store& store,
                                         const Drive& drive, SelfTestKind kind) {
  if (drive.transport == "file") return Unsupported(drive.name + " is a file: no self-tests");
  DP_ASSIGN_OR_RETURN(std::vector<Pool> pools, store.LatestPools());
  return StartSelfTest(runner, DriveSmartctlOptions(config, drive), SmartDevicePath(drive), kind,
                       drive.id, pools);
}

Result<SelfTestProgress> PollDriveSelfTest(const Config& config, CommandRunner& runner,
                                           const Drive& drive) {
  if (drive.transport == "file") return Unsupported(drive.name + " is a file: no self-tests");
  return PollSelfTest(runner, DriveSmartctlOptions(config, drive), SmartDevicePath(drive));
}

}  // namespace dp
