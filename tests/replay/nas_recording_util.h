// A small NAS as `diskpulse record` would have recorded it, built in a test
// folder: the Linux file trees (sys/, dev/, udev/, proc/) and the tool
// captures (commands/), the captures being real smartctl output from
// tests/fixtures/smartctl and a hand-made `zpool status` in OpenZFS's layout.
//
//   sda      WDC WD140EDFZ 14 TB  (tank)     SMART: healthy, self-test at 90%
//   sdb      Seagate ST6000NM0115 (tank)     SMART: exit status 4
//   sdc      WDC WD40EFRX         (tank)     SMART: asleep
//   sdd      Seagate ST3500418AS  (md0)      SMART: smartctl hung (timeout)
//   nvme0n1  Samsung 970 EVO      (md0)      SMART: 7 media errors
//   tank: raidz1 of sda1/sdb1/sdc1 by-id, scrub in progress 12.5%
//   md0:  raid1 of nvme0n1p1 and sdd1, idle
#pragma once

#include <string>

namespace dp::testing {

// Writes the recording into dir (which must exist).
void WriteNasRecording(const std::string& dir);

// The drive ids discovery must find in it.
inline constexpr const char* kSdaId = "wwn-5000cca264eb01d7";
inline constexpr const char* kSdbId = "wwn-5000c500a496983d";
inline constexpr const char* kSdcId = "WDC_WD40EFRX-68N32N0_WD-WCC7K0000000";
inline constexpr const char* kSddId = "ST3500418AS_5VMSTSSX";
inline constexpr const char* kNvmeId = "Samsung_SSD_970_EVO_500GB_S466NX0M776250H";

}  // namespace dp::testing
