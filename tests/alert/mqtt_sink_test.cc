// The MQTT sink against a real broker started by the test (Debian's
// mosquitto on a free loopback port; skipped with the reason where it or
// libmosquitto is missing): a notification is published, each drive's state
// and its Home Assistant discovery documents are retained for a subscriber
// that comes later, and a broker that is down or refuses the login keeps the
// notification in the store's outbox, retried, with /api/v1/health saying so,
// until the broker takes it.
#include "alert/mqtt_sink.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>

#include <gtest/gtest.h>

#if __has_include(<mosquitto.h>)
#include <mosquitto.h>
#define DP_TEST_HAVE_MOSQUITTO 1
#endif

#include "alert/alert_dispatcher.h"
#include "base/fake_clock.h"
#include "alert/outbox_harness_util.h"
#include "store/store.h"
#include "support/daemon_process.h"
#include "support/eventually.h"
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
  Broker(const TempDir& dir, int port, const std::string& user = "", const std::string& password = "")
      : port_(port) {
    std::string conf = "listener " + std::to_string(port) + " 127.0.0.1\npersistence false\n";
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
      GTEST_SKIP() << "built without libmosquitto (scripts/setup.sh installs libmosquitto-dev)";
    if (::access(kMosquitto, X_OK) != 0)
      GTEST_SKIP() << "mosquitto is not installed (scripts/setup.sh installs it)";
#if !DP_TEST_HAVE_MOSQUITTO
    GTEST_SKIP() << "mosquitto.h is missing (libmosquitto-dev)";
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
  sda.open_alerts = 1;
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
  // A drive id with '/' becomes one topic level; a missing drive is a problem.
  auto missing = sub.Wait("diskpulse/nas1/drive/path-_dev_sdc/state");
  ASSERT_TRUE(missing.has_value());
  EXPECT_EQ(json::parse(*missing)["status"], "missing");
  EXPECT_EQ(json::parse(*missing)["problem"], "ON");
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
  std::filesystem::create_directories(dir.path() / "var");
  // An empty block device list: discovery passes and sees no drive.
  std::filesystem::create_directories(dir.path() / "host/sys/block");
  {
    auto store = Store::Open(dir.Path("var/diskpulse.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    Drive a;
    a.id = "wwn-0x5000cca2";
    a.name = "sdq";
    a.model = "WDC WD80EFZZ-68BTXN0";
    ASSERT_TRUE((*store)->UpsertDrive(a, 1764460800).ok());
  }
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
#endif

}  // namespace
}  // namespace dp
