// The MQTT sink against a real broker started by the test (Debian's
// mosquitto on a free loopback port; skipped with the reason where it or
// libmosquitto is missing): a notification is published, each drive's state
// and its Home Assistant discovery documents are retained for a subscriber
// that comes later, and a broker that is down or refuses the login keeps the
// notification in the store's outbox, retried, with /api/v1/health saying so,
// until the broker takes it. Home Assistant's problem sensor follows only
// told alerts (a watch has its own entity), pools are entities, a forgotten
// drive's entities are removed, and the daemon keeps one session for
// notifications and state, publishes a change within seconds and leaves a
// last will that says "offline" when it dies.
#include "alert/mqtt_sink.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>

#include <gtest/gtest.h>

#if __has_include(<mosquitto.h>)
#include <mosquitto.h>
#define DP_TEST_HAVE_MOSQUITTO 1
#endif

#include "alert/alert_dispatcher.h"
#include "alert/mqtt_state_publisher.h"
#include "alert/sink_factory.h"
#include "base/command_runner.h"
#include "base/fake_clock.h"
#include "alert/outbox_harness_util.h"
#include "http/api.h"
#include "runs/mqtt_snapshot.h"
#include "runs/override_book.h"
#include "runs/store_notification_outbox.h"
#include "store/store.h"
#include "support/capability.h"
#include "support/daemon_process.h"
#include "support/eventually.h"
#include "support/http_client.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using dp::testing::Eventually;
using dp::testing::TempDir;
using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kMosquitto = "/usr/sbin/mosquitto";

int FreePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t n = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n);
  ::close(fd);
  return ntohs(a.sin_port);
}

