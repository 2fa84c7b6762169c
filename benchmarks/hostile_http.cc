// hostile_http: how a real diskpulsed serves a well-behaved client while
// slowloris clients and a stream of malformed requests hit the same port.
//
// It starts the daemon (a temp dir, listen 127.0.0.1:0, a regular-file target
// benchmarked by a schedule every 10 s), measures the well-behaved client and
// the daemon's peak RSS over 12 s idle (a scheduled run included), then for
// --seconds runs, all at once:
//   - --slowloris clients, each opening a connection, sending a partial
//     request and one more header line every 2 s, reconnecting when dropped;
//   - --malformed requests spread evenly over the time (random bytes, TLS
//     hellos, bad methods and versions, negative and huge Content-Length,
//     chunked garbage, 100 KB request lines, 5,000 headers, NUL bytes,
//     truncated JSON bodies), up to 64 in flight;
//   - one well-behaved client: GET /api/v1/health on a new connection, one
//     after another, each allowed 2 s.
// Then prints the success rate and latency percentiles (nearest-rank) of the
// well-behaved client idle and under attack, peak RSS against idle RSS, how
// the malformed requests were answered, the scheduled runs that finished
// during the attack, and whether the daemon is still up and stops cleanly.
// Loopback only. Plain POSIX sockets and epoll, independent of Beast.
//
//   hostile_http [--daemon PATH] [--seconds 30] [--slowloris 200]
//                [--malformed 10000] [--set http.KEY=N ...] [--keep]
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

int ConnectNonBlocking(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) < 0 && errno != EINPROGRESS) {
    close(fd);
    return -1;
  }
  return fd;
}

// Waits for fd to become ready for `events` until `deadline`; false on timeout.
bool WaitFd(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, events, 0};
    int n = poll(&p, 1, static_cast<int>(left.count()));
    if (n > 0) return true;
    if (n < 0 && errno != EINTR) return false;
  }
}

// One well-behaved request: new connection, GET, read the whole answer.
// Returns the HTTP status (0 when none arrived in time).
int GoodRequest(int port, const std::string& target, std::chrono::milliseconds timeout,
                std::string* body = nullptr) {
  auto deadline = Clock::now() + timeout;
  int fd = ConnectNonBlocking(port);
  if (fd < 0) return 0;
  std::string req = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  int status = 0;
  std::string got;
  std::size_t sent = 0;
  while (sent < req.size()) {
    if (!WaitFd(fd, POLLOUT, deadline)) goto done;
    ssize_t n = send(fd, req.data() + sent, req.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno != EAGAIN && errno != EINPROGRESS) goto done;
    if (n > 0) sent += static_cast<std::size_t>(n);
  }
  for (;;) {
    if (!WaitFd(fd, POLLIN, deadline)) goto done;
    char buf[8192];
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n < 0 && errno == EAGAIN) continue;
    if (n <= 0) break;
    got.append(buf, static_cast<std::size_t>(n));
  }
  if (got.rfind("HTTP/1.1 ", 0) == 0 && got.size() > 12) {
    auto head_end = got.find("\r\n\r\n");
    if (head_end != std::string::npos) {
      status = std::atoi(got.c_str() + 9);
      if (body) *body = got.substr(head_end + 4);
    }
  }
done:
  close(fd);
  return status;
}

struct Latencies {
  std::vector<double> ms;
  int attempts = 0;
  int ok = 0;
  // Nearest-rank percentile over every attempt, a failure counting as
  // slower than any success (infinity).
  double Percentile(double p) const {
    if (ms.empty()) return 0;
    auto v = ms;
    std::sort(v.begin(), v.end());
    std::size_t rank = static_cast<std::size_t>(std::ceil(p / 100.0 * v.size()));
    return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
  }
  std::string Summary() const {
    char b[256];
    std::snprintf(b, sizeof b, "%d/%d ok (%.2f%%), p50 %.2f ms, p99 %.2f ms, max %.2f ms", ok,
                  attempts, attempts ? 100.0 * ok / attempts : 0.0, Percentile(50),
                  Percentile(99), Percentile(100));
    return b;
  }
};

