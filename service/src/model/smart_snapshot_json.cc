#include "model/smart_snapshot_json.h"

#include "model/json_fields.h"

namespace dp {
namespace {

using nlohmann::json;
using json_fields::OptOrNull;
using json_fields::StrOrNull;

// Reads key into out when it is present and of the right kind; a wrong kind
// is an error, null or absence leaves out unset.
template <typename T>
Status Read(const json& j, const char* key, std::optional<T>& out) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return Status::Ok();
  if constexpr (std::is_same_v<T, bool>) {
    if (!it->is_boolean()) return InvalidArgument(std::string(key) + ": expected true/false/null");
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!it->is_string()) return InvalidArgument(std::string(key) + ": expected a string or null");
  } else if constexpr (std::is_unsigned_v<T>) {
    if (!it->is_number_unsigned()) {
      return InvalidArgument(std::string(key) + ": expected a non-negative integer or null");
    }
  } else {
    if (!it->is_number_integer()) return InvalidArgument(std::string(key) + ": expected an integer or null");
  }
  out = it->get<T>();
  return Status::Ok();
}

Status ReadStr(const json& j, const char* key, std::string& out) {
  std::optional<std::string> v;
  DP_RETURN_IF_ERROR(Read(j, key, v));
  out = v.value_or("");
  return Status::Ok();
}

}  // namespace

nlohmann::json SmartSnapshotToJson(const SmartSnapshot& s) {
  json nvme = nullptr;
  if (s.nvme) {
    nvme = {{"critical_warning", OptOrNull(s.nvme->critical_warning)},
            {"media_errors", OptOrNull(s.nvme->media_errors)},
            {"percentage_used", OptOrNull(s.nvme->percentage_used)},
            {"available_spare", OptOrNull(s.nvme->available_spare)},
            {"available_spare_threshold", OptOrNull(s.nvme->available_spare_threshold)},
            {"unsafe_shutdowns", OptOrNull(s.nvme->unsafe_shutdowns)},
            {"num_err_log_entries", OptOrNull(s.nvme->num_err_log_entries)}};
  }
  json attributes = json::array();
  for (const auto& a : s.attributes) {
    attributes.push_back({{"id", a.id},
                          {"name", StrOrNull(a.name)},
                          {"value", OptOrNull(a.value)},
                          {"worst", OptOrNull(a.worst)},
                          {"thresh", OptOrNull(a.thresh)},
                          {"raw", OptOrNull(a.raw)},
                          {"raw_string", StrOrNull(a.raw_string)},
                          {"raw_shown", OptOrNull(RawShownNumber(a))},
                          {"when_failed", StrOrNull(a.when_failed)},
                          {"prefailure", a.prefailure}});
  }
  json self_tests = json::array();
  for (const auto& t : s.self_tests) {
    self_tests.push_back({{"type", StrOrNull(t.type)},
                          {"status", StrOrNull(t.status)},
                          {"passed", OptOrNull(t.passed)},
                          {"lifetime_hours", OptOrNull(t.lifetime_hours)}});
  }
  json j = json::object();
  j["protocol"] = StrOrNull(s.protocol);
  j["model"] = StrOrNull(s.model);
  j["serial"] = StrOrNull(s.serial);
  j["wwn"] = s.wwn && !s.wwn->empty() ? json(*s.wwn) : json(nullptr);
  j["firmware"] = StrOrNull(s.firmware);
  j["capacity_bytes"] = OptOrNull(s.capacity_bytes);
  j["rotation_rpm"] = OptOrNull(s.rotation_rpm);
  j["health_passed"] = OptOrNull(s.health_passed);
  j["temperature_c"] = OptOrNull(s.temperature_c);
  j["power_on_hours"] = OptOrNull(s.power_on_hours);
  j["power_cycles"] = OptOrNull(s.power_cycles);
  j["reallocated_sectors"] = OptOrNull(s.reallocated_sectors);
  j["pending_sectors"] = OptOrNull(s.pending_sectors);
  j["offline_uncorrectable"] = OptOrNull(s.offline_uncorrectable);
  j["reported_uncorrectable"] = OptOrNull(s.reported_uncorrectable);
  j["command_timeouts"] = OptOrNull(s.command_timeouts);
  j["udma_crc_errors"] = OptOrNull(s.udma_crc_errors);
  j["nvme"] = std::move(nvme);
  j["attributes"] = std::move(attributes);
  j["self_tests"] = std::move(self_tests);
  j["smartctl_exit_status"] = OptOrNull(s.smartctl_exit_status);
  j["messages"] = s.messages;
  return j;
}

