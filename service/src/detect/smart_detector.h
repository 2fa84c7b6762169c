// EvaluateSmart: compares a drive's SMART snapshot with its previous one and
// with fixed limits, one Verdict per condition the drive reports:
//   counters, firing when new or increasing (first sight: firing when > 0 for
//   the sector/uncorrectable ones): 5 reallocated, 187 reported uncorrectable,
//   188 command timeouts, 197 pending, 198 offline uncorrectable, 199 UDMA CRC
//   errors, NVMe media errors. A counter that stops increasing is clear, so
//   its alert resolves after alerts.resolve_after_clear_runs quiet snapshots;
//   levels, firing while true: health failed, newest self-test failed, NVMe
//   critical warning != 0, NVMe spare below its threshold, temperature over
//   the ceiling.
// The rules follow smartd's -l selftest / -C / -U / -W defaults and the
// Backblaze drive-stats findings that 5/187/188/197/198 predict failure.
// Overrides (model/drive_override.h) tune it per drive: an ignored attribute
// is always clear ("ignored by ..."), so an alert it had resolves; a
// threshold replaces the limit (counters: alert only above that count,
// temperature: the ceiling, nvme_spare: the minimum); the verdict names the
// override in details.override.
// Pure function, thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/alerts_config.h"
#include "model/drive_override.h"
#include "model/smart_snapshot.h"
#include "model/verdict.h"

namespace dp::detect {

// previous: the drive's snapshot before `current` (nullptr on first sight).
// Conditions are "smart:FIELD" (smart:pending_sectors, smart:health,
// smart:self_test, smart:temperature, smart:nvme_critical_warning,
// smart:nvme_spare, smart:nvme_media_errors, ...); kinds kSmart or kClear.
std::vector<Verdict> EvaluateSmart(const std::string& drive_id, const std::string& drive_name,
                                   const SmartSnapshot* previous, const SmartSnapshot& current,
                                   std::int64_t at, const DetectionConfig& cfg,
                                   const ResolvedOverrides* overrides = nullptr);

}  // namespace dp::detect
