// The mail sink through an SMTP server, against a real one started by the
// test (Debian's python3-aiosmtpd on a free loopback port, tests/alert/
// smtp_server.py; skipped with the reason where it is missing), with a test
// certificate the client trusts through ca_file: STARTTLS with AUTH PLAIN and
// implicit TLS with AUTH LOGIN deliver what the server keeps; an untrusted
// certificate, a wrong password and a server that never answers are errors
// that say so (and never the password), a notification kept in the outbox and shown by
// /api/v1/health; a line starting with "." arrives as it was written.
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "alert/http_receiver_util.h"
#include "alert/outbox_harness_util.h"
#include "alert/mail_sink.h"
#include "net/http_client.h"
#include "net/smtp_client.h"
#include "net/url.h"
#include "store/store.h"
#include "support/capability.h"
#include "support/daemon_process.h"
#include "support/eventually.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using dp::testing::Eventually;
using dp::testing::TempDir;
using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kPython = "/usr/bin/python3";
constexpr const char* kUser = "nas@example.org";
constexpr const char* kPassword = "s3cret-Pa55";

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool HaveAiosmtpd() {
  auto r = dp::testing::RunProgram({kPython, "-c", "import aiosmtpd"}, 30s);
  return r.exit_code == 0;
}

// tests/alert/smtp_server.py on 127.0.0.1:port; what it receives lands in
// its own folder.
class SmtpServer {
 public:
  struct Options {
    std::string security = "starttls";
    bool only_login = false;
    std::string cert, key;
  };
  SmtpServer(const TempDir& dir, int port, const Options& o) : port_(port) {
    out_ = dir.Path("received-" + std::to_string(port));
    std::filesystem::create_directories(out_);
    std::vector<std::string> argv = {kPython,
                                     std::string(DP_SOURCE_DIR) + "/tests/alert/smtp_server.py",
                                     "--port", std::to_string(port), "--security", o.security,
                                     "--user", kUser, "--password", kPassword, "--out", out_};
    if (!o.cert.empty()) argv.insert(argv.end(), {"--cert", o.cert, "--key", o.key});
    if (o.only_login) argv.push_back("--only-login");
    log_ = out_ + "/server.log";
    pid_ = ::fork();
    if (pid_ == 0) {
      int fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      ::execv(kPython, args.data());
      ::_exit(127);
    }
    up_ = Eventually([&] { return Slurp(log_).find("listening") != std::string::npos; }, 20s, 20ms);
  }
  ~SmtpServer() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  bool up() const { return up_; }
  std::string log() const { return Slurp(log_); }
  // The nth message kept (1-based) and its envelope; empty when none came.
  std::string Message(int n, std::chrono::milliseconds wait = 10s) const {
    std::string path = out_ + "/" + std::to_string(n) + ".eml";
    Eventually([&] { return std::filesystem::exists(path); }, wait, 20ms);
    return Slurp(path);
  }
  json Envelope(int n) const { return json::parse(Slurp(out_ + "/" + std::to_string(n) + ".json")); }
  int Count() const {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(out_))
      n += e.path().extension() == ".eml";
    return n;
  }

 private:
  int port_;
  std::string out_, log_;
  pid_t pid_ = -1;
  bool up_ = false;
};

class SmtpMailTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::access(kPython, X_OK) != 0 || !HaveAiosmtpd())
      DP_SKIP_WITHOUT("python3-aiosmtpd",
                      "python3-aiosmtpd is not installed (scripts/setup.sh installs it with "
                      "DP_SETUP_TEST_TOOLS=1)");
    std::string why;
    ASSERT_TRUE(dp::testing::MakeSelfSignedCert(tmp_.path().string(), "127.0.0.1", cert_, key_, why))
        << why;
    port_ = dp::testing::UnusedPort();
    config_.name = "mail-0";
    config_.to = {"ops@example.org", "Second <second@example.org>"};
    config_.from = "diskpulse <nas@example.org>";
    config_.timeout_seconds = 10;
    config_.smtp.host = "127.0.0.1";
    config_.smtp.port = port_;
    config_.smtp.username = kUser;
    config_.smtp.password = kPassword;
    config_.smtp.ca_file = cert_;
  }
  SmtpServer::Options Server(std::string security) const {
    SmtpServer::Options o;
    o.security = std::move(security);
    o.cert = cert_;
    o.key = key_;
    return o;
  }
  static Notification Opened(std::string summary = "sda: 8 pending sectors at 61 °C (was 0)") {
    Alert a;
    a.id = 7;
    a.drive_id = "wwn-0x5000c500a1b2c3d4";
    a.condition = "smart:pending";
    a.severity = "critical";
    a.summary = std::move(summary);
    a.evidence_json = R"({"drive_name":"sda"})";
    a.opened_at = 1764460800;
    return MakeNotification(NotifyKind::kOpened, a, FromUnixSeconds(1764460800), "nas1");
  }
  TempDir tmp_;
  std::string cert_, key_;
  int port_ = 0;
  MailConfig config_;
  dp::PosixCommandRunner runner_;
};

TEST_F(SmtpMailTest, StartTlsWithAuthPlainDeliversTheMessage) {
  SmtpServer server(tmp_, port_, Server("starttls"));
  ASSERT_TRUE(server.up()) << server.log();
  MailSink sink(config_, runner_, "nas1");
  Status st = sink.Send(Opened());
  ASSERT_TRUE(st.ok()) << st.ToString() << "\n" << server.log();
  std::string m = server.Message(1);
  EXPECT_NE(m.find("From: diskpulse <nas@example.org>\r\n"), std::string::npos) << m;
  EXPECT_NE(m.find("To: ops@example.org, Second <second@example.org>\r\n"), std::string::npos) << m;
  EXPECT_NE(m.find("Date: Sun, 30 Nov 2025 00:00:00 +0000\r\n"), std::string::npos) << m;
  EXPECT_NE(m.find("Message-ID: <"), std::string::npos) << m;
  EXPECT_NE(m.find("@example.org>\r\n"), std::string::npos) << m;
  // Not ASCII: an encoded word in the subject, 8bit in the body (aiosmtpd says 8BITMIME).
  EXPECT_NE(m.find("Subject: =?UTF-8?B?"), std::string::npos) << m;
  EXPECT_NE(m.find("Content-Type: text/plain; charset=utf-8\r\n"), std::string::npos) << m;
  EXPECT_NE(m.find("Content-Transfer-Encoding: 8bit\r\n"), std::string::npos) << m;
  EXPECT_NE(m.find("\r\n\r\nsda: 8 pending sectors at 61 °C (was 0)\r\n"), std::string::npos) << m;
  EXPECT_NE(m.find("Condition: smart:pending\r\n"), std::string::npos) << m;
  json env = server.Envelope(1);
  EXPECT_EQ(env["from"], "nas@example.org");
  EXPECT_EQ(env["to"], json::array({"ops@example.org", "second@example.org"}));
  EXPECT_NE(env["options"].dump().find("BODY=8BITMIME"), std::string::npos) << env.dump();
}

