// MqttConnection: MQTT over libmosquitto (MQTT 3.1.1), one long-lived
// session a process keeps open, so that a broker sees one client per
// configured broker (a second session with the same client id would push
// the first off) and its last will can tell subscribers when the process is
// gone.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"

namespace dp::net {

struct MqttMessage {
  std::string topic;
  std::string payload;
  bool retain = false;
};

struct MqttOptions {
  std::string host;
  int port = 1883;
  std::string username;  // "" = none
  std::string password;
  std::string client_id;  // "" = the library's random one
  std::string ca_file;    // "" = plain TCP; else TLS verified against this PEM bundle
  int qos = 1;            // 0 or 1
  std::chrono::milliseconds timeout{10'000};
  // "" = none; else "online" is published retained here
  // on every connect, "offline" is the last will the broker publishes when
  // the connection dies, and Close() publishes it too.
  std::string status_topic;
};

// False when this build has no MQTT library (then Publish is Unsupported).
bool MqttAvailable();

inline constexpr const char* kMqttOnline = "online";
inline constexpr const char* kMqttOffline = "offline";

// A connection kept open by its own network thread, started by the first
// Publish and reconnected with a backoff when it drops. Publish may be called
// from any thread at once.
class MqttConnection {
 public:
  explicit MqttConnection(MqttOptions options);
  ~MqttConnection();  // Close()
  MqttConnection(const MqttConnection&) = delete;
  MqttConnection& operator=(const MqttConnection&) = delete;

  // Publishes every message and waits until the broker has each (QoS 1), at
  // most options.timeout in all, connecting first when needed. Errors:
  // Unavailable "cannot reach the MQTT broker at HOST:PORT: ..." (down,
  // refused, lost: the latest attempt's reason), PermissionDenied "the MQTT
  // broker at HOST:PORT refused the login: ..." (bad user name or password,
  // not authorised), Timeout when the broker did not answer in time;
  // InvalidArgument for a topic or payload the library refuses; Unsupported
  // without libmosquitto.
  Status Publish(const std::vector<MqttMessage>& messages);
  // Publishes "offline" on the status topic when connected (a clean goodbye
  // does not fire the last will), disconnects and stops the thread. Idempotent.
  void Close();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace dp::net
