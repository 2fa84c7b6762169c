// ServiceNotifier: tells the service manager how diskpulsed is doing, with
// the sd_notify(3) protocol: one datagram of "KEY=value" lines to the unix
// socket named by $NOTIFY_SOCKET (an absolute path, or "@name" for Linux's
// abstract namespace). READY=1 once the port is bound and serving,
// STATUS=... for `systemctl status`, RELOADING=1 ... READY=1 around a reload,
// STOPPING=1, and WATCHDOG=1 at half of $WATCHDOG_USEC (when $WATCHDOG_PID,
// if set, is this process).
//
// The datagram is written by hand (service_notifier_linux.cc) rather than
// through libsystemd: the protocol is a documented, stable interface and the
// daemon then needs no systemd library at all. On FreeBSD there is no
// service manager socket: the notifier is always off
// (service_notifier_freebsd.cc).
//
// Environment that makes no sense (a relative NOTIFY_SOCKET, a WATCHDOG_USEC
// that is not a positive number) turns the part off with one clear log
// line, never a failure; a socket that cannot be reached is logged once.
// Made by main before any thread starts (it unsets the variables, so tools
// the daemon runs do not inherit them); then thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

#include "base/result.h"
#include "base/status.h"
#include "base/thread_annotations.h"

namespace dp {

// Where to send: a filesystem path or an abstract name (without the '@').
struct NotifyAddress {
  std::string path;
  bool abstract = false;
};

// Pure parsers of the two variables; the errors say what is wrong.
Result<NotifyAddress> ParseNotifySocket(std::string_view value);
// nullopt: no watchdog for this process (WATCHDOG_PID names another one).
Result<std::optional<std::chrono::microseconds>> ParseWatchdog(std::string_view usec,
                                                               std::string_view pid, pid_t self);

// One datagram to address (platform file).
Status SendNotifyDatagram(const NotifyAddress& address, std::string_view message);
// False where the protocol does not exist (FreeBSD).
bool NotifySupported();

class ServiceNotifier {
 public:
  using Getenv = std::function<const char*(const char*)>;
  using Logger = std::function<void(const std::string&)>;

  ServiceNotifier() = default;  // off
  // Reads NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID; bad values are
  // reported through warn. unset: called for each variable read.
  static ServiceNotifier FromEnvironment(const Getenv& getenv, const Logger& warn,
                                         const std::function<void(const char*)>& unset);
  // The process environment, logging through base/log.
  static ServiceNotifier FromProcessEnvironment();

  ServiceNotifier(ServiceNotifier&& other) noexcept;
  // Moved only before any thread uses it (main builds it first): the flag is
  // copied without either lock.
  ServiceNotifier& operator=(ServiceNotifier&& other) noexcept NO_THREAD_SAFETY_ANALYSIS;

  bool enabled() const { return address_.has_value(); }
  // How often to send WATCHDOG=1 (half the manager's timeout); nullopt: never.
  std::optional<std::chrono::microseconds> watchdog_interval() const;

  void Ready(const std::string& status);  // status "": keep the last one
  void SetStatus(const std::string& status);
  void Reloading();
  void Stopping();
  void Watchdog();

  // Sends message as is; false when off or the send failed (logged once).
  bool Send(const std::string& message);

 private:
  std::optional<NotifyAddress> address_;
  std::optional<std::chrono::microseconds> watchdog_;
  Logger warn_;
  Mutex mu_;
  bool failed_logged_ GUARDED_BY(mu_) = false;
};

}  // namespace dp