bool Accepts(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

// mosquitto -c CONF on 127.0.0.1:port, anonymous, or with one user.
class Broker {
 public:
  // log: a file for the broker's log of connections ("" = none).
  Broker(const TempDir& dir, int port, const std::string& user = "", const std::string& password = "",
         const std::string& log = "")
      : port_(port) {
    std::string conf = "listener " + std::to_string(port) + " 127.0.0.1\npersistence false\n";
    if (!log.empty()) conf += "log_dest file " + log + "\nlog_type all\nconnection_messages true\n";
    // Started as root, mosquitto switches to its own user, which cannot read
    // a password file in the test's private folder.
    if (::geteuid() == 0) conf += "user root\n";
    if (user.empty()) {
      conf += "allow_anonymous true\n";
    } else {
      std::string file = dir.Path("passwords");
      auto r = dp::testing::RunProgram({"/usr/bin/mosquitto_passwd", "-b", "-c", file, user, password});
      EXPECT_EQ(r.exit_code, 0) << r.output;
      conf += "allow_anonymous false\npassword_file " + file + "\n";
    }
    std::string path = dir.Write("mosquitto-" + std::to_string(port) + ".conf", conf);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::execl(kMosquitto, kMosquitto, "-c", path.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    up_ = Eventually([&] { return Accepts(port_); }, 10s, 20ms);
  }
  ~Broker() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  bool up() const { return up_; }

 private:
  int port_;
  pid_t pid_ = -1;
  bool up_ = false;
};

#if DP_TEST_HAVE_MOSQUITTO
// Subscribes to everything and keeps what arrives (retained ones included).
class Subscriber {
 public:
  explicit Subscriber(int port) {
    mosquitto_lib_init();
    m_ = mosquitto_new(nullptr, true, this);
    mosquitto_message_callback_set(m_, [](mosquitto*, void* self, const mosquitto_message* msg) {
      auto* s = static_cast<Subscriber*>(self);
      std::lock_guard lock(s->mu_);
      s->got_.push_back({msg->topic, std::string(static_cast<const char*>(msg->payload),
                                                 static_cast<std::size_t>(msg->payloadlen)),
                         msg->retain});
    });
    mosquitto_connect_callback_set(m_, [](mosquitto* m, void*, int) {
      mosquitto_subscribe(m, nullptr, "#", 1);
    });
    ok_ = mosquitto_connect(m_, "127.0.0.1", port, 30) == MOSQ_ERR_SUCCESS &&
          mosquitto_loop_start(m_) == MOSQ_ERR_SUCCESS;
  }
  ~Subscriber() {
    mosquitto_disconnect(m_);
    mosquitto_loop_stop(m_, true);
    mosquitto_destroy(m_);
  }
  bool ok() const { return ok_; }
  // The newest payload on topic (nullopt when none arrived within 10 s).
  std::optional<std::string> Wait(const std::string& topic) {
    std::optional<std::string> found;
    Eventually([&] {
      std::lock_guard lock(mu_);
      for (const auto& g : got_)
        if (g.topic == topic) found = g.payload;
      return found.has_value();
    }, 10s, 20ms);
    return found;
  }
  // Whether the newest payload on topic comes to satisfy `ok` in `within`.
  bool WaitUntil(const std::string& topic, const std::function<bool(const std::string&)>& ok,
                 std::chrono::milliseconds within = 10s) {
    return Eventually([&] {
      std::lock_guard lock(mu_);
      std::optional<std::string> newest;
      for (const auto& g : got_)
        if (g.topic == topic) newest = g.payload;
      return newest && ok(*newest);
    }, within, 20ms);
  }
  std::size_t Count(const std::string& topic) {
    std::lock_guard lock(mu_);
    return static_cast<std::size_t>(std::count_if(got_.begin(), got_.end(),
                                                  [&](const Got& g) { return g.topic == topic; }));
  }

 private:
  struct Got {
    std::string topic, payload;
    bool retained;
  };
  mosquitto* m_ = nullptr;
  bool ok_ = false;
  std::mutex mu_;
  std::vector<Got> got_;
};
#endif

class MqttSinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!net::MqttAvailable())
      DP_SKIP_WITHOUT("libmosquitto",
                      "built without libmosquitto (scripts/setup.sh installs libmosquitto-dev)");
    if (::access(kMosquitto, X_OK) != 0)
      DP_SKIP_WITHOUT("mosquitto", "mosquitto is not installed (scripts/setup.sh installs it)");
#if !DP_TEST_HAVE_MOSQUITTO
    DP_SKIP_WITHOUT("libmosquitto", "mosquitto.h is missing (libmosquitto-dev)");
#endif
    port_ = FreePort();
    config_.name = "mqtt-0";
    config_.host = "127.0.0.1";
    config_.port = port_;
    config_.timeout_seconds = 5;
  }
  Alert SomeAlert() const {
    Alert a;
    a.id = 7;
    a.drive_id = "wwn-0x5000c500a1b2c3d4";
    a.condition = "smart:reallocated";
    a.severity = "warning";
    a.summary = "sda: 8 reallocated sectors (was 0)";
    a.evidence_json = R"({"drive_name":"sda"})";
    a.opened_at = a.updated_at = 1764460800;
    return a;
  }
  // A daemon's folder whose database knows one drive, wwn-0x5000cca2 (sdq),
  // that discovery will not see (an empty block device list); with
  // `notified_alert`, an alert of it already notified, whose id is set.
  void SeedDaemonDir(const TempDir& dir, std::int64_t* notified_alert = nullptr) const {
    std::filesystem::create_directories(dir.path() / "var");
    std::filesystem::create_directories(dir.path() / "host/sys/block");
    auto store = Store::Open(dir.Path("var/diskpulse.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    Drive a;
    a.id = "wwn-0x5000cca2";
    a.name = "sdq";
    a.model = "WDC WD80EFZZ-68BTXN0";
    ASSERT_TRUE((*store)->UpsertDrive(a, 1764460800).ok());
    if (!notified_alert) return;
    Alert told = SomeAlert();
    told.drive_id = a.id;
    told.notify_count = 1;
    auto id = (*store)->InsertAlert(told);
    ASSERT_TRUE(id.ok()) << id.status().ToString();
    *notified_alert = *id;
  }
  std::unique_ptr<Store> TempStore() const {
    auto store = Store::Open(tmp_.Path("dp.db"));
    if (!store.ok()) ADD_FAILURE() << store.status().ToString();
    return store.ok() ? std::move(store).value() : nullptr;
  }
  TempDir tmp_;
  int port_ = 0;
  MqttConfig config_;
};

#if DP_TEST_HAVE_MOSQUITTO
TEST_F(MqttSinkTest, PublishesTheNotification) {
  Broker broker(tmp_, port_);
  ASSERT_TRUE(broker.up());
  Subscriber sub(port_);
  ASSERT_TRUE(sub.ok());
  ASSERT_TRUE(Eventually([&] { return sub.ok(); }, 1s));
  std::this_thread::sleep_for(200ms);  // the subscription is in place
  MqttSink sink(config_, "nas1");
  Status s = sink.Send(MakeNotification(NotifyKind::kOpened, SomeAlert(), FromUnixSeconds(1764460800), "nas1"));
  ASSERT_TRUE(s.ok()) << s.ToString();
  auto got = sub.Wait("diskpulse/nas1/alerts");
  ASSERT_TRUE(got.has_value());
  json j = json::parse(*got);
  EXPECT_EQ(j["event"], "opened");
  EXPECT_EQ(j["summary"], "sda: 8 reallocated sectors (was 0)");
  EXPECT_EQ(j["alert"]["condition"], "smart:reallocated");
}

TEST_F(MqttSinkTest, DriveStatesAndHomeAssistantDiscoveryAreRetained) {
  Broker broker(tmp_, port_);
  ASSERT_TRUE(broker.up());
  MqttSink sink(config_, "nas1");
  MqttDriveState sda;
  sda.id = "wwn-0x5000c500a1b2c3d4";
  sda.name = "sda";
  sda.model = "ST4000VN008-2DR166";
  sda.serial = "ZDH1ABCD";
  sda.temperature_c = 38;
  sda.standings = {AlertStanding::kNotified};
  sda.worst_severity = "warning";
  MqttDriveState gone;
  gone.id = "path-/dev/sdc";
  gone.name = "sdc";
  gone.present = false;
  Status s = sink.PublishDriveStates({sda, gone});
  ASSERT_TRUE(s.ok()) << s.ToString();

  // A subscriber that comes afterwards (Home Assistant starting later) gets them.
  Subscriber sub(port_);
  ASSERT_TRUE(sub.ok());
  const std::string object = "diskpulse_nas1_wwn-0x5000c500a1b2c3d4";
  const std::string state_topic = "diskpulse/nas1/drive/wwn-0x5000c500a1b2c3d4/state";
  auto problem = sub.Wait("homeassistant/binary_sensor/" + object + "/problem/config");
  ASSERT_TRUE(problem.has_value());
  json p = json::parse(*problem);
  EXPECT_EQ(p["device_class"], "problem");
  EXPECT_EQ(p["state_topic"], state_topic);
  EXPECT_EQ(p["unique_id"], object + "_problem");
  EXPECT_EQ(p["device"]["identifiers"][0], object);
  EXPECT_EQ(p["device"]["model"], "ST4000VN008-2DR166");
  auto temperature = sub.Wait("homeassistant/sensor/" + object + "/temperature/config");
  ASSERT_TRUE(temperature.has_value());
  json t = json::parse(*temperature);
  EXPECT_EQ(t["device_class"], "temperature");
  EXPECT_EQ(t["unit_of_measurement"], "°C");
  EXPECT_EQ(t["value_template"], "{{ value_json.temperature_c }}");
  auto state = sub.Wait(state_topic);
  ASSERT_TRUE(state.has_value());
  json st = json::parse(*state);
  EXPECT_EQ(st["problem"], "ON");
  EXPECT_EQ(st["temperature_c"], 38);
  EXPECT_EQ(st["severity"], "warning");
  // A drive id with '/' becomes one topic level; a missing drive is shown as
  // such, and is a problem only through its alert once that is told.
  auto missing = sub.Wait("diskpulse/nas1/drive/path-_dev_sdc/state");
  ASSERT_TRUE(missing.has_value());
  EXPECT_EQ(json::parse(*missing)["status"], "missing");
  EXPECT_EQ(json::parse(*missing)["problem"], "OFF");
  EXPECT_TRUE(json::parse(*missing)["temperature_c"].is_null());
}

// The dispatcher, the store's outbox and the health answer around the sink:
// what a broker that is down or refuses the login does to a notification.
class MqttOutboxTest : public MqttSinkTest {
 protected:
  void StartDispatcher() {
    ASSERT_TRUE(harness_.ok());
    harness_.Start(std::make_unique<MqttSink>(config_, "nas1"));
    harness_.dispatcher().Submit(
        MakeNotification(NotifyKind::kOpened, SomeAlert(), harness_.clock().Now(), "nas1"));
  }
  // Waits for a failed attempt, then checks the notification is owed: in the
  // outbox and in the health answer with `error`.
  void ExpectOwed(const std::string& error) {
    ASSERT_TRUE(Eventually([&] { return !harness_.dispatcher().Stats()[0].last_error.empty(); }, 10s));
    EXPECT_EQ(harness_.OutboxSize(), 1u);
    json h = harness_.Health();
    EXPECT_EQ(h["status"], "ok");
    EXPECT_EQ(h["notifications"]["waiting"], 1) << h.dump();
    ASSERT_EQ(h["notifications"]["sinks"].size(), 1u);
    EXPECT_EQ(h["notifications"]["sinks"][0]["sink"], "mqtt-0");
    EXPECT_NE(h["notifications"]["sinks"][0]["error"].get<std::string>().find(error),
              std::string::npos)
        << h.dump();
  }
  void ExpectDelivered() {
    ASSERT_TRUE(Eventually([&] { return harness_.dispatcher().Stats()[0].sent == 1; }, 15s))
        << harness_.dispatcher().Stats()[0].last_error;
    ASSERT_TRUE(harness_.dispatcher().WaitIdle(5s));
    EXPECT_EQ(harness_.OutboxSize(), 0u);
    json h = harness_.Health();
    EXPECT_EQ(h["notifications"]["waiting"], 0);
    EXPECT_TRUE(h["notifications"]["sinks"][0]["error"].is_null());
  }
  dp::testing::OutboxHarness harness_{tmp_.Path("dp.db")};
};

TEST_F(MqttOutboxTest, BrokerDownKeepsItInTheOutboxUntilTheBrokerIsBack) {
  StartDispatcher();
  ExpectOwed("cannot reach the MQTT broker at 127.0.0.1:" + std::to_string(port_));
  Broker broker(tmp_, port_);
  ASSERT_TRUE(broker.up());
  ExpectDelivered();
}

TEST_F(MqttOutboxTest, RefusedLoginKeepsItInTheOutbox) {
  auto broker = std::make_unique<Broker>(tmp_, port_, "diskpulse", "right-password");
  ASSERT_TRUE(broker->up());
  config_.username = "diskpulse";
  config_.password = "wrong-password";
  StartDispatcher();
  ExpectOwed("refused the login");
  // The right login (the broker's password file changed to what we send).
  harness_.Stop();
  broker.reset();
  broker = std::make_unique<Broker>(tmp_, port_, "diskpulse", "wrong-password");
  ASSERT_TRUE(broker->up());
  // A restarted daemon sends what the outbox kept.
  harness_.Start(std::make_unique<MqttSink>(config_, "nas1"), SinkPolicy{});
  ExpectDelivered();
}

// The daemon publishes every drive's state after its discovery pass: a drive
// the store knows but the pass did not see is "missing" on the broker.
TEST_F(MqttSinkTest, TheDaemonPublishesDriveStatesAfterDiscovery) {
  Broker broker(tmp_, port_);
  ASSERT_TRUE(broker.up());
  TempDir dir;
  ASSERT_NO_FATAL_FAILURE(SeedDaemonDir(dir));
  auto d = dp::testing::DaemonProcess::Start(
      dir, {{"alerts", {{"mqtt", json::array({{{"host", "127.0.0.1"}, {"port", port_}}})}}}});
  ASSERT_TRUE(d.ok()) << d.status().message();
  char host[256] = {};
  ASSERT_EQ(::gethostname(host, sizeof host - 1), 0);
  Subscriber sub(port_);
  ASSERT_TRUE(sub.ok());
  auto state = sub.Wait("diskpulse/" + MqttTopicLevel(host) + "/drive/wwn-0x5000cca2/state");
  ASSERT_TRUE(state.has_value()) << (*d)->Output();
  json st = json::parse(*state);
  EXPECT_EQ(st["status"], "missing");
  EXPECT_EQ(st["model"], "WDC WD80EFZZ-68BTXN0");
  EXPECT_TRUE(sub.Wait("homeassistant/sensor/diskpulse_" + MqttTopicLevel(host) +
                       "_wwn-0x5000cca2/temperature/config")
                  .has_value());
}

TEST_F(MqttSinkTest, RefusedLoginIsPermissionDenied) {
  Broker broker(tmp_, port_, "diskpulse", "right-password");
  ASSERT_TRUE(broker.up());
  config_.username = "diskpulse";
  config_.password = "nope";
  MqttSink sink(config_, "nas1");
  Status s = sink.Send(MakeTestNotification(FromUnixSeconds(1764460800), "nas1"));
  EXPECT_EQ(s.code(), StatusCode::kPermissionDenied) << s.ToString();
  EXPECT_NE(s.message().find("refused the login"), std::string::npos) << s.ToString();
}
// Drives with one alert each, as the store keeps them, and what their state
// says: only a told alert (notified or acknowledged) is a problem; a watch
// and a muted alert are not, and a watch has its own entity.
TEST_F(MqttSinkTest, OnlyAToldAlertTurnsTheProblemOnAndAWatchShowsApart) {
  Broker broker(tmp_, port_);
  ASSERT_TRUE(broker.up());
  auto store = TempStore();
  ASSERT_TRUE(store);
  const std::int64_t now = 1764460800;
  FakeClock clock{FromUnixSeconds(now)};
  struct Seed {
    std::string drive, condition, state;
    int notified;
  };
  for (const Seed& s : {Seed{"watched", "slowdown:drive", "open", 0},
                        Seed{"told", "smart:reallocated", "open", 1},
                        Seed{"acked", "smart:pending", "acknowledged", 1},
                        Seed{"muted", "smart:reallocated", "open", 1}}) {
    Drive d;
    d.id = d.name = s.drive;
    ASSERT_TRUE(store->UpsertDrive(d, now).ok());
    Alert a = SomeAlert();
    a.drive_id = s.drive;
    a.condition = s.condition;
    a.state = s.state;
    a.notify_count = s.notified;
    ASSERT_TRUE(store->InsertAlert(a).ok());
  }
  DriveOverride mute;
  mute.source = "config";
  mute.drive_id = "muted";
  mute.mute_until = now + 86400;
  OverrideBook book(*store, clock, {mute});
  auto snapshot = MqttSnapshotOf(*store, &book);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status().ToString();
  MqttSink sink(config_, "nas1");
  Status s = sink.PublishState(*snapshot);
  ASSERT_TRUE(s.ok()) << s.ToString();

  Subscriber sub(port_);
  ASSERT_TRUE(sub.ok());
  auto state = [&](const std::string& id) {
    auto got = sub.Wait("diskpulse/nas1/drive/" + id + "/state");
    return got ? json::parse(*got) : json();
  };
  json watched = state("watched");
  EXPECT_EQ(watched["problem"], "OFF") << watched.dump();
  EXPECT_EQ(watched["watching"], "ON");
  EXPECT_EQ(watched["status"], "watching");
  EXPECT_EQ(watched["standings"], json::array({"watching"}));
  json told = state("told");
  EXPECT_EQ(told["problem"], "ON") << told.dump();
  EXPECT_EQ(told["watching"], "OFF");
  EXPECT_EQ(told["standings"], json::array({"notified"}));
  json acked = state("acked");
  EXPECT_EQ(acked["problem"], "ON") << acked.dump();
  EXPECT_EQ(acked["standings"], json::array({"acknowledged"}));
  json muted = state("muted");
  EXPECT_EQ(muted["problem"], "OFF") << muted.dump();
  EXPECT_EQ(muted["status"], "muted");
  EXPECT_EQ(muted["standings"], json::array({"muted"}));
  // The watch's own entity, beside the problem sensor, follows the watch.
  auto watching = sub.Wait("homeassistant/binary_sensor/diskpulse_nas1_watched/watching/config");
  ASSERT_TRUE(watching.has_value());
  json w = json::parse(*watching);
  EXPECT_EQ(w["value_template"], "{{ value_json.watching }}");
  EXPECT_FALSE(w.contains("device_class"));
  EXPECT_EQ(w["availability_topic"], "diskpulse/nas1/status");
}

// A pool of the latest discovery pass is a device with a problem sensor (its
// own told alerts) and its health.
TEST_F(MqttSinkTest, PoolsAreEntitiesWithTheirHealth) {
  Broker broker(tmp_, port_);
  ASSERT_TRUE(broker.up());
  auto store = TempStore();
  ASSERT_TRUE(store);
  Pool tank;
  tank.name = "tank";
  tank.state = "DEGRADED";
  Pool backup;
  backup.name = "backup";
  backup.state = "ONLINE";
  ASSERT_TRUE(store->RecordPools({tank, backup}, 1764460800).ok());
  Alert a = SomeAlert();
  a.drive_id = "";
  a.condition = "pool:tank:state";
  a.notify_count = 1;
  ASSERT_TRUE(store->InsertAlert(a).ok());
  auto snapshot = MqttSnapshotOf(*store, nullptr);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status().ToString();
  MqttSink sink(config_, "nas1");
  Status s = sink.PublishState(*snapshot);
  ASSERT_TRUE(s.ok()) << s.ToString();

  Subscriber sub(port_);
  ASSERT_TRUE(sub.ok());
  auto problem = sub.Wait("homeassistant/binary_sensor/diskpulse_nas1_pool_tank/problem/config");
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(json::parse(*problem)["device_class"], "problem");
  EXPECT_EQ(json::parse(*problem)["state_topic"], "diskpulse/nas1/pool/tank/state");
  auto health = sub.Wait("homeassistant/sensor/diskpulse_nas1_pool_tank/health/config");
  ASSERT_TRUE(health.has_value());
  EXPECT_EQ(json::parse(*health)["value_template"], "{{ value_json.health }}");
  auto st = sub.Wait("diskpulse/nas1/pool/tank/state");
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(json::parse(*st)["health"], "DEGRADED");
  EXPECT_EQ(json::parse(*st)["problem"], "ON");
  auto other = sub.Wait("diskpulse/nas1/pool/backup/state");
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ(json::parse(*other)["health"], "ONLINE");
  EXPECT_EQ(json::parse(*other)["problem"], "OFF");
  // The sink's connection announced itself.
  EXPECT_EQ(sub.Wait("diskpulse/nas1/status"), std::optional<std::string>("online"));
}

// A drive the owner forgot: an empty retained payload on each of its
// discovery topics (Home Assistant deletes the entities) and on its state.
TEST_F(MqttSinkTest, AForgottenDrivesEntitiesAreRemoved) {
  Broker broker(tmp_, port_);
  ASSERT_TRUE(broker.up());
  auto store = TempStore();
  ASSERT_TRUE(store);
  Drive d;
  d.id = "wwn-0x5000cca2";
  d.name = "sdq";
  ASSERT_TRUE(store->UpsertDrive(d, 1764460800).ok());
  ASSERT_TRUE(store->MarkMissingExcept({}, 1764460850).ok());
  MqttSink sink(config_, "nas1");
  auto before = MqttSnapshotOf(*store, nullptr);
  ASSERT_TRUE(before.ok());
  ASSERT_TRUE(sink.PublishState(*before).ok());
  Subscriber sub(port_);
  ASSERT_TRUE(sub.ok());
  const std::string object = "homeassistant/binary_sensor/diskpulse_nas1_wwn-0x5000cca2";
  const std::vector<std::string> topics = {
      object + "/problem/config", object + "/watching/config",
      "homeassistant/sensor/diskpulse_nas1_wwn-0x5000cca2/temperature/config",
      "diskpulse/nas1/drive/wwn-0x5000cca2/state"};
  for (const auto& t : topics)
    ASSERT_TRUE(sub.WaitUntil(t, [](const std::string& p) { return !p.empty(); })) << t;

  auto forgotten = store->ForgetDrive(d.id, 1764460900, "replaced");
  ASSERT_TRUE(forgotten.ok()) << forgotten.status().ToString();
  auto after = MqttSnapshotOf(*store, nullptr);
  ASSERT_TRUE(after.ok());
  EXPECT_TRUE(after->drives.empty());
  Status s = sink.PublishState(*after);
  ASSERT_TRUE(s.ok()) << s.ToString();
  for (const auto& t : topics)
    EXPECT_TRUE(sub.WaitUntil(t, [](const std::string& p) { return p.empty(); })) << t;
  // Nothing of it is retained for Home Assistant's next start.
  Subscriber later(port_);
  ASSERT_TRUE(later.ok());
  EXPECT_TRUE(later.Wait("diskpulse/nas1/status").has_value());
  for (const auto& t : topics) EXPECT_EQ(later.Count(t), 0u) << t;
}

// A burst of changes is one publish; a change just before Stop is not lost.
TEST_F(MqttSinkTest, TheStatePublisherCoalescesABurstAndKeepsTheLastChange) {
  Broker broker(tmp_, port_);
  ASSERT_TRUE(broker.up());
  auto sink = std::make_shared<MqttSink>(config_, "nas1");
  std::atomic<int> snapshots{0};
  MqttStatePublisher publisher({sink}, [&]() -> Result<MqttSnapshot> {
    MqttSnapshot s;
    MqttDriveState d;
    d.id = "sda";
    d.temperature_c = ++snapshots;
    s.drives.push_back(d);
    return s;
  }, 300ms);
  publisher.Start();
  for (int i = 0; i < 20; ++i) publisher.Changed();
  ASSERT_TRUE(Eventually([&] { return publisher.published() == 1; }, 5s));
  std::this_thread::sleep_for(700ms);
  EXPECT_EQ(publisher.published(), 1);
  EXPECT_EQ(snapshots.load(), 1);
  publisher.Changed();
  publisher.Stop();
  EXPECT_EQ(publisher.published(), 2);
  Subscriber sub(port_);
  ASSERT_TRUE(sub.ok());
  EXPECT_TRUE(sub.WaitUntil("diskpulse/nas1/drive/sda/state", [](const std::string& p) {
    return json::parse(p)["temperature_c"] == 2;
  }));
}

const dp::testing::HeaderList kOwner = {{"Authorization", "Bearer owner-token"}};

std::string HostLevel() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return MqttTopicLevel(host);
}

