#include "model/drive_json.h"

#include "model/json_fields.h"

namespace dp {
namespace {

using nlohmann::json;
using namespace json_fields;

}  // namespace

nlohmann::json DriveToJson(const Drive& d) {
  return {{"id", d.id},
          {"name", d.name},
          {"dev_path", StrOrNull(d.dev_path)},
          {"model", StrOrNull(d.model)},
          {"serial", StrOrNull(d.serial)},
          {"wwn", d.wwn && !d.wwn->empty() ? json(*d.wwn) : json(nullptr)},
          {"firmware", StrOrNull(d.firmware)},
          {"size_bytes", d.size_bytes ? json(d.size_bytes) : json(nullptr)},
          {"logical_block_size", d.logical_block_size},
          {"physical_block_size", d.physical_block_size},
          {"rotational", OptOrNull(d.rotational)},
          {"rotation_rpm", OptOrNull(d.rotation_rpm)},
          {"transport", StrOrNull(d.transport)},
          {"stable_paths", d.stable_paths},
          {"present", d.present}};
}

nlohmann::json DrivesToJson(const std::vector<Drive>& drives) {
  json arr = json::array();
  for (const auto& d : drives) arr.push_back(DriveToJson(d));
  return {{"drives", std::move(arr)}};
}

Result<std::vector<Drive>> DrivesFromJson(const nlohmann::json& j) {
  const json* list = j.is_object() && j.contains("drives") ? &j["drives"] : &j;
  if (!list->is_array()) return InvalidArgument("drives: expected an array");
  std::vector<Drive> out;
  for (const auto& dj : *list) {
    if (!dj.is_object() || !dj.contains("id") || !dj["id"].is_string()) {
      return InvalidArgument("drives[]: each drive needs a string \"id\"");
    }
    Drive d;
    d.id = dj["id"].get<std::string>();
    d.name = GetString(dj, "name");
    d.dev_path = GetString(dj, "dev_path");
    d.model = GetString(dj, "model");
    d.serial = GetString(dj, "serial");
    if (auto w = GetString(dj, "wwn"); !w.empty()) d.wwn = w;
    d.firmware = GetString(dj, "firmware");
    if (auto it = dj.find("size_bytes"); it != dj.end() && it->is_number_unsigned()) {
      d.size_bytes = it->get<std::uint64_t>();
    }
    if (auto it = dj.find("logical_block_size"); it != dj.end() && it->is_number_unsigned()) {
      d.logical_block_size = it->get<std::uint32_t>();
    }
    if (auto it = dj.find("physical_block_size"); it != dj.end() && it->is_number_unsigned()) {
      d.physical_block_size = it->get<std::uint32_t>();
    }
    if (auto it = dj.find("rotational"); it != dj.end() && it->is_boolean()) {
      d.rotational = it->get<bool>();
    }
    if (auto it = dj.find("rotation_rpm"); it != dj.end() && it->is_number_integer()) {
      d.rotation_rpm = it->get<int>();
    }
    d.transport = GetString(dj, "transport");
    if (auto it = dj.find("stable_paths"); it != dj.end() && it->is_array()) {
      for (const auto& p : *it) {
        if (p.is_string()) d.stable_paths.push_back(p.get<std::string>());
      }
    }
    if (auto it = dj.find("present"); it != dj.end() && it->is_boolean()) d.present = it->get<bool>();
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace dp