// Requests one after another until `until` (or `count` requests).
Latencies RunGoodClient(int port, Clock::time_point until, int count) {
  Latencies l;
  while (Clock::now() < until && (count <= 0 || l.attempts < count)) {
    auto t0 = Clock::now();
    int status = GoodRequest(port, "/api/v1/health", 2000ms);
    auto took = Clock::now() - t0;
    ++l.attempts;
    if (status == 200) {
      ++l.ok;
      l.ms.push_back(Ms(took));
    } else {
      l.ms.push_back(std::numeric_limits<double>::infinity());
    }
    std::this_thread::sleep_for(5ms);
  }
  return l;
}

long RssKiB(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

int OpenFds(pid_t pid) {
  int n = 0;
  std::error_code ec;
  for (auto it = fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec))
    ++n;
  return n;
}

// --- the malformed requests -----------------------------------------------

const char* const kKinds[] = {"random bytes",      "TLS hello",         "bad method",
                              "bad version",       "negative length",   "huge length",
                              "chunked garbage",   "100 KB line",       "5000 headers",
                              "NUL bytes",         "truncated JSON"};
constexpr int kKindCount = sizeof kKinds / sizeof kKinds[0];

std::string Malformed(int kind, std::mt19937_64& rng) {
  auto random_bytes = [&](std::size_t n) {
    std::string s(n, '\0');
    for (auto& c : s) c = static_cast<char>(rng());
    return s;
  };
  switch (kind) {
    case 0:
      return random_bytes(1 + rng() % 4096);
    case 1: {  // a TLS 1.2 ClientHello record header, then random handshake bytes
      std::string body = random_bytes(200 + rng() % 300);
      std::string s = {'\x16', '\x03', '\x01', static_cast<char>(body.size() >> 8),
                       static_cast<char>(body.size() & 0xff), '\x01'};
      return s + body;
    }
    case 2: {
      const char* m[] = {"GETT", "G\x01T", "", "get", "BREW", "PRI * HTTP/2.0\r\n\r\nSM\r\n"};
      return std::string(m[rng() % 6]) + " /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n";
    }
    case 3: {
      const char* v[] = {"HTTP/9.9", "HTTP/1.1x", "HTTP/", "http/1.1", "HTTP/1.", "FTP/1.0", ""};
      return std::string("GET /api/v1/health ") + v[rng() % 7] + "\r\nHost: x\r\n\r\n";
    }
    case 4:
      return "POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nContent-Length: -" +
             std::to_string(rng() % 100000) + "\r\n\r\n{}";
    case 5: {
      const char* n[] = {"99999999999999999999999", "18446744073709551615", "1099511627776",
                         "1e9", "0x10"};
      return std::string("POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nContent-Length: ") +
             n[rng() % 5] + "\r\n\r\n{\"drive\":";
    }
    case 6:
      return "POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
             std::string(rng() % 2 ? "zz\r\n" : "ffffffffffffffffffff\r\n") + random_bytes(64) +
             "\r\n0\r\n\r\n";
    case 7:
      return "GET /" + std::string(100 * 1024, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n";
    case 8: {
      std::string s = "GET /api/v1/health HTTP/1.1\r\nHost: x\r\n";
      for (int i = 0; i < 5000; ++i) s += "X-H" + std::to_string(i) + ": v\r\n";
      return s + "\r\n";
    }
    case 9: {
      static const char kNul[] = "GET /api/v1/he\0alth HTTP/1.1\r\nHost: x\0y\r\nX-N: \0\0\r\n\r\n";
      return std::string(kNul, sizeof kNul - 1);
    }
    default: {  // a body that stops short of its Content-Length, then the client goes
      std::string body = R"({"drive":"sda","tests":["seq"],"reason":"x"})";
      return "POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             "Authorization: Bearer nope\r\nContent-Length: " +
             std::to_string(body.size()) + "\r\n\r\n" + body.substr(0, rng() % body.size());
    }
  }
}

// --- the attack: slowloris and malformed clients on one epoll thread -------

struct Conn {
  enum Kind { kSlow, kBad } kind = kSlow;
  int bad_kind = 0;
  std::string out;
  std::size_t sent = 0;
  std::string in;
  Clock::time_point next_line{};  // slowloris: when to send the next header line
  Clock::time_point deadline{};   // malformed: give up waiting for an answer
  int lines = 0;
};

struct AttackFigures {
  long slow_connects = 0;
  long slow_dropped = 0;
  long slow_connect_failures = 0;
  int malformed_sent = 0;
  std::map<std::string, std::map<std::string, int>> answers;  // kind -> "400"/"closed"/...
};

class Attack {
 public:
  Attack(int port, int slowloris, int malformed, Clock::duration length)
      : port_(port), slowloris_(slowloris), malformed_(malformed), length_(length) {}

  AttackFigures Run(const std::atomic<bool>& stop) {
    ep_ = epoll_create1(EPOLL_CLOEXEC);
    start_ = Clock::now();
    for (int i = 0; i < slowloris_; ++i) OpenSlow();
    while (!stop.load()) {
      auto now = Clock::now();
      // Malformed requests are due evenly over the attack.
      double elapsed = std::chrono::duration<double>(now - start_).count();
      double total = std::chrono::duration<double>(length_).count();
      int due = std::min<int>(malformed_, static_cast<int>(malformed_ * elapsed / (0.9 * total)) + 1);
      while (figures_.malformed_sent < due && bad_in_flight_ < 64) OpenBad();
      epoll_event ev[256];
      int n = epoll_wait(ep_, ev, 256, 20);
      for (int i = 0; i < n; ++i) Handle(ev[i].data.fd, ev[i].events);
      Tick(Clock::now());
    }
    for (auto& [fd, c] : conns_) close(fd);
    conns_.clear();
    close(ep_);
    return figures_;
  }

 private:
  void Add(int fd, Conn c) {
    epoll_event e{};
    e.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP;
    e.data.fd = fd;
    epoll_ctl(ep_, EPOLL_CTL_ADD, fd, &e);
    conns_[fd] = std::move(c);
  }

  void OpenSlow() {
    int fd = ConnectNonBlocking(port_);
    if (fd < 0) {
      ++figures_.slow_connect_failures;
      return;
    }
    ++figures_.slow_connects;
    Conn c;
    c.kind = Conn::kSlow;
    c.out = "GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n";
    c.next_line = Clock::now() + 2s;
    Add(fd, std::move(c));
  }

  void OpenBad() {
    int kind = figures_.malformed_sent % kKindCount;
    ++figures_.malformed_sent;
    int fd = ConnectNonBlocking(port_);
    if (fd < 0) {
      ++figures_.answers[kKinds[kind]]["connect failed"];
      return;
    }
    Conn c;
    c.kind = Conn::kBad;
    c.bad_kind = kind;
    c.out = Malformed(kind, rng_);
    c.deadline = Clock::now() + 3s;
    ++bad_in_flight_;
    Add(fd, std::move(c));
  }

  void Finish(int fd, const std::string& outcome) {
    auto it = conns_.find(fd);
    if (it == conns_.end()) return;
    Conn c = std::move(it->second);
    conns_.erase(it);
    epoll_ctl(ep_, EPOLL_CTL_DEL, fd, nullptr);
    close(fd);
    if (c.kind == Conn::kSlow) {
      ++figures_.slow_dropped;
      OpenSlow();  // reconnect at once
    } else {
      --bad_in_flight_;
      std::string o = outcome;
      if (c.in.rfind("HTTP/1.1 ", 0) == 0 && c.in.size() >= 12) o = c.in.substr(9, 3);
      ++figures_.answers[kKinds[c.bad_kind]][o];
    }
  }

  void Flush(int fd, Conn& c) {
    while (c.sent < c.out.size()) {
      ssize_t n = send(fd, c.out.data() + c.sent, c.out.size() - c.sent, MSG_NOSIGNAL);
      if (n < 0) {
        if (errno == EAGAIN || errno == EINPROGRESS) return;
        return Finish(fd, "reset");
      }
      c.sent += static_cast<std::size_t>(n);
    }
    if (c.kind == Conn::kBad && c.bad_kind == kKindCount - 1) shutdown(fd, SHUT_WR);
  }

  void Handle(int fd, uint32_t events) {
    auto it = conns_.find(fd);
    if (it == conns_.end()) return;
    Conn& c = it->second;
    if (events & EPOLLIN) {
      char buf[16384];
      for (;;) {
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n > 0) {
          if (c.in.size() < 64) c.in.append(buf, static_cast<std::size_t>(n));
          continue;
        }
        if (n == 0) return Finish(fd, "closed");
        if (errno == EAGAIN) break;
        return Finish(fd, "reset");
      }
    }
    if (events & (EPOLLHUP | EPOLLERR | EPOLLRDHUP)) return Finish(fd, "closed");
    if (events & EPOLLOUT) Flush(fd, c);
  }

  void Tick(Clock::time_point now) {
    // Collected first: sending or finishing changes conns_.
    std::vector<int> due, expired;
    for (auto& [fd, c] : conns_) {
      if (c.kind == Conn::kSlow && now >= c.next_line) due.push_back(fd);
      if (c.kind == Conn::kBad && now >= c.deadline) expired.push_back(fd);
    }
    for (int fd : due) {
      auto it = conns_.find(fd);
      if (it == conns_.end()) continue;
      it->second.out += "X-Slow-" + std::to_string(++it->second.lines) + ": still here\r\n";
      it->second.next_line = now + 2s;
      Flush(fd, it->second);
    }
    for (int fd : expired) Finish(fd, "no answer in 3 s");
  }

  int port_, slowloris_, malformed_;
  Clock::duration length_;
  int ep_ = -1;
  Clock::time_point start_;
  std::unordered_map<int, Conn> conns_;
  int bad_in_flight_ = 0;
  std::mt19937_64 rng_{20261201};
  AttackFigures figures_;
};

