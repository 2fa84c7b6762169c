// WebhookSink against a real HTTP(S) receiver on 127.0.0.1.
#include "alert/webhook_sink.h"

#include <gtest/gtest.h>

#include "alert/alert_dispatcher.h"
#include "alert/http_receiver_util.h"
#include "base/fake_clock.h"
#include "support/capability.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using namespace std::chrono_literals;
using testing::HttpReceiver;

Notification Opened() {
  Alert a;
  a.id = 3;
  a.drive_id = "wwn-1";
  a.condition = "slowdown:seq:qd8-1m:mb_per_s";
  a.severity = "warning";
  a.summary = "sda seq throughput dropped 18%";
  a.evidence_json = R"({"drive_name":"sda"})";
  return MakeNotification(NotifyKind::kOpened, a, FakeClock().Now(), "nas");
}

WebhookConfig Config(const std::string& url) {
  WebhookConfig c;
  c.name = "test-hook";
  c.url = url;
  c.timeout_seconds = 2;
  return c;
}

std::unique_ptr<WebhookSink> Make(const WebhookConfig& c) {
  auto s = WebhookSink::Create(c);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(s).value();
}

TEST(WebhookUrl, Parses) {
  auto u = ParseWebhookUrl("https://ntfy.example:8443/disks?x=1");
  ASSERT_TRUE(u.ok());
  EXPECT_TRUE(u->tls);
  EXPECT_EQ(u->host, "ntfy.example");
  EXPECT_EQ(u->port, 8443);
  EXPECT_EQ(u->Target(), "/disks?x=1");
  u = ParseWebhookUrl("http://[::1]/");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->port, 80);
  u = ParseWebhookUrl("http://host");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->Target(), "/");
  EXPECT_FALSE(ParseWebhookUrl("ftp://x/").ok());
  EXPECT_FALSE(ParseWebhookUrl("http://:80/").ok());
  EXPECT_FALSE(ParseWebhookUrl("http://h:99999/").ok());
  EXPECT_FALSE(ParseWebhookUrl("http://u:p@h/").ok());
}

TEST(WebhookSink, PostsTheJsonDocument) {
  HttpReceiver rx({});
  auto sink = Make(Config("http://127.0.0.1:" + std::to_string(rx.port()) + "/hook"));
  Status st = sink->Send(Opened());
  ASSERT_TRUE(st.ok()) << st.ToString();
  auto reqs = rx.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].target, "/hook");
  EXPECT_EQ(reqs[0].headers["content-type"], "application/json");
  EXPECT_EQ(reqs[0].headers["host"], "127.0.0.1:" + std::to_string(rx.port()));
  auto j = nlohmann::json::parse(reqs[0].body);
  EXPECT_EQ(j["event"], "opened");
  EXPECT_EQ(j["drive"], "sda");
  EXPECT_EQ(j["alert"]["id"], 3);
}

TEST(WebhookSink, NtfyStyleTemplateWithHeaders) {
  HttpReceiver rx({});
  WebhookConfig c = Config("http://127.0.0.1:" + std::to_string(rx.port()) + "/diskpulse");
  c.content_type = "text/plain";
  c.body_template = "{{summary}} ({{drive}})";
  c.headers = {{"Title", "{{title}}"}, {"Priority", "{{priority}}"}, {"Tags", "floppy_disk"}};
  ASSERT_TRUE(Make(c)->Send(Opened()).ok());
  auto r = rx.requests().at(0);
  EXPECT_EQ(r.body, "sda seq throughput dropped 18% (sda)");
  EXPECT_EQ(r.headers["content-type"], "text/plain");
  EXPECT_EQ(r.headers["priority"], "4");
  EXPECT_EQ(r.headers["title"], "[warning] sda seq throughput dropped 18%");
  EXPECT_EQ(r.headers["tags"], "floppy_disk");
}

