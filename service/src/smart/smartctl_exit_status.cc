#include "smart/smartctl_exit_status.h"

namespace dp {

SmartctlExitStatus DecodeSmartctlExit(int code) {
  SmartctlExitStatus s;
  s.raw = code;
  if (code < 0) return s;  // killed by a signal: no bits to read
  s.command_line_error = code & 0x01;
  s.device_open_failed = code & 0x02;
  s.command_failed = code & 0x04;
  s.disk_failing = code & 0x08;
  s.prefail_below_threshold = code & 0x10;
  s.past_below_threshold = code & 0x20;
  s.error_log_has_errors = code & 0x40;
  s.self_test_log_has_errors = code & 0x80;
  return s;
}

std::vector<std::string> DescribeSmartctlExit(int code) {
  static const char* const kBits[8] = {
      "command line did not parse",
      "device open failed or device in low-power mode",
      "some SMART or ATA command failed",
      "SMART status: DISK FAILING",
      "prefail attribute at or below threshold",
      "attribute at or below threshold in the past",
      "error log has records",
      "self-test log has errors",
  };
  std::vector<std::string> out;
  if (code < 0) return {"killed by a signal"};
  for (int bit = 0; bit < 8; ++bit) {
    if (code & (1 << bit)) out.emplace_back(kBits[bit]);
  }
  return out;
}

}  // namespace dp
