#include "base/clock.h"

#include <ctime>
#include <thread>

#include "base/strings.h"

namespace dp {

SysTime SystemClock::Now() const { return std::chrono::system_clock::now(); }
MonoTime SystemClock::Monotonic() const { return std::chrono::steady_clock::now(); }
void SystemClock::SleepFor(std::chrono::nanoseconds d) { std::this_thread::sleep_for(d); }

int64_t ToUnixSeconds(SysTime t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

SysTime FromUnixSeconds(int64_t s) { return SysTime(std::chrono::seconds(s)); }

std::string FormatUtc(SysTime t) {
  return FormatUtcTime(static_cast<std::time_t>(ToUnixSeconds(t)), "%Y-%m-%dT%H:%M:%SZ");
}

}  // namespace dp
