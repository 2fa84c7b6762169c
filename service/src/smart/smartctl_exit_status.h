// smartctl's exit status is a bitmask (smartctl(8) "RETURN VALUES"): data,
// not failure. SmartctlExitStatus decodes it. Plain value type.
#pragma once

#include <string>
#include <vector>

namespace dp {

struct SmartctlExitStatus {
  int raw = 0;
  bool command_line_error = false;        // bit 0: the command line did not parse
  bool device_open_failed = false;        // bit 1: open failed, or the device is in a low-power mode (-n)
  bool command_failed = false;            // bit 2: some SMART/ATA command failed, or a checksum error
  bool disk_failing = false;              // bit 3: SMART status says DISK FAILING
  bool prefail_below_threshold = false;   // bit 4: prefail attribute(s) at or below threshold
  bool past_below_threshold = false;      // bit 5: attribute(s) were at or below threshold in the past
  bool error_log_has_errors = false;      // bit 6: the device error log has records
  bool self_test_log_has_errors = false;  // bit 7: the self-test log has errors

  // True when bits 0 or 1 are set: smartctl got no data from the device.
  bool NoData() const { return command_line_error || device_open_failed; }
};

SmartctlExitStatus DecodeSmartctlExit(int code);

// One short phrase per set bit, e.g. {"error log has records"}; empty for 0.
std::vector<std::string> DescribeSmartctlExit(int code);

}  // namespace dp
