// The NVMe part of smartctl's JSON: the SMART/health information log (one
// fixed structure, no attribute table) and the self-test log with the test
// in progress (smartctl >= 7.3). Separate from ATA and SCSI because NVMe
// reports its figures in its own log with its own result codes, as
// smartmontools keeps them in nvmeprint.
#include "smart/smartctl_protocols.h"

namespace dp::smartctl {

std::optional<int> NvmeTemperature(const json& j, Reader& r) {
  return CheckedCelsius(r.Int(j, {"nvme_smart_health_information_log", "temperature"}, -1000, 1000),
                        "nvme_smart_health_information_log.temperature", r);
}

std::optional<std::uint64_t> NvmePowerOnHours(const json& j, Reader& r) {
  return r.U64(j, {"nvme_smart_health_information_log", "power_on_hours"});
}

std::optional<std::uint64_t> NvmePowerCycles(const json& j, Reader& r) {
  return r.U64(j, {"nvme_smart_health_information_log", "power_cycles"});
}

void ParseNvmeHealth(const json& j, SmartSnapshot& s, Reader& r) {
  const json* h = r.Find(j, {"nvme_smart_health_information_log"});
  if (!h || !h->is_object()) return;
  NvmeHealth n;
  n.critical_warning = r.U64(*h, {"critical_warning"}, 0xff);
  n.media_errors = r.U64(*h, {"media_errors"});
  n.percentage_used = r.Int(*h, {"percentage_used"}, 0, 255);
  n.available_spare = r.Int(*h, {"available_spare"}, 0, 100);
  n.available_spare_threshold = r.Int(*h, {"available_spare_threshold"}, 0, 100);
  n.unsafe_shutdowns = r.U64(*h, {"unsafe_shutdowns"});
  n.num_err_log_entries = r.U64(*h, {"num_err_log_entries"});
  s.nvme = n;
}

void ParseNvmeSelfTestLog(const json& j, SmartSnapshot& s, Reader& r) {
  // smartctl >= 7.3 with -x or -l selftest.
  const json* table = r.Find(j, {"nvme_self_test_log", "table"});
  if (!table || !table->is_array()) return;
  for (const auto& tj : *table) {
    if (!tj.is_object()) continue;
    auto result = r.Int(tj, {"self_test_result", "value"}, 0, 15);
    if (result == 15) continue;  // entry not used
    SmartSelfTest t;
    t.type = NormaliseTestType(r.Str(tj, {"self_test_code", "string"}));
    t.status = r.Str(tj, {"self_test_result", "string"});
    if (result) {
      if (*result == 0) t.passed = true;
      else if (*result >= 5 && *result <= 7) t.passed = false;  // fatal / failed segment(s)
    }
    t.lifetime_hours = r.U64(tj, {"power_on_hours"});
    s.self_tests.push_back(std::move(t));
  }
}

void ParseNvmeSelfTestStatus(const json& j, SmartSnapshot& s, Reader& r) {
  // A current operation other than 0 is a test running; NVMe counts the part
  // done, we keep the part remaining.
  if (auto op = r.Int(j, {"nvme_self_test_log", "current_self_test_operation", "value"}, 0, 255);
      op && *op != 0) {
    s.self_test_running = true;
    if (auto done = r.Int(j, {"nvme_self_test_log", "current_self_test_completion_percent"}, 0, 100)) {
      s.self_test_remaining_percent = 100 - *done;
    }
  }
}

}  // namespace dp::smartctl
