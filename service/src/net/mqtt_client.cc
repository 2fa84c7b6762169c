#include "net/mqtt_client.h"
#include "base/thread_annotations.h"

#if DP_HAVE_MOSQUITTO
#include <mosquitto.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#endif

namespace dp::net {

#if DP_HAVE_MOSQUITTO
namespace {

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

// The login and TLS of a client before it connects.
Status SetLogin(mosquitto* m, const MqttOptions& o) {
  if (!o.username.empty() &&
      mosquitto_username_pw_set(m, o.username.c_str(),
                                o.password.empty() ? nullptr : o.password.c_str()) != MOSQ_ERR_SUCCESS)
    return InvalidArgument("mqtt: the user name or password is not valid UTF-8");
  if (!o.ca_file.empty()) {
    int rc = mosquitto_tls_set(m, o.ca_file.c_str(), nullptr, nullptr, nullptr, nullptr);
    if (rc != MOSQ_ERR_SUCCESS)
      return InvalidArgument("mqtt: ca_file " + o.ca_file + ": " + mosquitto_strerror(rc));
  }
  return Status::Ok();
}

}  // namespace

bool MqttAvailable() { return true; }

// The network thread owns connecting and the socket; publishers only queue
// messages (libmosquitto's publish is thread-safe) and wait for the
// broker's acknowledgements, which the thread's callbacks record.
struct MqttConnection::Impl {
  explicit Impl(MqttOptions o) : options(std::move(o)) {}

  MqttOptions options;
  std::unique_ptr<mosquitto, void (*)(mosquitto*)> m{nullptr, mosquitto_destroy};
  std::thread thread;
  Mutex mu;
  std::condition_variable cv;
  bool started GUARDED_BY(mu) = false;
  bool stop GUARDED_BY(mu) = false;
  bool connected GUARDED_BY(mu) = false;   // the broker accepted the login on the open socket
  bool retry_now GUARDED_BY(mu) = false;   // a publisher waits: skip the backoff
  std::uint64_t failures GUARDED_BY(mu) = 0;  // attempts that ended without a connection
  Status last_error GUARDED_BY(mu);
  std::set<int> acked GUARDED_BY(mu);      // message ids the broker acknowledged, until claimed

