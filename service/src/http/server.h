// Server: the HTTP(S) listener and its connections (Boost.Beast), on one
// network thread of its own. Each request is parsed under a deadline and
// size limits, turned into a plain Request, routed (router.h) and answered.
// Handlers run on a small pool of handler threads, never on the network
// thread (long work never runs there), so a slow handler delays
// only its own connection; handlers must be thread-safe (router.h). Beast
// stays inside server.cc.
//
// Owned by the Daemon. Bind() and Start()/Stop() are called from the owning
// thread; Reconfigure() may be called from any thread while running.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "base/heartbeat.h"
#include "base/result.h"
#include "config/config.h"
#include "http/http_limits.h"
#include "http/router.h"

namespace dp::http {

struct ServerOptions {
  std::string host = "127.0.0.1";  // an address or a name that resolves
  std::uint16_t port = 8470;       // 0: any free port (see Server::port())
  HttpLimits limits;
  std::string tls_cert_file;       // PEM chain; with tls_key_file: HTTPS only
  std::string tls_key_file;
};

// The parts of Config the server uses.
ServerOptions ServerOptionsFromConfig(const Config& config);
HttpLimits HttpLimitsFromConfig(const HttpConfig& http);

class Server {
 public:
  // Loads the TLS certificate (if any) and binds and listens, without serving
  // yet, so the daemon can bind a low port before dropping privileges.
  // Errors name the address: "127.0.0.1:8470: address already in use".
  static Result<std::unique_ptr<Server>> Bind(const ServerOptions& options,
                                              std::shared_ptr<const Router> router);
  ~Server();  // Stop()s
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Starts the network thread. With a heartbeat, the network thread posts a
  // beat to the handler threads every second: it beats only while the
  // network thread turns and a handler thread is free to run it.
  void Start(Heartbeat* heartbeat = nullptr);
  // Closes the listener and every connection and joins the thread. Requests
  // in flight are abandoned. Idempotent.
  void Stop();
  // Requests read after this call use the new router and limits.
  void Reconfigure(std::shared_ptr<const Router> router, const HttpLimits& limits);

  std::uint16_t port() const;  // the bound port (useful with port 0)
  std::string url() const;     // "http://127.0.0.1:8470/"
  int active_connections() const;

 private:
  struct Impl;
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace dp::http