TEST_F(SmtpMailTest, ImplicitTlsWithAuthLoginDeliversTheMessage) {
  SmtpServer::Options o = Server("tls");
  o.only_login = true;
  SmtpServer server(tmp_, port_, o);
  ASSERT_TRUE(server.up()) << server.log();
  config_.smtp.security = "tls";
  MailSink sink(config_, runner_, "nas1");
  Status st = sink.Send(Opened("sda: 8 pending sectors (was 0)"));
  ASSERT_TRUE(st.ok()) << st.ToString() << "\n" << server.log();
  std::string m = server.Message(1);
  EXPECT_NE(m.find("Subject: [diskpulse] [critical] sda: 8 pending sectors (was 0)\r\n"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("Content-Transfer-Encoding: 7bit\r\n"), std::string::npos) << m;
  EXPECT_TRUE(server.Envelope(1)["options"].empty());
}

TEST_F(SmtpMailTest, AnUntrustedCertificateIsRefused) {
  SmtpServer server(tmp_, port_, Server("starttls"));
  ASSERT_TRUE(server.up()) << server.log();
  // Trusting another certificate than the server's.
  TempDir other;
  std::string other_cert, other_key, why;
  ASSERT_TRUE(dp::testing::MakeSelfSignedCert(other.path().string(), "127.0.0.1", other_cert,
                                              other_key, why))
      << why;
  config_.smtp.ca_file = other_cert;
  MailSink sink(config_, runner_);
  Status st = sink.Send(Opened());
  EXPECT_EQ(st.code(), StatusCode::kUnavailable) << st.ToString();
  EXPECT_NE(st.message().find("mail mail-0 (smtp 127.0.0.1:" + std::to_string(port_) +
                              "): TLS handshake failed: certificate verify failed"),
            std::string::npos)
      << st.ToString();
  // The server's certificate but another name: the name is checked too.
  config_.smtp.ca_file = cert_;
  config_.smtp.host = "localhost";
  MailSink by_name(config_, runner_);
  st = by_name.Send(Opened());
  EXPECT_NE(st.message().find("certificate verify failed"), std::string::npos) << st.ToString();
  EXPECT_EQ(server.Count(), 0);
}

TEST_F(SmtpMailTest, AServerThatNeverAnswersTimesOut) {
  // Listening, never accepting: the connection is made, no greeting comes.
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(fd, 4), 0);
  socklen_t n = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n);
  config_.smtp.port = ntohs(a.sin_port);
  config_.timeout_seconds = 1;
  MailSink sink(config_, runner_);
  auto t0 = std::chrono::steady_clock::now();
  Status st = sink.Send(Opened());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 3s);
  ::close(fd);
  EXPECT_EQ(st.code(), StatusCode::kTimeout) << st.ToString();
  EXPECT_NE(st.message().find("no reply within 1 s (greeting)"), std::string::npos)
      << st.ToString();
}

TEST_F(SmtpMailTest, LinesStartingWithADotArriveAsWritten) {
  SmtpServer server(tmp_, port_, Server("starttls"));
  ASSERT_TRUE(server.up()) << server.log();
  MailSink sink(config_, runner_);
  Status st = sink.Send(Opened("sda: odd lines\n.\n..two dots\n.one dot"));
  ASSERT_TRUE(st.ok()) << st.ToString();
  std::string m = server.Message(1);
  EXPECT_NE(m.find("\r\n\r\nsda: odd lines\r\n.\r\n..two dots\r\n.one dot\r\n\r\nDrive:"),
            std::string::npos)
      << m;
}

TEST(SmtpMessage, QuotedPrintableWithout8BitMimeAndOnLongLines) {
  net::SmtpMessage m;
  m.from = "a@b";
  m.headers = {{"Subject", "plain"}};
  m.body = "61 °C = hot\n";
  std::string out = net::ComposeSmtpMessage(m, false);
  EXPECT_NE(out.find("Content-Transfer-Encoding: quoted-printable\r\n"), std::string::npos);
  EXPECT_NE(out.find("\r\n\r\n61 =C2=B0C =3D hot\r\n"), std::string::npos) << out;
  m.body = std::string(1200, 'x');
  out = net::ComposeSmtpMessage(m, true);
  EXPECT_NE(out.find("quoted-printable"), std::string::npos);
  for (std::size_t at = 0, nl; (nl = out.find("\r\n", at)) != std::string::npos; at = nl + 2)
    EXPECT_LE(nl - at, 76u);
  EXPECT_EQ(net::DotStuff(".a\r\nb\r\n."), "..a\r\nb\r\n..\r\n.\r\n");
}