TEST(WebhookSink, Http500IsAnErrorAndTheDispatcherRetries) {
  HttpReceiver::Options o;
  o.statuses = {500, 500, 200};
  HttpReceiver rx(o);
  WebhookConfig c = Config("http://127.0.0.1:" + std::to_string(rx.port()) + "/");
  auto sink = Make(c);
  Status st = sink->Send(Opened());
  EXPECT_EQ(st.code(), StatusCode::kUnavailable);
  EXPECT_NE(st.message().find("HTTP 500"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("receiver says no"), std::string::npos) << st.ToString();

  AlertDispatcher d;
  SinkPolicy p;
  p.max_attempts = 3;
  p.retry_initial = 20ms;
  d.AddSink(std::move(sink), p);
  d.Start();
  d.Submit(Opened());
  ASSERT_TRUE(d.WaitIdle(10s));
  EXPECT_EQ(rx.requests().size(), 3u);  // one 500 above, one 500 and a 200 here
  EXPECT_EQ(d.Stats()[0].sent, 1u);
  EXPECT_EQ(d.Stats()[0].attempts_failed, 1u);
}

TEST(WebhookSink, UnreachablePortIsUnavailable) {
  int port = testing::UnusedPort();
  Status st = Make(Config("http://127.0.0.1:" + std::to_string(port) + "/"))->Send(Opened());
  EXPECT_EQ(st.code(), StatusCode::kUnavailable) << st.ToString();
  EXPECT_NE(st.message().find("cannot connect"), std::string::npos) << st.ToString();
}

TEST(WebhookSink, SlowServerTimesOut) {
  HttpReceiver::Options o;
  o.delay = 5000ms;
  HttpReceiver rx(o);
  WebhookConfig c = Config("http://127.0.0.1:" + std::to_string(rx.port()) + "/");
  c.timeout_seconds = 1;
  auto t0 = std::chrono::steady_clock::now();
  Status st = Make(c)->Send(Opened());
  auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_EQ(st.code(), StatusCode::kTimeout) << st.ToString();
  EXPECT_LT(took, 3s);
  EXPECT_GE(took, 900ms);
}

class WebhookTls : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!testing::MakeSelfSignedCert(dir_.path().string(), "127.0.0.1", cert_, key_, why))
      DP_SKIP_WITHOUT("openssl", "cannot make a test certificate: " << why);
  }
  dp::testing::TempDir dir_;
  std::string cert_, key_;
};

TEST_F(WebhookTls, SelfSignedCertificateIsRejectedUnlessTrusted) {
  HttpReceiver rx({.cert_file = cert_, .key_file = key_});
  WebhookConfig c = Config("https://127.0.0.1:" + std::to_string(rx.port()) + "/tls");
  Status st = Make(c)->Send(Opened());
  EXPECT_EQ(st.code(), StatusCode::kUnavailable) << st.ToString();
  EXPECT_NE(st.message().find("certificate verify failed"), std::string::npos) << st.ToString();
  EXPECT_TRUE(rx.requests().empty());

  c.ca_file = cert_;  // trust it
  st = Make(c)->Send(Opened());
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(rx.requests().size(), 1u);
  EXPECT_EQ(rx.requests()[0].target, "/tls");
}

TEST_F(WebhookTls, TrustedCertificateForAnotherNameIsRejected) {
  std::string other_cert, other_key, why;
  ASSERT_TRUE(testing::MakeSelfSignedCert(dir_.path().string(), "otherhost.example", other_cert,
                                          other_key, why))
      << why;
  HttpReceiver rx({.cert_file = other_cert, .key_file = other_key});
  WebhookConfig c = Config("https://127.0.0.1:" + std::to_string(rx.port()) + "/");
  c.ca_file = other_cert;
  Status st = Make(c)->Send(Opened());
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(rx.requests().empty());
}

TEST_F(WebhookTls, MissingCaFileIsAClearError) {
  WebhookConfig c = Config("https://127.0.0.1:1/");
  c.ca_file = dir_.Path("nope.pem");
  Status st = Make(c)->Send(Opened());
  EXPECT_NE(st.message().find("cannot load CA file"), std::string::npos) << st.ToString();
}

}  // namespace
}  // namespace dp
