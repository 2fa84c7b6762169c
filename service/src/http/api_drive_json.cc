#include "http/api_drive_json.h"

#include "model/drive_json.h"

namespace dp::http {

nlohmann::json ApiDriveToJson(const Drive& d) {
  nlohmann::json j = dp::DriveToJson(d);
  j["explicit_target"] = d.explicit_target;
  j["first_seen"] = d.first_seen;
  j["last_seen"] = d.last_seen;
  j["controller"] = d.controller;
  j["missing_since"] = d.missing_since ? nlohmann::json(*d.missing_since) : nlohmann::json();
  j["forgotten_at"] = d.forgotten_at ? nlohmann::json(*d.forgotten_at) : nlohmann::json();
  j["forgotten_reason"] = d.forgotten_reason;
  return j;
}

}  // namespace dp::http
