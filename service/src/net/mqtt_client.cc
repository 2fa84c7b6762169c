#include "net/mqtt_client.h"

#if DP_HAVE_MOSQUITTO
#include <mosquitto.h>

#include <memory>
#include <mutex>
#include <set>
#endif

namespace dp::net {

#if DP_HAVE_MOSQUITTO
namespace {

// What the callbacks report back to the loop.
struct Session {
  bool connected = false;
  int connack = -1;  // the broker's CONNACK code once it answered
  std::set<int> unacked;
};

std::string Where(const MqttOptions& o) { return o.host + ":" + std::to_string(o.port); }

Status Refused(const MqttOptions& o, int code) {
  return PermissionDenied("the MQTT broker at " + Where(o) +
                          " refused the login: " + mosquitto_connack_string(code));
}

Status Lost(const MqttOptions& o, int rc) {
  return Unavailable("cannot reach the MQTT broker at " + Where(o) + ": " +
                     (rc == MOSQ_ERR_ERRNO ? std::string("connection failed or lost")
                                           : std::string(mosquitto_strerror(rc))));
}

}  // namespace

bool MqttAvailable() { return true; }

Status PublishMqtt(const MqttOptions& o, const std::vector<MqttMessage>& messages) {
  static std::once_flag init;
  std::call_once(init, [] { mosquitto_lib_init(); });
  Session session;
  std::unique_ptr<mosquitto, void (*)(mosquitto*)> m(
      mosquitto_new(o.client_id.empty() ? nullptr : o.client_id.c_str(), true, &session),
      mosquitto_destroy);
  if (!m) return Internal("mqtt: cannot make a client (out of memory?)");
  mosquitto_connect_callback_set(m.get(), [](mosquitto*, void* p, int code) {
    auto* s = static_cast<Session*>(p);
    s->connack = code;
    s->connected = code == 0;
  });
  mosquitto_publish_callback_set(m.get(), [](mosquitto*, void* p, int mid) {
    static_cast<Session*>(p)->unacked.erase(mid);
  });
  if (!o.username.empty() &&
      mosquitto_username_pw_set(m.get(), o.username.c_str(),
                                o.password.empty() ? nullptr : o.password.c_str()) != MOSQ_ERR_SUCCESS)
    return InvalidArgument("mqtt: the user name or password is not valid UTF-8");
  if (!o.ca_file.empty()) {
    int rc = mosquitto_tls_set(m.get(), o.ca_file.c_str(), nullptr, nullptr, nullptr, nullptr);
    if (rc != MOSQ_ERR_SUCCESS)
      return InvalidArgument("mqtt: ca_file " + o.ca_file + ": " + mosquitto_strerror(rc));
  }
  const int keepalive = 60;
  int rc = mosquitto_connect(m.get(), o.host.c_str(), o.port, keepalive);
  if (rc != MOSQ_ERR_SUCCESS) return Lost(o, rc);

  const auto deadline = std::chrono::steady_clock::now() + o.timeout;
  // Runs the network loop until done() or the deadline; the error of a lost
  // connection or a refused login otherwise.
  auto loop_until = [&](auto done, const char* waiting_for) -> Status {
    while (!done()) {
      if (session.connack > 0) return Refused(o, session.connack);
      if (std::chrono::steady_clock::now() >= deadline)
        return Timeout("the MQTT broker at " + Where(o) + " did not answer in " +
                       std::to_string(o.timeout.count() / 1000) + " s (" + waiting_for + ")");
      int r = mosquitto_loop(m.get(), 100, 1);
      if (session.connack > 0) return Refused(o, session.connack);
      if (r != MOSQ_ERR_SUCCESS) return Lost(o, r);
    }
    return Status::Ok();
  };
  DP_RETURN_IF_ERROR(loop_until([&] { return session.connected; }, "login"));
  for (const MqttMessage& msg : messages) {
    int mid = 0;
    rc = mosquitto_publish(m.get(), &mid, msg.topic.c_str(), static_cast<int>(msg.payload.size()),
                           msg.payload.data(), o.qos, msg.retain);
    if (rc == MOSQ_ERR_INVAL || rc == MOSQ_ERR_MALFORMED_UTF8 || rc == MOSQ_ERR_PAYLOAD_SIZE)
      return InvalidArgument("mqtt: cannot publish to '" + msg.topic + "': " + mosquitto_strerror(rc));
    if (rc != MOSQ_ERR_SUCCESS) return Lost(o, rc);
    if (o.qos > 0) session.unacked.insert(mid);
  }
  // QoS 0 has no acknowledgement: one loop pass writes what is queued.
  if (o.qos == 0) DP_RETURN_IF_ERROR(loop_until([&, n = 0]() mutable { return n++ > 0; }, "send"));
  DP_RETURN_IF_ERROR(loop_until([&] { return session.unacked.empty(); }, "acknowledgement"));
  mosquitto_disconnect(m.get());
  mosquitto_loop(m.get(), 100, 1);
  return Status::Ok();
}

#else

bool MqttAvailable() { return false; }

Status PublishMqtt(const MqttOptions&, const std::vector<MqttMessage>&) {
  return Unsupported("this diskpulse was built without MQTT (libmosquitto-dev)");
}

#endif

}  // namespace dp::net
