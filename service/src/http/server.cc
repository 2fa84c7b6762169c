// The HTTP server: Beast and Asio, kept to this file and the request
// conversions of http/beast_request.h (compile time). Shape after Beast's advanced server example: an acceptor, one Session per
// connection, a deadline on every read and write, error_codes not exceptions.
#include "http/server.h"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "base/log.h"
#include "base/strings.h"
#include "base/thread_annotations.h"
#include "net/beast_names.h"
#include "http/compression.h"
#include "http/beast_request.h"
#include "http/connection_slots.h"

namespace dp::http {
namespace {

using namespace dp::net;

using PlainStream = beast::tcp_stream;

constexpr std::size_t kHandlerThreads = 4;
// Descriptors kept free for everything else (SQLite, tool pipes, devices,
// logs) when the connection cap is fitted to the process's descriptor limit.
constexpr rlim_t kReservedDescriptors = 128;
// Read-buffer room beyond http.max_header_bytes (bodies stream through it).
constexpr std::size_t kReadBufferSlack = 8 * 1024;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

std::string HostPort(const std::string& host, std::uint16_t port) {
  bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

// State shared by the server and its sessions; sessions keep it alive while
// the io_context destroys them.
struct Shared {
  mutable Mutex mu;
  std::shared_ptr<const Router> router GUARDED_BY(mu);
  HttpLimits limits GUARDED_BY(mu);
  ConnectionSlots slots;
  std::unique_ptr<ssl::context> tls;     // null: plain HTTP
  // Where handlers run (owned by Server::Impl; used only while it runs).
  asio::thread_pool* handlers = nullptr;

  std::pair<std::shared_ptr<const Router>, HttpLimits> Snapshot() const {
    MutexLock lock(mu);
    return {router, limits};
  }
};

// One connection: read a request, answer it, repeat while keep-alive. It
// holds one of the server's slots (ConnectionSlots) and tells it whether it
// waits on its client (evictable) or is busy with a request. Final: its
// shared_ptr destroys it as a Session, never through the Evictable base
// (whose destructor is not virtual; clang warns otherwise).
template <class Stream>
class Session final : public std::enable_shared_from_this<Session<Stream>>,
                public ConnectionSlots::Evictable {
 public:
  static constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

  Session(Stream stream, std::shared_ptr<Shared> shared, std::string remote,
          ConnectionSlots::Id slot)
      : stream_(std::move(stream)), shared_(std::move(shared)), remote_(std::move(remote)),
        slot_(slot) {}
  ~Session() { shared_->slots.Close(slot_); }

  // Network thread, from ConnectionSlots::Open(): the socket closes now, so its
  // descriptor is free at once; the pending operation then ends with an error.
  void Evict() override {
    evicted_ = true;
    LogDebug("http: " + remote_ + ": closed to make room (http.max_connections)");
    error_code ignored;
    beast::get_lowest_layer(stream_).socket().close(ignored);
  }

  void Run() {
    shared_->slots.Waiting(slot_, this);
    if constexpr (kTls) {
      beast::get_lowest_layer(stream_).expires_after(shared_->Snapshot().second.read_timeout);
      stream_.async_handshake(ssl::stream_base::server,
                              [self = this->shared_from_this()](error_code ec) {
                                if (self->evicted_) return;
                                if (ec) {
                                  LogDebug("http: TLS handshake with " + self->remote_ +
                                           " failed: " + ec.message());
                                  return;
                                }
                                self->Read();
                              });
    } else {
      Read();
    }
  }

 private:
  void Read() {
    auto [router, limits] = shared_->Snapshot();
    router_ = std::move(router);
    limits_ = limits;
    parser_.emplace();
    ApplyLimits(*parser_, limits_);
    // The read buffer holds a head and a little more, so a 100 KB request
    // line costs no more than the header limit; an idle keep-alive connection
    // gives back what it grew for an earlier request.
    if (buffer_.size() == 0) buffer_.shrink_to_fit();
    buffer_.max_size(std::max<std::size_t>(buffer_.size(),
                                           limits_.max_header_bytes + kReadBufferSlack));
    shared_->slots.Waiting(slot_, this);
    beast::get_lowest_layer(stream_).expires_after(limits_.read_timeout);
    bhttp::async_read(stream_, buffer_, *parser_,
                      [self = this->shared_from_this()](error_code ec, std::size_t) {
                        self->OnRead(ec);
                      });
  }

  void OnRead(error_code ec) {
    if (evicted_) return;
    shared_->slots.Busy(slot_);
    if (ec == bhttp::error::end_of_stream || ec == asio::error::eof) return Close();
    if (ec == beast::error::timeout) {
      LogDebug("http: " + remote_ + ": request not complete in time; closing");
      return Close();
    }
    if (ec) {
      if (auto answer = ReadErrorResponse(ec, limits_)) return SendError(std::move(*answer));
      LogDebug("http: " + remote_ + ": read failed: " + ec.message());
      return Close();
    }
    const auto& message = parser_->get();
    if (auto refused = RefuseRequest(message)) return SendError(std::move(*refused));
    Request request = ToRequest(message, remote_);
    const bool head = request.method == Method::kHead;
    const bool close = !message.keep_alive();
    std::string line = std::string(MethodName(request.method)) + " " + request.target;
    // The handler runs on a handler thread, never on this network thread, so a
    // slow one (a test notification waiting on its sinks, SQLite waiting on a
    // writer) holds up only its own connection; the answer is written from
    // the network thread again.
    asio::post(*shared_->handlers, [self = this->shared_from_this(), router = router_,
                                    request = std::move(request), head, close,
                                    line = std::move(line)]() mutable {
      Response response = router->Route(request);
      CompressForClient(request, response);
      LogDebug("http: " + self->remote_ + " " + line + " -> " + std::to_string(response.status));
      // The last reference moves to the network thread, so the session is
      // destroyed there, not here.
      auto executor = self->stream_.get_executor();
      asio::post(executor,
                 [self = std::move(self), response = std::move(response), head, close]() mutable {
                   self->Send(std::move(response), head, close);
                 });
    });
  }

  void SendError(Response answer) {
    LogDebug("http: " + remote_ + ": " + std::to_string(answer.status) + " " + answer.body);
    Send(std::move(answer), false, true);
  }

  void Send(Response r, bool head, bool close) {
    auto& res = response_.emplace(ToBeastResponse(std::move(r), head, close));
    beast::get_lowest_layer(stream_).expires_after(limits_.read_timeout);
    bhttp::async_write(stream_, res,
                       [self = this->shared_from_this(), close](error_code ec, std::size_t) {
                         if (ec || close) return self->Close();
                         self->Read();
                       });
  }

  void Close() {
    // Nothing more to answer: the place may go to a new connection.
    shared_->slots.Waiting(slot_, this);
    if constexpr (kTls) {
      beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(5));
      stream_.async_shutdown([self = this->shared_from_this()](error_code) {});
    } else {
      // Lingering close: stop sending, then read and drop what the client
      // still sends (e.g. the rest of a refused body) for a short while, so
      // closing with unread data does not reset the connection and destroy
      // the answer before the client has read it.
      error_code ignored;
      stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
      beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(2));
      Drain();
    }
  }