  Status StartLocked() REQUIRES(mu);
  void Run();
  void Failed(Status why);
};

void MqttConnection::Impl::Failed(Status why) {
  MutexLock lock(mu);
  connected = false;
  last_error = std::move(why);
  ++failures;
  cv.notify_all();
}

Status MqttConnection::Impl::StartLocked() {
  if (started) return Status::Ok();
  static std::once_flag init;
  std::call_once(init, [] { mosquitto_lib_init(); });
  const MqttOptions& o = options;
  m.reset(mosquitto_new(o.client_id.empty() ? nullptr : o.client_id.c_str(), true, this));
  if (!m) return Internal("mqtt: cannot make a client (out of memory?)");
  // Our own thread runs the loop: publishers then only queue and wake it
  // rather than write to the socket beside it.
  mosquitto_threaded_set(m.get(), true);
  mosquitto_connect_callback_set(m.get(), [](mosquitto* mosq, void* p, int code) {
    auto* self = static_cast<Impl*>(p);
    if (code != 0) {
      self->Failed(Refused(self->options, code));
      return;
    }
    // Retained, so a subscriber that comes later (Home Assistant starting
    // after us) knows we are here; queued before any waiting publisher's.
    if (!self->options.status_topic.empty())
      mosquitto_publish(mosq, nullptr, self->options.status_topic.c_str(),
                        static_cast<int>(std::char_traits<char>::length(kMqttOnline)), kMqttOnline,
                        1, true);
    MutexLock lock(self->mu);
    self->connected = true;
    self->last_error = Status::Ok();
    self->cv.notify_all();
  });
  mosquitto_publish_callback_set(m.get(), [](mosquitto*, void* p, int mid) {
    auto* self = static_cast<Impl*>(p);
    MutexLock lock(self->mu);
    // Ids of publishers that gave up are never claimed: bounded all the same.
    if (self->acked.size() > 4096) self->acked.clear();
    self->acked.insert(mid);
    self->cv.notify_all();
  });
  DP_RETURN_IF_ERROR(SetLogin(m.get(), o));
  if (!o.status_topic.empty()) {
    int rc = mosquitto_will_set(m.get(), o.status_topic.c_str(),
                                static_cast<int>(std::char_traits<char>::length(kMqttOffline)),
                                kMqttOffline, 1, true);
    if (rc != MOSQ_ERR_SUCCESS)
      return InvalidArgument("mqtt: status topic '" + o.status_topic + "': " + mosquitto_strerror(rc));
  }
  started = true;
  thread = std::thread([this] { Run(); });
  return Status::Ok();
}

void MqttConnection::Impl::Run() {
  const int keepalive = 60;
  bool open = false, ever = false;
  auto backoff = std::chrono::seconds(1);
  for (;;) {
    {
      MutexLock lock(mu);
      if (stop) break;
    }
    if (!open) {
      int rc = ever ? mosquitto_reconnect(m.get())
                    : mosquitto_connect(m.get(), options.host.c_str(), options.port, keepalive);
      if (rc == MOSQ_ERR_SUCCESS) {
        open = ever = true;
      } else {
        Failed(Lost(options, rc));
        if (rc == MOSQ_ERR_INVAL) ever = false;
        MutexLock lock(mu);
        lock.WaitFor(cv, backoff, [&]() REQUIRES(mu) { return stop || retry_now; });
        retry_now = false;
        backoff = std::min(backoff * 2, std::chrono::seconds(30));
        continue;
      }
    }
    int rc = mosquitto_loop(m.get(), 100, 1);
    bool refused;
    {
      MutexLock lock(mu);
      if (connected) backoff = std::chrono::seconds(1);
      refused = last_error.code() == StatusCode::kPermissionDenied;
    }
    if (rc != MOSQ_ERR_SUCCESS) {
      open = false;
      if (!refused) Failed(Lost(options, rc));
      MutexLock lock(mu);
      lock.WaitFor(cv, backoff, [&]() REQUIRES(mu) { return stop || retry_now; });
      retry_now = false;
      backoff = std::min(backoff * 2, std::chrono::seconds(30));
    }
  }
  if (open) {
    mosquitto_disconnect(m.get());
    mosquitto_loop(m.get(), 100, 1);
  }
}

MqttConnection::MqttConnection(MqttOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}

MqttConnection::~MqttConnection() { Close(); }

Status MqttConnection::Publish(const std::vector<MqttMessage>& messages) {
  Impl& s = *impl_;
  const MqttOptions& o = s.options;
  const auto deadline = std::chrono::steady_clock::now() + o.timeout;
  {
    MutexLock lock(s.mu);
    if (s.stop) return Unavailable("mqtt: the connection to " + Where(o) + " is closed");
    DP_RETURN_IF_ERROR(s.StartLocked());
    if (!s.connected) {
      // Wait for the attempt under way or the next one (now, not after the
      // backoff): its outcome is this call's.
      const std::uint64_t before = s.failures;
      s.retry_now = true;
      s.cv.notify_all();
      lock.WaitUntil(s.cv, deadline, [&]() REQUIRES(s.mu) {
        return s.connected || s.stop || s.failures != before;
      });
      if (!s.connected) {
        if (!s.last_error.ok()) return s.last_error;
        return Timeout("the MQTT broker at " + Where(o) + " did not answer in " +
                       std::to_string(o.timeout.count() / 1000) + " s (login)");
      }
    }
  }
  std::vector<int> mids;
  for (const MqttMessage& msg : messages) {
    int mid = 0;
    int rc = mosquitto_publish(s.m.get(), &mid, msg.topic.c_str(),
                               static_cast<int>(msg.payload.size()), msg.payload.data(), o.qos,
                               msg.retain);
    if (rc == MOSQ_ERR_INVAL || rc == MOSQ_ERR_MALFORMED_UTF8 || rc == MOSQ_ERR_PAYLOAD_SIZE)
      return InvalidArgument("mqtt: cannot publish to '" + msg.topic + "': " + mosquitto_strerror(rc));
    // A connection lost meanwhile: the library sends the message again once
    // the thread has reconnected, so the wait below decides.
    if (rc != MOSQ_ERR_SUCCESS && rc != MOSQ_ERR_NO_CONN) return Lost(o, rc);
    mids.push_back(mid);
  }
  MutexLock lock(s.mu);
  auto all_acked = [&]() REQUIRES(s.mu) {
    for (int mid : mids)
      if (!s.acked.count(mid)) return false;
    return true;
  };
  bool done = lock.WaitUntil(s.cv, deadline, [&]() REQUIRES(s.mu) { return s.stop || all_acked(); });
  for (int mid : mids) s.acked.erase(mid);
  if (done && !s.stop) return Status::Ok();
  if (!s.last_error.ok()) return s.last_error;
  return Timeout("the MQTT broker at " + Where(o) + " did not answer in " +
                 std::to_string(o.timeout.count() / 1000) + " s (acknowledgement)");
}

void MqttConnection::Close() {
  Impl& s = *impl_;
  bool goodbye;
  {
    MutexLock lock(s.mu);
    if (!s.started || s.stop) {
      s.stop = true;
      return;
    }
    goodbye = s.connected && !s.options.status_topic.empty();
  }
  if (goodbye) {
    (void)Publish({{s.options.status_topic, kMqttOffline, true}});
  }
  {
    MutexLock lock(s.mu);
    s.stop = true;
    s.cv.notify_all();
  }
  if (s.thread.joinable()) s.thread.join();
}

#else

bool MqttAvailable() { return false; }

struct MqttConnection::Impl {};
MqttConnection::MqttConnection(MqttOptions) {}
MqttConnection::~MqttConnection() = default;
Status MqttConnection::Publish(const std::vector<MqttMessage>&) {
  return Unsupported("this diskpulse was built without MQTT (libmosquitto-dev)");
}
void MqttConnection::Close() {}

#endif

}  // namespace dp::net