// --- the daemon ---------------------------------------------------------

struct Daemon {
  pid_t pid = -1;
  int port = 0;
  std::string log;
};

bool StartDaemon(const std::string& bin, const fs::path& dir, const nlohmann::json& config,
                 Daemon* d) {
  std::ofstream(dir / "diskpulse.json") << config.dump(2);
  d->log = (dir / "diskpulsed.log").string();
  d->pid = fork();
  if (d->pid == 0) {
    int fd = open(d->log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    execl(bin.c_str(), bin.c_str(), "-c", (dir / "diskpulse.json").c_str(), "--foreground",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  std::regex listening(R"(listening on http://127\.0\.0\.1:(\d+)/)");
  for (auto until = Clock::now() + 30s; Clock::now() < until;) {
    std::ifstream in(d->log);
    std::stringstream ss;
    ss << in.rdbuf();
    std::smatch m;
    std::string text = ss.str();
    if (std::regex_search(text, m, listening)) {
      d->port = std::stoi(m[1].str());
      return true;
    }
    if (waitpid(d->pid, nullptr, WNOHANG) == d->pid) break;
    std::this_thread::sleep_for(20ms);
  }
  std::fprintf(stderr, "hostile_http: the daemon did not come up; its log is %s\n",
               d->log.c_str());
  return false;
}

int CountRuns(int port) {
  std::string body;
  if (GoodRequest(port, "/api/v1/runs?limit=1000", 5000ms, &body) != 200) return -1;
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_object() && j.contains("runs")) j = j["runs"];
  return j.is_array() ? static_cast<int>(j.size()) : -1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string daemon_bin = DP_DAEMON_BIN;
  int seconds = 30, slowloris = 200, malformed = 10000;
  bool keep = false;
  nlohmann::json http = nlohmann::json::object();
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "hostile_http: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--daemon") daemon_bin = next();
    else if (a == "--seconds") seconds = std::stoi(next());
    else if (a == "--slowloris") slowloris = std::stoi(next());
    else if (a == "--malformed") malformed = std::stoi(next());
    else if (a == "--keep") keep = true;
    else if (a == "--set") {
      std::string kv = next();  // http.KEY=N
      auto eq = kv.find('=');
      if (kv.rfind("http.", 0) != 0 || eq == std::string::npos) {
        std::fprintf(stderr, "hostile_http: --set http.KEY=N\n");
        return 2;
      }
      http[kv.substr(5, eq - 5)] = std::stoll(kv.substr(eq + 1));
    } else {
      std::fprintf(stderr,
                   "usage: hostile_http [--daemon PATH] [--seconds N] [--slowloris N] "
                   "[--malformed N] [--set http.KEY=N] [--keep]\n");
      return 2;
    }
  }
  signal(SIGPIPE, SIG_IGN);

  char tmpl[] = "/tmp/hostile_http.XXXXXX";
  if (!mkdtemp(tmpl)) return 1;
  fs::path dir = tmpl;
  for (const char* sub : {"host/sys/block", "host/dev", "host/udev", "host/proc", "var"})
    fs::create_directories(dir / sub);
  {  // a 32 MiB regular file the schedule benchmarks (page cache: quick)
    std::ofstream f(dir / "target.img", std::ios::binary);
    std::string mib(1 << 20, '\x5a');
    for (int i = 0; i < 32; ++i) f << mib;
  }
  std::string no_tool = (dir / "host/no-such-tool").string();
  nlohmann::json config = {
      {"listen", "127.0.0.1:0"},
      {"database", (dir / "var/diskpulse.db").string()},
      {"webui_root", std::string(DP_SOURCE_DIR) + "/webui"},
      {"log_level", "info"},
      {"inventory",
       {{"sysfs_root", (dir / "host/sys").string()},
        {"dev_root", (dir / "host/dev").string()},
        {"udev_data_dir", (dir / "host/udev").string()},
        {"proc_root", (dir / "host/proc").string()}}},
      {"tools",
       {{"smartctl", no_tool}, {"zpool", no_tool}, {"geom", no_tool}, {"diskinfo", no_tool},
        {"camcontrol", no_tool}}},
      {"bench", {{"max_seconds", 2}, {"max_bytes", 16 << 20}}},
      {"targets", {{{"path", (dir / "target.img").string()}, {"name", "file"}}}},
      {"schedules", {{{"name", "often"}, {"tests", {"seq"}}, {"when", "@every 10s"}}}},
  };
  if (!http.empty()) config["http"] = http;

  Daemon d;
  if (!StartDaemon(daemon_bin, dir, config, &d)) return 1;
  std::printf("daemon %s pid %d port %d; http %s\n", daemon_bin.c_str(), d.pid, d.port,
              http.dump().c_str());

  // Peak RSS and descriptors, sampled every 50 ms while a phase runs. The
  // idle phase covers a scheduled run too (its I/O buffers count), so idle
  // and attack peaks compare like with like.
  struct Peak {
    long rss = 0;
    int fds = 0;
  };
  auto sample_while = [&](std::atomic<bool>& running, Peak& peak) {
    return std::thread([&, pid = d.pid] {
      while (running) {
        peak.rss = std::max(peak.rss, RssKiB(pid));
        peak.fds = std::max(peak.fds, OpenFds(pid));
        std::this_thread::sleep_for(50ms);
      }
    });
  };
  std::this_thread::sleep_for(2s);
  Peak idle_peak;
  std::atomic<bool> idle_running{true};
  std::thread idle_sampler = sample_while(idle_running, idle_peak);
  auto idle_end = Clock::now() + 12s;
  Latencies idle = RunGoodClient(d.port, idle_end, 300);
  std::this_thread::sleep_until(idle_end);
  idle_running = false;
  idle_sampler.join();
  const long idle_rss = idle_peak.rss;
  const int idle_fds = idle_peak.fds;
  int runs_before = CountRuns(d.port);
  std::printf("idle (12 s, a scheduled run included): %s; peak RSS %ld KiB, %d fds\n",
              idle.Summary().c_str(), idle_rss, idle_fds);

  std::atomic<bool> stop{false};
  AttackFigures figures;
  auto length = std::chrono::seconds(seconds);
  Attack attack(d.port, slowloris, malformed, length);
  std::thread attacker([&] { figures = attack.Run(stop); });
  Peak attack_peak;
  std::atomic<bool> sampling{true};
  std::thread sampler = sample_while(sampling, attack_peak);
  std::this_thread::sleep_for(3s);  // let the slowloris clients fill their places
  Latencies loaded = RunGoodClient(d.port, Clock::now() + length - 3s, 0);
  stop = true;
  attacker.join();
  sampling = false;
  sampler.join();
  const long peak_rss = attack_peak.rss;
  const int peak_fds = attack_peak.fds;

  bool alive = waitpid(d.pid, nullptr, WNOHANG) == 0;
  int runs_after = alive ? CountRuns(d.port) : -1;
  std::printf("under attack (%d slowloris, %d malformed over %d s): %s\n", slowloris,
              figures.malformed_sent, seconds, loaded.Summary().c_str());
  std::printf("slowloris: %ld connections made, %ld dropped by the server, %ld refused\n",
              figures.slow_connects, figures.slow_dropped, figures.slow_connect_failures);
  std::printf("peak RSS: idle %ld KiB, under attack %ld KiB (%.2fx); fds: idle %d, peak %d\n", idle_rss,
              peak_rss, idle_rss > 0 ? static_cast<double>(peak_rss) / idle_rss : 0.0, idle_fds,
              peak_fds);
  std::printf("malformed requests, answered:\n");
  for (auto& [kind, outcomes] : figures.answers) {
    std::printf("  %-16s", kind.c_str());
    for (auto& [o, n] : outcomes) std::printf(" %s:%d", o.c_str(), n);
    std::printf("\n");
  }
  std::printf("scheduled runs recorded during the attack: %d (before %d, after %d)\n",
              runs_after - runs_before, runs_before, runs_after);
  int code = -1;
  if (alive) {
    kill(d.pid, SIGTERM);
    int st = 0;
    for (auto until = Clock::now() + 15s; Clock::now() < until;) {
      if (waitpid(d.pid, &st, WNOHANG) == d.pid) {
        code = WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
        break;
      }
      std::this_thread::sleep_for(20ms);
    }
    if (code == -1) kill(d.pid, SIGKILL);
  }
  std::printf("daemon alive after the attack: %s; exit status on SIGTERM: %d\n",
              alive ? "yes" : "NO", code);
  if (!keep) fs::remove_all(dir);
  else std::printf("kept %s\n", dir.c_str());
  bool pass = alive && code == 0 && loaded.attempts > 0 &&
              loaded.ok >= 0.99 * loaded.attempts && loaded.Percentile(99) <= 100.0 &&
              peak_rss <= 2 * idle_rss;
  std::printf("goal (>= 99%% ok, p99 <= 100 ms, RSS <= 2x idle, alive): %s\n",
              pass ? "met" : "NOT met");
  return pass ? 0 : 1;
}