  void Drain() {
    stream_.async_read_some(asio::buffer(drain_),
                            [self = this->shared_from_this()](error_code ec, std::size_t) {
                              if (!ec) self->Drain();
                            });
  }

  Stream stream_;
  std::shared_ptr<Shared> shared_;
  std::string remote_;
  const ConnectionSlots::Id slot_;
  bool evicted_ = false;  // network thread only
  beast::flat_buffer buffer_;
  std::optional<BeastRequestParser> parser_;
  std::optional<BeastResponse> response_;
  std::shared_ptr<const Router> router_;
  HttpLimits limits_;
  std::array<char, 4096> drain_{};
};

}  // namespace

ServerOptions ServerOptionsFromConfig(const Config& config) {
  ServerOptions o;
  o.host = config.listen_host;
  o.port = config.listen_port;
  o.limits = HttpLimitsFromConfig(config.http);
  o.tls_cert_file = config.tls.cert_file;
  o.tls_key_file = config.tls.key_file;
  return o;
}

HttpLimits HttpLimitsFromConfig(const HttpConfig& http) {
  HttpLimits l;
  l.max_connections = http.max_connections;
  l.read_timeout = std::chrono::seconds(http.read_timeout_seconds);
  l.max_body_bytes = http.max_body_bytes;
  l.max_header_bytes = http.max_header_bytes;
  return l;
}

