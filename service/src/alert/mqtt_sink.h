// MqttSink: notifications to an MQTT broker, and the state of each drive and
// pool for Home Assistant, over one connection per broker (one client id:
// a second session under the same id would push the first off the broker).
// Topics (HOST: this machine, ID/POOL: the drive id or pool name with every
// byte outside [A-Za-z0-9_-] made '_'):
//   PREFIX/HOST/status           "online" (retained) while connected; the
//                                last will and a clean stop say "offline"
//   PREFIX/HOST/alerts           each notification's JSON document (not retained)
//   PREFIX/HOST/drive/ID/state   the drive's state document (retained), see
//                                DriveStateMessages
//   PREFIX/HOST/pool/POOL/state  the pool's state document (retained)
//   DISCOVERY/{binary_sensor,sensor}/diskpulse_HOST_ID/{problem,watching,temperature}/config
//   DISCOVERY/{binary_sensor,sensor}/diskpulse_HOST_pool_POOL/{problem,watching,health}/config:
//                                Home Assistant's discovery documents
//                                (retained), one device a drive or pool, each
//                                entity available while PREFIX/HOST/status is
//                                "online"
// "problem" is ON only while an alert of the drive (pool) is notified or
// acknowledged (model/alert.h Alarming): a watch, a muted alert or a missing
// drive without a told alert keep it OFF; "watching" is ON while an alert
// is a watch, so the quiet ones stay visible without paging anyone.
// A broker that is down or refuses the login is an error of Send, so the
// dispatcher retries the notification and keeps it in the outbox meanwhile,
// as for every sink. Send and PublishState may run on different threads at
// once (the connection is shared and thread-safe).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "alert/alert_sink.h"
#include "base/thread_annotations.h"
#include "config/alerts_config.h"
#include "model/alert.h"
#include "net/mqtt_client.h"

namespace dp {

// One drive as Home Assistant shows it.
struct MqttDriveState {
  std::string id, name, model, serial;
  bool present = true;
  std::optional<int> temperature_c;
  // Where each of its active (open or acknowledged) alerts stands.
  std::vector<AlertStanding> standings;
  std::string worst_severity;    // of those alerts; "" when none
};

// One pool: its health as the latest discovery pass read it (ONLINE,
// DEGRADED, ...; "" when unknown) and its active alerts.
struct MqttPoolState {
  std::string name;
  std::string health;
  std::vector<AlertStanding> standings;
  std::string worst_severity;
};

// Everything published as state at once. `retired`: ids of drives the owner
// forgot, whose entities are removed.
struct MqttSnapshot {
  std::vector<MqttDriveState> drives;
  std::vector<MqttPoolState> pools;
  std::vector<std::string> retired;
};

class MqttSink final : public AlertSink {
 public:
  MqttSink(MqttConfig config, std::string host);
  ~MqttSink() override;  // closes the connection ("offline")

  const std::string& name() const override { return config_.name; }
  // Errors: net::MqttConnection::Publish's (Unavailable, PermissionDenied, Timeout).
  Status Send(const Notification& n) override;

  // Publishes the snapshot retained: every drive's and pool's state and (with
  // a discovery prefix) their Home Assistant discovery documents; for a
  // retired drive, once per process, RemovalMessages.
  Status PublishState(const MqttSnapshot& snapshot);
  Status PublishDriveStates(const std::vector<MqttDriveState>& drives);
  // Removes a drive's Home Assistant entities and its retained state now.
  Status RemoveDrive(const std::string& drive_id);

  // What the calls publish (for tests and previews).
  std::vector<net::MqttMessage> NotificationMessages(const Notification& n) const;
  std::vector<net::MqttMessage> DriveStateMessages(const std::vector<MqttDriveState>& drives) const;
  std::vector<net::MqttMessage> PoolStateMessages(const std::vector<MqttPoolState>& pools) const;
  // An empty retained payload on each discovery topic of the drive (Home
  // Assistant deletes the entity) and on its state topic (the broker drops
  // the retained state).
  std::vector<net::MqttMessage> RemovalMessages(const std::string& drive_id) const;
  const std::string& status_topic() const { return status_topic_; }

 private:
  net::MqttOptions Options() const;

  MqttConfig config_;
  std::string host_;
  std::string status_topic_;
  std::unique_ptr<net::MqttConnection> connection_;
  Mutex mu_;
  std::set<std::string> removed_ GUARDED_BY(mu_);  // retired drives already removed by this process
};

// An AlertSink for the dispatcher that sends through a sink shared with the
// state publishing, so both use the one connection.
std::unique_ptr<AlertSink> SharedAlertSink(std::shared_ptr<MqttSink> sink);

// "path-/dev/sdc" -> "path-_dev_sdc": a topic level and a Home Assistant
// object id.
std::string MqttTopicLevel(std::string_view text);

}  // namespace dp
