// Answers are gzipped for clients that say they take gzip, over a real
// loopback socket: the body inflates to exactly what the handler returned,
// a client that does not ask (or refuses with q=0) gets it as it is, small
// bodies and binary types go untouched, and Vary tells caches the encoding
// depends on the request.
#include "http/compression.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include "http/server.h"
#include "http/response.h"
#include "http/router.h"
#include "support/http_client.h"

namespace dp::http {
namespace {

using dp::testing::HttpGet;

// gunzip written here against zlib directly, so the test does not trust the
// code under test to read its own output.
std::string Gunzip(const std::string& gz) {
  z_stream zs{};
  EXPECT_EQ(inflateInit2(&zs, 15 + 16), Z_OK);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  zs.avail_in = static_cast<uInt>(gz.size());
  std::string out;
  char chunk[8192];
  int rc = Z_OK;
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(chunk);
    zs.avail_out = sizeof chunk;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(chunk, sizeof chunk - zs.avail_out);
  }
  inflateEnd(&zs);
  EXPECT_EQ(rc, Z_STREAM_END);
  return out;
}

TEST(Compression, AcceptEncodingIsReadAsRfc9110Says) {
  EXPECT_TRUE(AcceptsGzip("gzip"));
  EXPECT_TRUE(AcceptsGzip("gzip, deflate, br, zstd"));
  EXPECT_TRUE(AcceptsGzip("br;q=1.0, GZIP;q=0.5"));
  EXPECT_TRUE(AcceptsGzip("*"));
  EXPECT_FALSE(AcceptsGzip(""));
  EXPECT_FALSE(AcceptsGzip("identity"));
  EXPECT_FALSE(AcceptsGzip("br, deflate"));
  EXPECT_FALSE(AcceptsGzip("gzip;q=0"));
  EXPECT_FALSE(AcceptsGzip("*, gzip;q=0"));
  EXPECT_FALSE(AcceptsGzip("*;q=0"));
}

class CompressionServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto router = std::make_shared<Router>();
    for (int i = 0; i < 400; ++i)
      big_.push_back({{"at", 1764460800 + i * 604800}, {"value", 180.5 + (i % 7)}, {"run_id", i}});
    router->Get("/big", [this](const Request&, const PathParams&) { return JsonResponse(big_); });
    router->Get("/small", [](const Request&, const PathParams&) {
      return JsonResponse({{"ok", true}});
    });
    router->Get("/png", [](const Request&, const PathParams&) {
      Response r;
      r.content_type = "image/png";
      r.body.assign(4096, 'x');
      return r;
    });
    ServerOptions o;
    o.host = "127.0.0.1";
    o.port = 0;
    auto s = Server::Bind(o, router);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    server_ = std::move(s).value();
    server_->Start();
  }
  nlohmann::json big_ = nlohmann::json::array();
  std::unique_ptr<Server> server_;
};

TEST_F(CompressionServerTest, GzipOnlyForClientsThatAskForIt) {
  const int port = server_->port();
  auto gz = HttpGet(port, "/big", {{"Accept-Encoding", "gzip, deflate, br"}});
  ASSERT_EQ(gz.status, 200) << gz.raw;
  EXPECT_EQ(gz.Header("Content-Encoding"), "gzip");
  EXPECT_EQ(gz.Header("Vary"), "Accept-Encoding");
  EXPECT_EQ(gz.Header("Content-Type"), "application/json");
  const std::string sent = JsonResponse(big_).body;
  const std::string inflated = Gunzip(gz.body);
  EXPECT_TRUE(inflated == sent) << inflated.size() << " bytes inflated, " << sent.size() << " sent";
  EXPECT_LT(gz.body.size() * 4, sent.size()) << "gzip should shrink repetitive JSON 4x";

  auto plain = HttpGet(port, "/big");
  ASSERT_EQ(plain.status, 200);
  EXPECT_EQ(plain.Header("Content-Encoding"), "");
  EXPECT_EQ(plain.Header("Vary"), "Accept-Encoding");
  EXPECT_TRUE(plain.body == sent) << plain.body.size() << " vs " << sent.size();

  auto refused = HttpGet(port, "/big", {{"Accept-Encoding", "gzip;q=0, identity"}});
  EXPECT_EQ(refused.Header("Content-Encoding"), "");
  EXPECT_TRUE(refused.body == sent);

  // HEAD says the length GET would send, compressed.
  auto head = dp::testing::SendRaw(
      port, "HEAD /big HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(head.Header("Content-Encoding"), "gzip");
  EXPECT_EQ(head.Header("Content-Length"), std::to_string(gz.body.size()));
}

TEST_F(CompressionServerTest, SmallAndBinaryBodiesGoAsTheyAre) {
  const int port = server_->port();
  auto small = HttpGet(port, "/small", {{"Accept-Encoding", "gzip"}});
  EXPECT_EQ(small.Header("Content-Encoding"), "");
  EXPECT_EQ(small.Json()["ok"], true);
  auto png = HttpGet(port, "/png", {{"Accept-Encoding", "gzip"}});
  EXPECT_EQ(png.Header("Content-Encoding"), "");
  EXPECT_EQ(png.body.size(), 4096u);
  auto missing = HttpGet(port, "/nothing", {{"Accept-Encoding", "gzip"}});
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.Header("Content-Encoding"), "");
}

}  // namespace
}  // namespace dp::http