// The dispatcher, the store's outbox and the health answer around the sink.
TEST_F(SmtpMailTest, AWrongPasswordIsKeptInTheOutboxAndShownWithoutThePassword) {
  SmtpServer server(tmp_, port_, Server("starttls"));
  ASSERT_TRUE(server.up()) << server.log();
  config_.smtp.password = "wrong-Pa55word";
  dp::testing::OutboxHarness harness(tmp_.Path("dp.db"));
  ASSERT_TRUE(harness.ok());
  harness.Start(std::make_unique<MailSink>(config_, runner_));
  harness.dispatcher().Submit(Opened());
  ASSERT_TRUE(Eventually([&] { return !harness.dispatcher().Stats()[0].last_error.empty(); }, 15s));
  EXPECT_EQ(harness.OutboxSize(), 1u);
  json h = harness.Health();
  EXPECT_EQ(h["notifications"]["waiting"], 1) << h.dump();
  ASSERT_EQ(h["notifications"]["sinks"].size(), 1u);
  EXPECT_EQ(h["notifications"]["sinks"][0]["sink"], "mail-0");
  std::string error = h["notifications"]["sinks"][0]["error"].get<std::string>();
  EXPECT_NE(error.find("AUTH PLAIN: 535"), std::string::npos) << error;
  EXPECT_EQ(h.dump().find("wrong-Pa55word"), std::string::npos) << error;
  EXPECT_EQ(server.Count(), 0);
}

// The real daemon with two SMTP mail sinks: a test notification reaches the
// server through the one with the right password, and the other's refused
// login shows in /api/v1/health.
TEST_F(SmtpMailTest, TheDaemonMailsThroughItsSmtpSinkAndShowsErrorsInHealth) {
  SmtpServer server(tmp_, port_, Server("starttls"));
  ASSERT_TRUE(server.up()) << server.log();
  TempDir dir;
  json smtp = {{"host", "127.0.0.1"}, {"port", port_}, {"username", kUser},
               {"ca_file", cert_}, {"password", kPassword}};
  json bad = smtp;
  bad["password"] = "wrong-Pa55word";
  json mail = json::array({{{"name", "good"}, {"to", {"ops@example.org"}}, {"smtp", smtp}},
                           {{"name", "bad"},
                            {"to", {"ops@example.org"}},
                            {"smtp", bad},
                            {"max_attempts", 50},
                            {"retry_initial_seconds", 1},
                            {"retry_max_seconds", 1}}});
  {
    // A notification owed to both sinks, as an earlier daemon would leave it.
    std::filesystem::create_directories(dir.Path("var"));
    auto store = Store::Open(dir.Path("var/diskpulse.db"));
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    std::string n = EncodeNotification(Opened("sdq: 8 pending sectors, was 0"));
    ASSERT_TRUE((*store)->AddOutboxEntry("good", n, 0).ok());
    ASSERT_TRUE((*store)->AddOutboxEntry("bad", n, 0).ok());
  }
  auto d = dp::testing::DaemonProcess::Start(dir, {{"alerts", {{"mail", mail}}}});
  ASSERT_TRUE(d.ok()) << d.status().message();
  std::string m = server.Message(1, 20s);
  EXPECT_NE(m.find("sdq: 8 pending sectors, was 0"), std::string::npos) << (*d)->Output();
  EXPECT_EQ(server.Envelope(1)["from"], kUser);  // the username is the sender unless given
  auto url = net::ParseUrl((*d)->url() + "api/v1/health");
  ASSERT_TRUE(url.ok());
  std::string error;
  Eventually(
      [&] {
        auto a = net::Exchange(*url, {}, {});
        if (!a.ok() || a->status != 200) return false;
        json h = json::parse(a->body);
        for (const auto& s : h["notifications"]["sinks"])
          if (s["sink"] == "bad" && s["error"].is_string()) error = s["error"];
        return !error.empty();
      },
      20s, 100ms);
  EXPECT_NE(error.find("mail bad (smtp 127.0.0.1:" + std::to_string(port_) + "): AUTH PLAIN: 535"),
            std::string::npos)
      << error << "\n" << (*d)->Output();
  EXPECT_EQ((*d)->Output().find("wrong-Pa55word"), std::string::npos);
  EXPECT_EQ(server.Count(), 1);
}

}  // namespace
}  // namespace dp