// The daemon's config patch: a broker on port and an owner's token.
json DaemonWithBroker(int port) {
  return {{"api_token", "owner-token"},
          {"alerts", {{"mqtt", json::array({{{"host", "127.0.0.1"}, {"port", port}}})}}}};
}

// Notifications and state at once, from the real daemon: one session with
// the broker the whole time (a second one under the same client id would
// push the first off), "online" while it runs, "offline" when it stops, and
// its last will "offline" once it dies without a goodbye.
TEST_F(MqttSinkTest, TheDaemonKeepsOneSessionAndItsLastWillSaysOffline) {
  const std::string log = tmp_.Path("mosquitto.log");
  Broker broker(tmp_, port_, "", "", log);
  ASSERT_TRUE(broker.up());
  TempDir dir;
  ASSERT_NO_FATAL_FAILURE(SeedDaemonDir(dir));
  Subscriber sub(port_);
  ASSERT_TRUE(sub.ok());
  auto d = dp::testing::DaemonProcess::Start(dir, DaemonWithBroker(port_));
  ASSERT_TRUE(d.ok()) << d.status().message();
  const std::string base = "diskpulse/" + HostLevel();
  // Notifications while the state is being published.
  for (int i = 0; i < 3; ++i) {
    auto r = dp::testing::HttpRequest((*d)->port(), "POST", "/api/v1/alerts/test", "{}", kOwner);
    EXPECT_LT(r.status, 300) << r.body;
  }
  ASSERT_TRUE(sub.WaitUntil(base + "/drive/wwn-0x5000cca2/state",
                            [](const std::string& p) { return !p.empty(); }))
      << (*d)->Output();
  ASSERT_TRUE(Eventually([&] { return sub.Count(base + "/alerts") == 3; }, 15s))
      << (*d)->Output();
  EXPECT_TRUE(sub.WaitUntil(base + "/status", [](const std::string& p) { return p == "online"; }));
  std::this_thread::sleep_for(500ms);
  std::stringstream text;
  text << std::ifstream(log).rdbuf();
  const std::string who = " as diskpulse-" + HostLevel() + " ";
  std::size_t sessions = 0;
  for (std::size_t at = text.str().find(who); at != std::string::npos;
       at = text.str().find(who, at + 1))
    ++sessions;
  EXPECT_EQ(sessions, 1u) << text.str();
  EXPECT_EQ(text.str().find("already connected"), std::string::npos) << text.str();

  // A stop says goodbye itself (a clean disconnect fires no will) ...
  auto is = [](const char* what) { return [what](const std::string& p) { return p == what; }; };
  (*d)->Signal(SIGTERM);
  EXPECT_EQ((*d)->WaitExit(15s), std::optional<int>(0)) << (*d)->Output();
  EXPECT_TRUE(sub.WaitUntil(base + "/status", is("offline")));
  // ... and a death leaves it to the will.
  d = dp::testing::DaemonProcess::Start(dir, DaemonWithBroker(port_));
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_TRUE(sub.WaitUntil(base + "/status", is("online"))) << (*d)->Output();
  (*d)->Signal(SIGKILL);
  EXPECT_TRUE(sub.WaitUntil(base + "/status", is("offline"))) << text.str();
}

