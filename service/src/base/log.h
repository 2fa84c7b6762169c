// Logging to stderr or syslog with levels. The one process-wide piece of state
// in diskpulse: configured once by the composition root (app/ or cli/) before
// threads start, then only read. Log calls are thread-safe (one line per call).
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace dp {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

// "debug" | "info" | "warning" (or "warn") | "error".
Result<LogLevel> ParseLogLevel(std::string_view name);
std::string_view LogLevelName(LogLevel level);

enum class LogTarget { kStderr, kSyslog };

// Called by the composition root only.
void ConfigureLogging(LogLevel min_level, LogTarget target, std::string_view ident = "diskpulsed");

void Log(LogLevel level, std::string_view message);
inline void LogDebug(std::string_view m) { Log(LogLevel::kDebug, m); }
inline void LogInfo(std::string_view m) { Log(LogLevel::kInfo, m); }
inline void LogWarning(std::string_view m) { Log(LogLevel::kWarning, m); }
inline void LogError(std::string_view m) { Log(LogLevel::kError, m); }

}  // namespace dp