struct Server::Impl {
  asio::io_context ioc{1};  // first: destroyed last, after everything using it
  // Handler threads: enough that a few slow requests leave the rest served.
  // Made by Start(), not Bind(): the daemon binds, then may fork (detach, the
  // privileged helper), and threads do not survive a fork.
  std::optional<asio::thread_pool> handlers;
  tcp::acceptor acceptor{ioc};
  asio::steady_timer retry_timer{ioc};
  asio::steady_timer beat_timer{ioc};
  Heartbeat* heartbeat = nullptr;
  std::shared_ptr<Shared> shared = std::make_shared<Shared>();
  std::thread thread;
  std::string host;
  std::uint16_t port = 0;

  void Accept() {
    acceptor.async_accept(ioc, [this](error_code ec, tcp::socket socket) {
      OnAccept(ec, std::move(socket));
    });
  }

  void OnAccept(error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
    if (ec) {
      // Out of file descriptors and the like: wait a little rather than spin.
      LogWarning("http: accept failed: " + ec.message());
      retry_timer.expires_after(std::chrono::milliseconds(200));
      retry_timer.async_wait([this](error_code e) {
        if (!e) Accept();
      });
      return;
    }
    const int cap = shared->Snapshot().second.max_connections;
    const long evicted_before = shared->slots.evicted();
    ConnectionSlots::Id slot = shared->slots.Open(cap);
    if (slot == 0) {
      ++refused;
      error_code ignored;
      socket.close(ignored);
    }
    ReportPressure(cap, shared->slots.evicted() - evicted_before);
    if (slot == 0) return Accept();
    error_code rec;
    auto endpoint = socket.remote_endpoint(rec);
    std::string remote =
        rec ? std::string("?") : HostPort(endpoint.address().to_string(), endpoint.port());
    if (shared->tls) {
      std::make_shared<Session<TlsStream>>(TlsStream(std::move(socket), *shared->tls), shared,
                                           remote, slot)
          ->Run();
    } else {
      std::make_shared<Session<PlainStream>>(PlainStream(std::move(socket)), shared, remote,
                                             slot)
          ->Run();
    }
    Accept();
  }

  void Beat() {
    beat_timer.expires_after(std::chrono::seconds(1));
    beat_timer.async_wait([this](error_code e) {
      if (e) return;
      asio::post(*handlers, [h = heartbeat] { h->Beat(); });
      Beat();
    });
  }

  // A full server is worth a warning, but a flood of clients must not flood
  // the log: at most one line a minute, with the counts since the last.
  void ReportPressure(int cap, long evicted_now) {
    evicted += evicted_now;
    if (evicted == 0 && refused == 0) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last_report < std::chrono::minutes(1)) return;
    last_report = now;
    LogWarning("http: all " + std::to_string(cap) + " connections in use (http.max_connections): " +
               std::to_string(evicted) + " waiting connections closed to make room, " +
               std::to_string(refused) + " new ones refused (all busy) since the last report");
    evicted = refused = 0;
  }
  // Network thread only.
  long evicted = 0;
  long refused = 0;
  std::chrono::steady_clock::time_point last_report{};
};

namespace {

// Every connection is a descriptor: a cap above the process's descriptor
// limit would turn a full server into failing accepts (and failing SQLite and
// tool runs) instead of evictions. The soft limit is raised towards the hard
// one when the cap needs it; a cap that still does not fit is lowered.
HttpLimits FitToDescriptorLimit(HttpLimits limits) {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return limits;
  const rlim_t want = static_cast<rlim_t>(limits.max_connections) + kReservedDescriptors;
  if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
    rlimit raised = rl;
    raised.rlim_cur = rl.rlim_max == RLIM_INFINITY ? want : std::min(want, rl.rlim_max);
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) rl = raised;
  }
  if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
    int fits = rl.rlim_cur > kReservedDescriptors * 2
                   ? static_cast<int>(rl.rlim_cur - kReservedDescriptors)
                   : static_cast<int>(rl.rlim_cur / 2);
    LogWarning("http: http.max_connections " + std::to_string(limits.max_connections) +
               " does not fit the descriptor limit (" + std::to_string(rl.rlim_cur) +
               "); using " + std::to_string(fits));
    limits.max_connections = std::max(1, fits);
  }
  return limits;
}

}  // namespace

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Server::~Server() { Stop(); }

