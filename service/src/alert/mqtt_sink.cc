#include "alert/mqtt_sink.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

namespace dp {

std::string MqttTopicLevel(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return out.empty() ? "_" : out;
}

namespace {

// How many of the alerts stand so, and the JSON fields every state document
// shares (a drive's and a pool's).
nlohmann::json StandingFields(const std::vector<AlertStanding>& standings,
                              const std::string& worst_severity) {
  auto count = [&](auto pred) {
    return static_cast<int>(std::count_if(standings.begin(), standings.end(), pred));
  };
  const int alarming = count([](AlertStanding s) { return Alarming(s); });
  const int watching = count([](AlertStanding s) { return s == AlertStanding::kWatching; });
  nlohmann::json names = nlohmann::json::array();
  for (AlertStanding s : standings) names.push_back(std::string(StandingName(s)));
  return {
      {"problem", alarming > 0 ? "ON" : "OFF"},
      {"watching", watching > 0 ? "ON" : "OFF"},
      {"open_alerts", static_cast<int>(standings.size())},
      {"alarming", alarming},
      {"watching_alerts", watching},
      {"acknowledged", count([](AlertStanding s) { return s == AlertStanding::kAcknowledged; })},
      {"muted", count([](AlertStanding s) { return s == AlertStanding::kMuted; })},
      {"standings", names},
      {"severity", worst_severity.empty() ? nlohmann::json() : nlohmann::json(worst_severity)},
  };
}

// The word for a drive or pool with no more pressing status.
std::string QuietStatus(const nlohmann::json& fields) {
  if (fields["alarming"].get<int>() > 0) return "alert";
  if (fields["watching_alerts"].get<int>() > 0) return "watching";
  if (fields["muted"].get<int>() > 0) return "muted";
  return "ok";
}

struct Entity {
  std::string component;  // "binary_sensor" | "sensor"
  std::string key;        // "problem", "watching", "temperature", "health"
};

const std::vector<Entity>& DriveEntities() {
  static const std::vector<Entity> kEntities = {
      {"binary_sensor", "problem"}, {"binary_sensor", "watching"}, {"sensor", "temperature"}};
  return kEntities;
}

}  // namespace

MqttSink::MqttSink(MqttConfig config, std::string host)
    : config_(std::move(config)), host_(MqttTopicLevel(host.empty() ? "localhost" : host)) {
  status_topic_ = config_.topic_prefix + "/" + host_ + "/status";
  connection_ = std::make_unique<net::MqttConnection>(Options());
}

MqttSink::~MqttSink() { connection_->Close(); }

net::MqttOptions MqttSink::Options() const {
  net::MqttOptions o;
  o.host = config_.host;
  o.port = config_.port;
  o.username = config_.username;
  o.password = config_.password;
  o.client_id = config_.client_id.empty() ? "diskpulse-" + host_ : config_.client_id;
  o.ca_file = config_.ca_file;
  o.timeout = std::chrono::seconds(config_.timeout_seconds);
  o.status_topic = status_topic_;
  return o;
}

std::vector<net::MqttMessage> MqttSink::NotificationMessages(const Notification& n) const {
  return {{config_.topic_prefix + "/" + host_ + "/alerts", NotificationToJson(n).dump(), false}};
}

Status MqttSink::Send(const Notification& n) { return connection_->Publish(NotificationMessages(n)); }

namespace {

// The discovery document of one entity of a device.
nlohmann::json EntityConfig(const std::string& object, const std::string& key,
                            const std::string& state_topic, const std::string& status_topic,
                            const nlohmann::json& device) {
  nlohmann::json c = {
      {"unique_id", object + "_" + key},
      {"object_id", object + "_" + key},
      {"state_topic", state_topic},
      {"availability_topic", status_topic},
      {"payload_available", net::kMqttOnline},
      {"payload_not_available", net::kMqttOffline},
      {"device", device},
  };
  if (key == "problem" || key == "watching") {
    c["name"] = key == "problem" ? "Problem" : "Watching";
    c["value_template"] = "{{ value_json." + key + " }}";
    c["payload_on"] = "ON";
    c["payload_off"] = "OFF";
    c["json_attributes_topic"] = state_topic;
    // Only a told alert is a problem; a watch is shown, not alarmed.
    if (key == "problem") c["device_class"] = "problem";
    else c["icon"] = "mdi:eye-outline";
  } else if (key == "temperature") {
    c["name"] = "Temperature";
    c["value_template"] = "{{ value_json.temperature_c }}";
    c["device_class"] = "temperature";
    c["unit_of_measurement"] = "°C";
    c["state_class"] = "measurement";
  } else {
    c["name"] = "Health";
    c["value_template"] = "{{ value_json.health }}";
    c["json_attributes_topic"] = state_topic;
  }
  return c;
}

}  // namespace

std::vector<net::MqttMessage> MqttSink::DriveStateMessages(
    const std::vector<MqttDriveState>& drives) const {
  std::vector<net::MqttMessage> out;
  for (const MqttDriveState& d : drives) {
    const std::string id = MqttTopicLevel(d.id);
    const std::string state_topic = config_.topic_prefix + "/" + host_ + "/drive/" + id + "/state";
    nlohmann::json state = StandingFields(d.standings, d.worst_severity);
    state["status"] = !d.present ? "missing" : QuietStatus(state);
    state["temperature_c"] = d.temperature_c ? nlohmann::json(*d.temperature_c) : nlohmann::json();
    state["name"] = d.name;
    state["model"] = d.model;
    state["serial"] = d.serial;
    state["present"] = d.present;
    if (!config_.discovery_prefix.empty()) {
      const std::string object = "diskpulse_" + host_ + "_" + id;
      nlohmann::json device = {
          {"identifiers", {object}},
          {"name", host_ + " " + (d.name.empty() ? d.id : d.name)},
          {"manufacturer", "diskpulse"},
          {"model", d.model},
          {"serial_number", d.serial},
      };
      // Configs first: Home Assistant makes the entities, then reads the state.
      for (const Entity& e : DriveEntities())
        out.push_back({config_.discovery_prefix + "/" + e.component + "/" + object + "/" + e.key +
                           "/config",
                       EntityConfig(object, e.key, state_topic, status_topic_, device).dump(), true});
    }
    out.push_back({state_topic, state.dump(), true});
  }
  return out;
}

std::vector<net::MqttMessage> MqttSink::PoolStateMessages(
    const std::vector<MqttPoolState>& pools) const {
  std::vector<net::MqttMessage> out;
  for (const MqttPoolState& p : pools) {
    const std::string level = MqttTopicLevel(p.name);
    const std::string state_topic = config_.topic_prefix + "/" + host_ + "/pool/" + level + "/state";
    nlohmann::json state = StandingFields(p.standings, p.worst_severity);
    state["health"] = p.health.empty() ? nlohmann::json() : nlohmann::json(p.health);
    state["status"] = QuietStatus(state);
    state["name"] = p.name;
    if (!config_.discovery_prefix.empty()) {
      const std::string object = "diskpulse_" + host_ + "_pool_" + level;
      nlohmann::json device = {
          {"identifiers", {object}},
          {"name", host_ + " pool " + p.name},
          {"manufacturer", "diskpulse"},
          {"model", "pool"},
      };
      const std::vector<Entity> entities = {
          {"binary_sensor", "problem"}, {"binary_sensor", "watching"}, {"sensor", "health"}};
      for (const Entity& e : entities)
        out.push_back({config_.discovery_prefix + "/" + e.component + "/" + object + "/" + e.key +
                           "/config",
                       EntityConfig(object, e.key, state_topic, status_topic_, device).dump(), true});
    }
    out.push_back({state_topic, state.dump(), true});
  }
  return out;
}

std::vector<net::MqttMessage> MqttSink::RemovalMessages(const std::string& drive_id) const {
  std::vector<net::MqttMessage> out;
  const std::string id = MqttTopicLevel(drive_id);
  if (!config_.discovery_prefix.empty()) {
    const std::string object = "diskpulse_" + host_ + "_" + id;
    for (const Entity& e : DriveEntities())
      out.push_back({config_.discovery_prefix + "/" + e.component + "/" + object + "/" + e.key +
                         "/config",
                     "", true});
  }
  out.push_back({config_.topic_prefix + "/" + host_ + "/drive/" + id + "/state", "", true});
  return out;
}

Status MqttSink::PublishState(const MqttSnapshot& snapshot) {
  std::vector<net::MqttMessage> messages = DriveStateMessages(snapshot.drives);
  std::vector<net::MqttMessage> pools = PoolStateMessages(snapshot.pools);
  messages.insert(messages.end(), pools.begin(), pools.end());
  std::vector<std::string> removing;
  {
    MutexLock lock(mu_);
    // A forgotten drive that came back is published again, and removed again
    // when it is forgotten again.
    for (const MqttDriveState& d : snapshot.drives) removed_.erase(d.id);
    for (const std::string& id : snapshot.retired)
      if (!removed_.count(id)) removing.push_back(id);
  }
  for (const std::string& id : removing) {
    auto gone = RemovalMessages(id);
    messages.insert(messages.end(), gone.begin(), gone.end());
  }
  if (messages.empty()) return Status::Ok();
  DP_RETURN_IF_ERROR(connection_->Publish(messages));
  MutexLock lock(mu_);
  removed_.insert(removing.begin(), removing.end());
  return Status::Ok();
}

Status MqttSink::PublishDriveStates(const std::vector<MqttDriveState>& drives) {
  MqttSnapshot snapshot;
  snapshot.drives = drives;
  return PublishState(snapshot);
}

Status MqttSink::RemoveDrive(const std::string& drive_id) {
  DP_RETURN_IF_ERROR(connection_->Publish(RemovalMessages(drive_id)));
  MutexLock lock(mu_);
  removed_.insert(drive_id);
  return Status::Ok();
}

namespace {

class SharedSink final : public AlertSink {
 public:
  explicit SharedSink(std::shared_ptr<MqttSink> sink) : sink_(std::move(sink)) {}
  const std::string& name() const override { return sink_->name(); }
  Status Send(const Notification& n) override { return sink_->Send(n); }

 private:
  std::shared_ptr<MqttSink> sink_;
};

}  // namespace

std::unique_ptr<AlertSink> SharedAlertSink(std::shared_ptr<MqttSink> sink) {
  return std::make_unique<SharedSink>(std::move(sink));
}

}  // namespace dp
