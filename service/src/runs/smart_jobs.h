// The SMART jobs of one drive: the scheduler's `smart` job (ReadDriveSmart,
// SaveDriveSmart; discovery's pass reads through them too) and its
// self-test jobs (StartDriveSelfTest / PollDriveSelfTest, refused on members
// of a scrubbing or resilvering pool, never waking a sleeping disk).
#pragma once

#include <cstdint>
#include <string>

#include "base/command_runner.h"
#include "base/result.h"
#include "config/config.h"
#include "model/drive.h"
#include "smart/self_test.h"
#include "smart/smart_reader.h"
#include "smart/smartctl_parser.h"
#include "store/store.h"

namespace dp {

// The device smartctl is pointed at for a drive: "/dev/<kernel name>" (also
// when discovery ran against a test or replay tree), the configured path for
// an explicit target.
std::string SmartDevicePath(const Drive& drive);

// smartctl's options for a drive: tools.* and the `-d TYPE` a config-file
// override gives it (drives behind a RAID controller or a USB bridge that
// smartctl cannot guess). The API cannot set a type: nothing from the
// network reaches a command line.
SmartctlOptions DriveSmartctlOptions(const Config& config, const Drive& drive);

// One SMART read of one drive (not saved). Skips files and drives smartctl
// cannot address with Unsupported.
Result<SmartReading> ReadDriveSmart(const Config& config, CommandRunner& runner, const Drive& drive);

// Saves one SMART reading for drive: InsertSmartSnapshot unless asleep.
// Refuses (FailedPrecondition) a snapshot whose serial or WWN contradicts the
// drive's: the /dev name moved to another disk between inventory and read.
Status SaveDriveSmart(Store& store, const Drive& drive, const SmartReading& reading, std::int64_t at);

// Self-tests for the scheduler: refuses a drive in a busy pool (pools as
// last recorded in the store), never wakes a sleeping disk.
Result<SelfTestStart> StartDriveSelfTest(const Config& config, CommandRunner& runner, Store& store,
                                         const Drive& drive, SelfTestKind kind);
Result<SelfTestProgress> PollDriveSelfTest(const Config& config, CommandRunner& runner,
                                           const Drive& drive);

}  // namespace dp
