// MqttSink: notifications to an MQTT broker, and each drive's state for Home
// Assistant. Topics (HOST: this machine, ID: the drive id with every byte
// outside [A-Za-z0-9_-] made '_'):
//   PREFIX/HOST/alerts           each notification's JSON document (not retained)
//   PREFIX/HOST/drive/ID/state   {"problem": "ON"|"OFF", "status", "temperature_c",
//                                 "open_alerts", "severity", "name", "model", "serial",
//                                 "present"} (retained), by PublishDriveStates
//   DISCOVERY/binary_sensor/diskpulse_HOST_ID/problem/config and
//   DISCOVERY/sensor/diskpulse_HOST_ID/temperature/config: Home Assistant's
//                                 discovery documents (retained), one device a drive
// Every Send and PublishDriveStates is one session (net/mqtt_client.h): a
// broker that is down or refuses the login is an error, so the dispatcher
// retries the notification and keeps it in the outbox meanwhile, as for
// every sink. Thread behaviour: see AlertSink; PublishDriveStates may run on
// another thread than Send (each call has its own connection).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "alert/alert_sink.h"
#include "config/alerts_config.h"
#include "net/mqtt_client.h"

namespace dp {

// One drive as Home Assistant shows it.
struct MqttDriveState {
  std::string id, name, model, serial;
  bool present = true;
  std::optional<int> temperature_c;
  int open_alerts = 0;           // open or acknowledged
  std::string worst_severity;    // of those alerts; "" when none
};

class MqttSink final : public AlertSink {
 public:
  MqttSink(MqttConfig config, std::string host);

  const std::string& name() const override { return config_.name; }
  // Errors: net::PublishMqtt's (Unavailable, PermissionDenied, Timeout).
  Status Send(const Notification& n) override;

  // Publishes every drive's state and (with a discovery prefix) its Home
  // Assistant discovery documents, retained.
  Status PublishDriveStates(const std::vector<MqttDriveState>& drives);

  // What the two calls publish (for tests and previews).
  std::vector<net::MqttMessage> NotificationMessages(const Notification& n) const;
  std::vector<net::MqttMessage> DriveStateMessages(const std::vector<MqttDriveState>& drives) const;

 private:
  net::MqttOptions Options() const;

  MqttConfig config_;
  std::string host_;
};

// "path-/dev/sdc" -> "path-_dev_sdc": a topic level and a Home Assistant
// object id.
std::string MqttTopicLevel(std::string_view text);

}  // namespace dp
