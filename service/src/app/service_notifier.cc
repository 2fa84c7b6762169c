#include "app/service_notifier.h"

#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>

#include "base/log.h"

namespace dp {
namespace {

std::optional<long long> ParsePositive(std::string_view s) {
  long long v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v <= 0) return std::nullopt;
  return v;
}

std::string MonotonicUsec() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::to_string(static_cast<long long>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000);
}

// One line of STATUS=: the protocol is line-based.
std::string OneLine(std::string s) {
  for (char& c : s)
    if (c == '\n') c = ' ';
  return s;
}

}  // namespace

Result<NotifyAddress> ParseNotifySocket(std::string_view value) {
  constexpr std::size_t kMax = sizeof(sockaddr_un::sun_path) - 1;
  if (value.empty()) return InvalidArgument("NOTIFY_SOCKET is empty");
  NotifyAddress a;
  if (value[0] == '@') {
    a.abstract = true;
    a.path = std::string(value.substr(1));
    if (a.path.empty()) return InvalidArgument("NOTIFY_SOCKET '@' names no abstract socket");
  } else if (value[0] == '/') {
    a.path = std::string(value);
  } else {
    return InvalidArgument("NOTIFY_SOCKET '" + std::string(value) +
                           "' is neither an absolute path nor an abstract '@name'");
  }
  if (a.path.size() > kMax)
    return InvalidArgument("NOTIFY_SOCKET is " + std::to_string(value.size()) +
                           " characters long; a unix socket name holds at most " +
                           std::to_string(kMax));
  if (a.path.find('\0') != std::string::npos)
    return InvalidArgument("NOTIFY_SOCKET contains a NUL character");
  return a;
}

Result<std::optional<std::chrono::microseconds>> ParseWatchdog(std::string_view usec,
                                                               std::string_view pid, pid_t self) {
  auto us = ParsePositive(usec);
  if (!us)
    return InvalidArgument("WATCHDOG_USEC '" + std::string(usec) +
                           "' is not a positive number of microseconds");
  if (!pid.empty()) {
    auto p = ParsePositive(pid);
    if (!p) return InvalidArgument("WATCHDOG_PID '" + std::string(pid) + "' is not a process id");
    if (*p != self) return std::optional<std::chrono::microseconds>();  // meant for another process
  }
  return std::optional<std::chrono::microseconds>(std::chrono::microseconds(*us));
}

ServiceNotifier ServiceNotifier::FromEnvironment(const Getenv& getenv, const Logger& warn,
                                                 const std::function<void(const char*)>& unset) {
  ServiceNotifier n;
  n.warn_ = warn;
  const char* socket = getenv("NOTIFY_SOCKET");
  const char* usec = getenv("WATCHDOG_USEC");
  const char* pid = getenv("WATCHDOG_PID");
  std::string socket_value = socket ? socket : "";
  std::string usec_value = usec ? usec : "";
  std::string pid_value = pid ? pid : "";
  for (const char* name : {"NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"}) unset(name);
  if (!socket) {
    if (usec) warn("service manager: WATCHDOG_USEC is set without NOTIFY_SOCKET; no watchdog pings");
    return n;
  }
  if (!NotifySupported()) {
    warn("service manager: NOTIFY_SOCKET is set, but this system has no sd_notify protocol; ignored");
    return n;
  }
  auto address = ParseNotifySocket(socket_value);
  if (!address.ok()) {
    warn("service manager: " + address.status().message() + "; not notifying it");
    return n;
  }
  n.address_ = *address;
  if (usec) {
    auto wd = ParseWatchdog(usec_value, pid_value, ::getpid());
    if (!wd.ok())
      warn("service manager: " + wd.status().message() + "; no watchdog pings");
    else
      n.watchdog_ = *wd;
  }
  return n;
}

ServiceNotifier ServiceNotifier::FromProcessEnvironment() {
  return FromEnvironment([](const char* name) { return std::getenv(name); },
                         [](const std::string& m) { LogWarning(m); },
                         [](const char* name) { ::unsetenv(name); });
}

ServiceNotifier::ServiceNotifier(ServiceNotifier&& other) noexcept
    : address_(std::move(other.address_)),
      watchdog_(other.watchdog_),
      warn_(std::move(other.warn_)),
      failed_logged_(other.failed_logged_) {}

ServiceNotifier& ServiceNotifier::operator=(ServiceNotifier&& other) noexcept {
  address_ = std::move(other.address_);
  watchdog_ = other.watchdog_;
  warn_ = std::move(other.warn_);
  failed_logged_ = other.failed_logged_;
  return *this;
}

std::optional<std::chrono::microseconds> ServiceNotifier::watchdog_interval() const {
  if (!enabled() || !watchdog_) return std::nullopt;
  return *watchdog_ / 2;
}

bool ServiceNotifier::Send(const std::string& message) {
  if (!address_) return false;
  Status s = SendNotifyDatagram(*address_, message);
  if (s.ok()) return true;
  MutexLock lock(mu_);
  if (!failed_logged_ && warn_)
    warn_("service manager: cannot notify " + std::string(address_->abstract ? "@" : "") +
          address_->path + ": " + s.message() + " (further failures are not logged)");
  failed_logged_ = true;
  return false;
}

void ServiceNotifier::Ready(const std::string& status) {
  std::string m = "READY=1\nMAINPID=" + std::to_string(::getpid());
  if (!status.empty()) m += "\nSTATUS=" + OneLine(status);
  Send(m);
}

void ServiceNotifier::SetStatus(const std::string& status) { Send("STATUS=" + OneLine(status)); }

void ServiceNotifier::Reloading() {
  Send("RELOADING=1\nMONOTONIC_USEC=" + MonotonicUsec() + "\nSTATUS=reloading the configuration");
}

void ServiceNotifier::Stopping() { Send("STOPPING=1\nSTATUS=stopping"); }

void ServiceNotifier::Watchdog() { Send("WATCHDOG=1"); }

}  // namespace dp
