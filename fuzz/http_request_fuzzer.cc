// Bytes a client sends, read as the server reads them — Beast's parser with
// the server's default limits, fed in pieces the way a socket delivers them,
// several pipelined requests in a row — and each request read whole routed
// through the daemon's full API router (every resource, over a real SQLite
// store in a temporary folder, the web page from the source tree) and its
// answer written out as the server would. The first byte sets the piece size.
// Properties: every answer has a status between 200 and 599 and no handler
// fails with 500 on client input alone.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>

#include "base/fake_clock.h"
#include "fuzz/fuzz_input.h"
#include "http/api.h"
#include "http/beast_request.h"
#include "store/store.h"

namespace {

struct World {
  std::string dir;
  std::unique_ptr<dp::Store> store;
  dp::FakeClock clock;
  std::shared_ptr<const dp::http::Router> router;
  dp::http::HttpLimits limits;

  World() {
    char tmpl[] = "/tmp/dp-fuzz-http.XXXXXX";
    if (!mkdtemp(tmpl)) std::abort();
    dir = tmpl;
    auto s = dp::Store::Open(dir + "/fuzz.db");
    if (!s.ok()) std::abort();
    store = std::move(s).value();
    dp::http::ApiContext c;
    c.store = store.get();
    c.clock = &clock;
    c.started_at = clock.Now();
    c.webui_root = std::string(DP_SOURCE_DIR) + "/webui";
    c.api_token = "fuzz-token";
    router = dp::http::BuildApiRouter(c);
  }
  ~World() {
    store.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

World& TheWorld() {
  static World w;
  return w;
}

void Answer(dp::http::Response r, bool head, bool close) {
  DP_FUZZ_CHECK(r.status >= 200 && r.status <= 599);
  auto res = dp::http::ToBeastResponse(std::move(r), head, close);
  std::ostringstream wire;
  wire << res;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  World& w = TheWorld();
  auto text = dp::fuzz::AsText(data, size);
  std::size_t piece = 1;
  if (!text.empty()) {
    piece = 1 + static_cast<unsigned char>(text[0]) % 64 * 16;
    text.remove_prefix(1);
  }
  std::string pending;
  for (int requests = 0; requests < 8; ++requests) {
    dp::http::BeastRequestParser parser;
    dp::http::ApplyLimits(parser, w.limits);
    parser.eager(true);
    boost::system::error_code ec;
    for (;;) {
      if (pending.empty() || ec == boost::beast::http::error::need_more) {
        if (text.empty()) break;
        std::size_t n = std::min(piece, text.size());
        pending.append(text.substr(0, n));
        text.remove_prefix(n);
      }
      ec = {};
      std::size_t used = parser.put(boost::asio::buffer(pending), ec);
      pending.erase(0, used);
      if (ec == boost::beast::http::error::need_more) continue;
      if (ec || parser.is_done()) break;
    }
    if (!parser.is_done() && (!ec || ec == boost::beast::http::error::need_more)) {
      // Closed before a byte of this request: Beast's read reports
      // end_of_stream and the server answers nothing (put_eof requires
      // got_some()).
      if (!parser.got_some()) return 0;
      ec = {};
      parser.put_eof(ec);  // the client closed here
      if (!ec && !parser.is_done()) return 0;
    }
    if (ec) {
      if (auto answer = dp::http::ReadErrorResponse(ec, w.limits))
        Answer(std::move(*answer), false, true);
      return 0;
    }
    const auto& message = parser.get();
    if (auto refused = dp::http::RefuseRequest(message)) {
      Answer(std::move(*refused), false, true);
      return 0;
    }
    dp::http::Request request = dp::http::ToRequest(message, "127.0.0.1:1");
    dp::http::Response response = w.router->Route(request);
    DP_FUZZ_CHECK(response.status != 500);
    bool close = !message.keep_alive();
    Answer(std::move(response), request.method == dp::http::Method::kHead, close);
    if (close) return 0;
  }
  return 0;
}