// The daemon publishes a drive's state within seconds of its alert's change
// (discovery runs hourly here), and removes a forgotten drive's entities.
TEST_F(MqttSinkTest, TheDaemonPublishesAChangeAtOnceAndRemovesAForgottenDrive) {
  Broker broker(tmp_, port_);
  ASSERT_TRUE(broker.up());
  TempDir dir;
  std::int64_t alert_id = 0;
  ASSERT_NO_FATAL_FAILURE(SeedDaemonDir(dir, &alert_id));
  Subscriber sub(port_);
  ASSERT_TRUE(sub.ok());
  auto d = dp::testing::DaemonProcess::Start(dir, DaemonWithBroker(port_));
  ASSERT_TRUE(d.ok()) << d.status().message();
  const std::string host = HostLevel();
  const std::string state = "diskpulse/" + host + "/drive/wwn-0x5000cca2/state";
  auto has = [](const std::string& what) {
    return [what](const std::string& p) { return p.find(what) != std::string::npos; };
  };
  ASSERT_TRUE(sub.WaitUntil(state, has("\"notified\""))) << (*d)->Output();
  EXPECT_TRUE(sub.WaitUntil(state, has("\"problem\":\"ON\"")));

  auto ack = dp::testing::HttpRequest((*d)->port(), "POST",
                                      "/api/v1/alerts/" + std::to_string(alert_id) + "/ack", "{}",
                                      kOwner);
  ASSERT_EQ(ack.status, 200) << ack.body;
  EXPECT_TRUE(sub.WaitUntil(state, has("\"acknowledged\""), 6s)) << (*d)->Output();

  // Forgettable once the first discovery pass has found it missing.
  dp::testing::HttpResult forget;
  ASSERT_TRUE(Eventually([&] {
    forget = dp::testing::HttpRequest((*d)->port(), "POST",
                                      "/api/v1/drives/wwn-0x5000cca2/forget", "{}", kOwner);
    return forget.status == 200;
  }, 10s, 100ms)) << forget.body;
  const std::string object = "diskpulse_" + host + "_wwn-0x5000cca2";
  for (const std::string& t : {"homeassistant/binary_sensor/" + object + "/problem/config",
                               "homeassistant/binary_sensor/" + object + "/watching/config",
                               "homeassistant/sensor/" + object + "/temperature/config", state})
    EXPECT_TRUE(sub.WaitUntil(t, [](const std::string& p) { return p.empty(); }, 6s)) << t;
}
#endif

}  // namespace
}  // namespace dp
