// PublishMqtt: one blocking MQTT session (libmosquitto, MQTT 3.1.1): connect
// with the given login, publish every message, wait until the broker has
// each (QoS 1: its PUBACK), disconnect. One deadline covers the exchange
// after the TCP connect. Safe from any thread (each call has its own client).
#pragma once

#include <chrono>
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
};

// False when this build has no MQTT library (then PublishMqtt is Unimplemented).
bool MqttAvailable();

// Errors: Unavailable "cannot reach the MQTT broker at HOST:PORT: ..." (down,
// refused, lost), PermissionDenied "the MQTT broker at HOST:PORT refused the
// login: ..." (bad user name or password, not authorised), Timeout when the
// broker did not answer in time.
Status PublishMqtt(const MqttOptions& options, const std::vector<MqttMessage>& messages);

}  // namespace dp::net