Result<SmartSnapshot> SmartSnapshotFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return InvalidArgument("SMART snapshot: expected a JSON object");
  SmartSnapshot s;
  DP_RETURN_IF_ERROR(ReadStr(j, "protocol", s.protocol));
  DP_RETURN_IF_ERROR(ReadStr(j, "model", s.model));
  DP_RETURN_IF_ERROR(ReadStr(j, "serial", s.serial));
  DP_RETURN_IF_ERROR(Read(j, "wwn", s.wwn));
  DP_RETURN_IF_ERROR(ReadStr(j, "firmware", s.firmware));
  DP_RETURN_IF_ERROR(Read(j, "capacity_bytes", s.capacity_bytes));
  DP_RETURN_IF_ERROR(Read(j, "rotation_rpm", s.rotation_rpm));
  DP_RETURN_IF_ERROR(Read(j, "health_passed", s.health_passed));
  DP_RETURN_IF_ERROR(Read(j, "temperature_c", s.temperature_c));
  DP_RETURN_IF_ERROR(Read(j, "power_on_hours", s.power_on_hours));
  DP_RETURN_IF_ERROR(Read(j, "power_cycles", s.power_cycles));
  DP_RETURN_IF_ERROR(Read(j, "reallocated_sectors", s.reallocated_sectors));
  DP_RETURN_IF_ERROR(Read(j, "pending_sectors", s.pending_sectors));
  DP_RETURN_IF_ERROR(Read(j, "offline_uncorrectable", s.offline_uncorrectable));
  DP_RETURN_IF_ERROR(Read(j, "reported_uncorrectable", s.reported_uncorrectable));
  DP_RETURN_IF_ERROR(Read(j, "command_timeouts", s.command_timeouts));
  DP_RETURN_IF_ERROR(Read(j, "udma_crc_errors", s.udma_crc_errors));
  DP_RETURN_IF_ERROR(Read(j, "smartctl_exit_status", s.smartctl_exit_status));
  if (auto it = j.find("nvme"); it != j.end() && !it->is_null()) {
    if (!it->is_object()) return InvalidArgument("nvme: expected an object or null");
    NvmeHealth n;
    DP_RETURN_IF_ERROR(Read(*it, "critical_warning", n.critical_warning));
    DP_RETURN_IF_ERROR(Read(*it, "media_errors", n.media_errors));
    DP_RETURN_IF_ERROR(Read(*it, "percentage_used", n.percentage_used));
    DP_RETURN_IF_ERROR(Read(*it, "available_spare", n.available_spare));
    DP_RETURN_IF_ERROR(Read(*it, "available_spare_threshold", n.available_spare_threshold));
    DP_RETURN_IF_ERROR(Read(*it, "unsafe_shutdowns", n.unsafe_shutdowns));
    DP_RETURN_IF_ERROR(Read(*it, "num_err_log_entries", n.num_err_log_entries));
    s.nvme = n;
  }
  if (auto it = j.find("attributes"); it != j.end() && !it->is_null()) {
    if (!it->is_array()) return InvalidArgument("attributes: expected an array");
    for (const auto& aj : *it) {
      if (!aj.is_object()) return InvalidArgument("attributes[]: expected objects");
      SmartAttribute a;
      std::optional<int> id;
      DP_RETURN_IF_ERROR(Read(aj, "id", id));
      if (!id) return InvalidArgument("attributes[].id: required");
      a.id = *id;
      DP_RETURN_IF_ERROR(ReadStr(aj, "name", a.name));
      DP_RETURN_IF_ERROR(Read(aj, "value", a.value));
      DP_RETURN_IF_ERROR(Read(aj, "worst", a.worst));
      DP_RETURN_IF_ERROR(Read(aj, "thresh", a.thresh));
      DP_RETURN_IF_ERROR(Read(aj, "raw", a.raw));
      DP_RETURN_IF_ERROR(ReadStr(aj, "raw_string", a.raw_string));
      DP_RETURN_IF_ERROR(ReadStr(aj, "when_failed", a.when_failed));
      std::optional<bool> pre;
      DP_RETURN_IF_ERROR(Read(aj, "prefailure", pre));
      a.prefailure = pre.value_or(false);
      s.attributes.push_back(std::move(a));
    }
  }
  if (auto it = j.find("self_tests"); it != j.end() && !it->is_null()) {
    if (!it->is_array()) return InvalidArgument("self_tests: expected an array");
    for (const auto& tj : *it) {
      if (!tj.is_object()) return InvalidArgument("self_tests[]: expected objects");
      SmartSelfTest t;
      DP_RETURN_IF_ERROR(ReadStr(tj, "type", t.type));
      DP_RETURN_IF_ERROR(ReadStr(tj, "status", t.status));
      DP_RETURN_IF_ERROR(Read(tj, "passed", t.passed));
      DP_RETURN_IF_ERROR(Read(tj, "lifetime_hours", t.lifetime_hours));
      s.self_tests.push_back(std::move(t));
    }
  }
  if (auto it = j.find("messages"); it != j.end() && !it->is_null()) {
    if (!it->is_array()) return InvalidArgument("messages: expected an array of strings");
    for (const auto& m : *it) {
      if (!m.is_string()) return InvalidArgument("messages[]: expected strings");
      s.messages.push_back(m.get<std::string>());
    }
  }
  return s;
}

}  // namespace dp
