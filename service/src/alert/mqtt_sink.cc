#include "alert/mqtt_sink.h"

#include <cctype>

#include <nlohmann/json.hpp>

namespace dp {

std::string MqttTopicLevel(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return out.empty() ? "_" : out;
}

MqttSink::MqttSink(MqttConfig config, std::string host)
    : config_(std::move(config)), host_(MqttTopicLevel(host.empty() ? "localhost" : host)) {}

net::MqttOptions MqttSink::Options() const {
  net::MqttOptions o;
  o.host = config_.host;
  o.port = config_.port;
  o.username = config_.username;
  o.password = config_.password;
  o.client_id = config_.client_id.empty() ? "diskpulse-" + host_ : config_.client_id;
  o.ca_file = config_.ca_file;
  o.timeout = std::chrono::seconds(config_.timeout_seconds);
  return o;
}

std::vector<net::MqttMessage> MqttSink::NotificationMessages(const Notification& n) const {
  return {{config_.topic_prefix + "/" + host_ + "/alerts", NotificationToJson(n).dump(), false}};
}

Status MqttSink::Send(const Notification& n) {
  return net::PublishMqtt(Options(), NotificationMessages(n));
}

std::vector<net::MqttMessage> MqttSink::DriveStateMessages(
    const std::vector<MqttDriveState>& drives) const {
  std::vector<net::MqttMessage> out;
  for (const MqttDriveState& d : drives) {
    const std::string id = MqttTopicLevel(d.id);
    const std::string state_topic = config_.topic_prefix + "/" + host_ + "/drive/" + id + "/state";
    const bool problem = d.open_alerts > 0 || !d.present;
    nlohmann::json state = {
        {"problem", problem ? "ON" : "OFF"},
        {"status", !d.present ? "missing" : d.open_alerts > 0 ? "alert" : "ok"},
        {"temperature_c", d.temperature_c ? nlohmann::json(*d.temperature_c) : nlohmann::json()},
        {"open_alerts", d.open_alerts},
        {"severity", d.worst_severity.empty() ? nlohmann::json() : nlohmann::json(d.worst_severity)},
        {"name", d.name},
        {"model", d.model},
        {"serial", d.serial},
        {"present", d.present},
    };
    if (!config_.discovery_prefix.empty()) {
      const std::string object = "diskpulse_" + host_ + "_" + id;
      nlohmann::json device = {
          {"identifiers", {object}},
          {"name", host_ + " " + (d.name.empty() ? d.id : d.name)},
          {"manufacturer", "diskpulse"},
          {"model", d.model},
          {"serial_number", d.serial},
      };
      nlohmann::json problem_config = {
          {"name", "Problem"},
          {"unique_id", object + "_problem"},
          {"object_id", object + "_problem"},
          {"state_topic", state_topic},
          {"value_template", "{{ value_json.problem }}"},
          {"payload_on", "ON"},
          {"payload_off", "OFF"},
          {"device_class", "problem"},
          {"json_attributes_topic", state_topic},
          {"device", device},
      };
      nlohmann::json temperature_config = {
          {"name", "Temperature"},
          {"unique_id", object + "_temperature"},
          {"object_id", object + "_temperature"},
          {"state_topic", state_topic},
          {"value_template", "{{ value_json.temperature_c }}"},
          {"device_class", "temperature"},
          {"unit_of_measurement", "°C"},
          {"state_class", "measurement"},
          {"device", device},
      };
      // Configs first: Home Assistant makes the entities, then reads the state.
      out.push_back({config_.discovery_prefix + "/binary_sensor/" + object + "/problem/config",
                     problem_config.dump(), true});
      out.push_back({config_.discovery_prefix + "/sensor/" + object + "/temperature/config",
                     temperature_config.dump(), true});
    }
    out.push_back({state_topic, state.dump(), true});
  }
  return out;
}

Status MqttSink::PublishDriveStates(const std::vector<MqttDriveState>& drives) {
  if (drives.empty()) return Status::Ok();
  return net::PublishMqtt(Options(), DriveStateMessages(drives));
}

}  // namespace dp
