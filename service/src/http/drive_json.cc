#include "http/drive_json.h"

namespace dp::http {

nlohmann::json DriveToJson(const Drive& d) {
  nlohmann::json j = {
      {"id", d.id},
      {"name", d.name},
      {"dev_path", d.dev_path},
      {"model", d.model},
      {"serial", d.serial},
      {"wwn", nullptr},
      {"firmware", d.firmware},
      {"size_bytes", d.size_bytes},
      {"logical_block_size", d.logical_block_size},
      {"physical_block_size", d.physical_block_size},
      {"rotational", nullptr},
      {"rotation_rpm", nullptr},
      {"transport", d.transport},
      {"stable_paths", d.stable_paths},
      {"present", d.present},
      {"explicit_target", d.explicit_target},
      {"first_seen", d.first_seen},
      {"last_seen", d.last_seen},
  };
  if (d.wwn) j["wwn"] = *d.wwn;
  if (d.rotational) j["rotational"] = *d.rotational;
  if (d.rotation_rpm) j["rotation_rpm"] = *d.rotation_rpm;
  return j;
}

}  // namespace dp::http
