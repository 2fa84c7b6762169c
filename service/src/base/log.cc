#include "base/log.h"

#include <syslog.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

#include "base/strings.h"
#include "base/thread_annotations.h"

namespace dp {
namespace {

std::atomic<int> g_min_level{static_cast<int>(LogLevel::kInfo)};
std::atomic<bool> g_syslog{false};
Mutex g_write_mu;
std::string g_ident GUARDED_BY(g_write_mu) = "diskpulsed";

int SyslogPriority(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return LOG_DEBUG;
    case LogLevel::kInfo: return LOG_INFO;
    case LogLevel::kWarning: return LOG_WARNING;
    case LogLevel::kError: return LOG_ERR;
  }
  return LOG_INFO;
}

}  // namespace

Result<LogLevel> ParseLogLevel(std::string_view name) {
  if (name == "debug") return LogLevel::kDebug;
  if (name == "info") return LogLevel::kInfo;
  if (name == "warning" || name == "warn") return LogLevel::kWarning;
  if (name == "error") return LogLevel::kError;
  return InvalidArgument("unknown log level '" + std::string(name) +
                         "' (expected debug, info, warning or error)");
}

std::string_view LogLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return "debug";
    case LogLevel::kInfo: return "info";
    case LogLevel::kWarning: return "warning";
    case LogLevel::kError: return "error";
  }
  return "info";
}

void ConfigureLogging(LogLevel min_level, LogTarget target, std::string_view ident) {
  MutexLock lock(g_write_mu);
  g_min_level = static_cast<int>(min_level);
  g_ident = std::string(ident);
  if (target == LogTarget::kSyslog) {
    openlog(g_ident.c_str(), LOG_PID | LOG_NDELAY, LOG_DAEMON);
    g_syslog = true;
  } else {
    g_syslog = false;
  }
}

void Log(LogLevel level, std::string_view message) {
  if (static_cast<int>(level) < g_min_level.load(std::memory_order_relaxed)) return;
  if (g_syslog.load(std::memory_order_relaxed)) {
    syslog(SyslogPriority(level), "%.*s", static_cast<int>(message.size()), message.data());
    return;
  }
  auto now = std::chrono::system_clock::now();
  const std::string ts =
      FormatLocalTime(std::chrono::system_clock::to_time_t(now), "%Y-%m-%d %H:%M:%S");
  MutexLock lock(g_write_mu);
  std::fprintf(stderr, "%s %s[%d] %s: %.*s\n", ts.c_str(), g_ident.c_str(), static_cast<int>(getpid()),
               std::string(LogLevelName(level)).c_str(), static_cast<int>(message.size()),
               message.data());
}

}  // namespace dp