Result<std::unique_ptr<Server>> Server::Bind(const ServerOptions& options,
                                             std::shared_ptr<const Router> router) {
  auto impl = std::make_unique<Impl>();
  {
    MutexLock lock(impl->shared->mu);
    impl->shared->router = std::move(router);
    impl->shared->limits = FitToDescriptorLimit(options.limits);
  }
  impl->host = options.host;
  std::string where = HostPort(options.host, options.port);

  if (!options.tls_cert_file.empty() || !options.tls_key_file.empty()) {
    auto ctx = std::make_unique<ssl::context>(ssl::context::tls_server);
    ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                     ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                     ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
    error_code ec;
    ctx->use_certificate_chain_file(options.tls_cert_file, ec);
    if (ec)
      return InvalidArgument("tls.cert_file: " + options.tls_cert_file +
                             ": cannot load the certificate: " + ec.message());
    ctx->use_private_key_file(options.tls_key_file, ssl::context::pem, ec);
    if (ec)
      return InvalidArgument("tls.key_file: " + options.tls_key_file +
                             ": cannot load the private key: " + ec.message());
    impl->shared->tls = std::move(ctx);
  }

  error_code ec;
  tcp::endpoint endpoint;
  auto address = asio::ip::make_address(options.host, ec);
  if (!ec) {
    endpoint = tcp::endpoint(address, options.port);
  } else {
    tcp::resolver resolver(impl->ioc);
    auto results = resolver.resolve(options.host, std::to_string(options.port),
                                    tcp::resolver::numeric_service, ec);
    if (ec || results.empty())
      return InvalidArgument(where + ": cannot resolve host: " +
                             LowerFirst(ec ? ec.message() : "no address"));
    endpoint = *results.begin();
  }
  auto& acceptor = impl->acceptor;
  if (acceptor.open(endpoint.protocol(), ec); ec)
    return Unavailable(where + ": cannot open a socket: " + LowerFirst(ec.message()));
  if (acceptor.set_option(asio::socket_base::reuse_address(true), ec); ec)
    return Unavailable(where + ": " + LowerFirst(ec.message()));
  if (acceptor.bind(endpoint, ec); ec) return Unavailable(where + ": " + LowerFirst(ec.message()));
  if (acceptor.listen(asio::socket_base::max_listen_connections, ec); ec)
    return Unavailable(where + ": " + LowerFirst(ec.message()));
  impl->port = acceptor.local_endpoint().port();
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

void Server::Start(Heartbeat* heartbeat) {
  if (impl_->thread.joinable()) return;
  impl_->handlers.emplace(kHandlerThreads);
  impl_->shared->handlers = &*impl_->handlers;
  impl_->Accept();
  if (heartbeat) {
    heartbeat->Beat();
    impl_->heartbeat = heartbeat;
    impl_->Beat();
  }
  impl_->thread = std::thread([impl = impl_.get()] {
    // Handlers never throw (Router catches); anything else here is a bug
    // worth dying loudly for, so no catch.
    impl->ioc.run();
  });
}

void Server::Stop() {
  if (!impl_) return;
  if (impl_->thread.joinable()) {
    impl_->ioc.stop();
    impl_->thread.join();
    // Handlers not started are dropped; one still running finishes, and its
    // answer, posted to the stopped io_context, goes with its connection.
    impl_->handlers->stop();
    impl_->handlers->join();
  }
  error_code ignored;
  impl_->acceptor.close(ignored);
}

void Server::Reconfigure(std::shared_ptr<const Router> router, const HttpLimits& limits) {
  HttpLimits fitted = FitToDescriptorLimit(limits);
  MutexLock lock(impl_->shared->mu);
  impl_->shared->router = std::move(router);
  impl_->shared->limits = fitted;
}

std::uint16_t Server::port() const { return impl_->port; }

std::string Server::url() const {
  return std::string(impl_->shared->tls ? "https" : "http") + "://" +
         HostPort(impl_->host, impl_->port) + "/";
}

int Server::active_connections() const { return impl_->shared->slots.open(); }

}  // namespace dp::http
