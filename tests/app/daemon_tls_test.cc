// HTTPS: diskpulsed with a self-signed certificate made here by the openssl
// command, checked by the CLI's client (certificate and host verified).
#include <gtest/gtest.h>

#include "cli/daemon_client.h"
#include "support/capability.h"
#include "support/daemon_process.h"
#include "support/http_client.h"

namespace dp {
namespace {

using namespace dp::testing;

class DaemonTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* p : {"/usr/bin/openssl", "/usr/local/bin/openssl"})
      if (::access(p, X_OK) == 0) openssl_ = p;
    if (openssl_.empty()) DP_SKIP_WITHOUT("openssl", "the openssl command is not installed");
    auto r = RunProgram({openssl_, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                         tmp_.Path("key.pem"), "-out", tmp_.Path("cert.pem"), "-days", "2",
                         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    auto d = DaemonProcess::Start(
        tmp_, {{"tls", {{"cert_file", tmp_.Path("cert.pem")}, {"key_file", tmp_.Path("key.pem")}}}});
    ASSERT_TRUE(d.ok()) << d.status().message();
    daemon_ = std::move(d).value();
  }

  std::string openssl_;
  TempDir tmp_;
  std::unique_ptr<DaemonProcess> daemon_;
};

TEST_F(DaemonTlsTest, ServesHttpsWithAVerifiedCertificate) {
  EXPECT_EQ(daemon_->url().rfind("https://127.0.0.1:", 0), 0u) << daemon_->url();
  cli::DaemonClientOptions o;
  o.url = daemon_->url();
  o.ca_file = tmp_.Path("cert.pem");
  auto client = cli::DaemonClient::Create(o);
  ASSERT_TRUE(client.ok());
  auto health = client->GetJson("/api/v1/health");
  ASSERT_TRUE(health.ok()) << health.status().message();
  EXPECT_EQ((*health)["status"], "ok");
  auto page = client->Get("/");
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<title>diskpulse</title>"), std::string::npos);
}

TEST_F(DaemonTlsTest, UntrustedCertificateIsRefusedByTheClient) {
  cli::DaemonClientOptions o;
  o.url = daemon_->url();  // system CAs only: the self-signed one is unknown
  auto r = cli::DaemonClient::Create(o)->GetJson("/api/v1/health");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cannot reach diskpulsed"), std::string::npos);
  o.insecure = true;
  EXPECT_TRUE(cli::DaemonClient::Create(o)->GetJson("/api/v1/health").ok());
}

TEST_F(DaemonTlsTest, PlainHttpGetsNoPage) {
  auto r = HttpGet(daemon_->port(), "/", {});
  EXPECT_NE(r.status, 200);
  EXPECT_EQ(r.body.find("<title>diskpulse</title>"), std::string::npos);
}

TEST_F(DaemonTlsTest, StatusCommandOverHttps) {
  auto r = RunProgram({DP_CLI_BIN, "status", "--url", daemon_->url(), "--ca-file",
                       tmp_.Path("cert.pem")});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(": ok (database ok"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace dp
