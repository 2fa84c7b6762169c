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

}  // namespace dp
