#include "base/clock.h"

#include <ctime>
#include <thread>

namespace dp {

SysTime SystemClock::Now() const { return std::chrono::system_clock::now(); }
MonoTime SystemClock::Monotonic() const { return std::chrono::steady_clock::now(); }
void SystemClock::SleepFor(std::chrono::nanoseconds d) { std::this_thread::sleep_for(d); }

int64_t ToUnixSeconds(SysTime t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

SysTime FromUnixSeconds(int64_t s) { return SysTime(std::chrono::seconds(s)); }

std::string FormatUtc(SysTime t) {
  std::time_t tt = static_cast<std::time_t>(ToUnixSeconds(t));
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace dp
