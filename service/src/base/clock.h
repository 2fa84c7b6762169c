// Clock: the only way code asks what time it is or waits (ARCHITECTURE.md "Seams").
// SystemClock is the real one; FakeClock (base/fake_clock.h) lets tests run
// months of schedules in milliseconds. Implementations are thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace dp {

using SysTime = std::chrono::system_clock::time_point;
using MonoTime = std::chrono::steady_clock::time_point;

class Clock {
 public:
  virtual ~Clock() = default;
  // Wall-clock time (for schedules, timestamps stored in the database).
  virtual SysTime Now() const = 0;
  // Monotonic time (for durations and deadlines).
  virtual MonoTime Monotonic() const = 0;
  // Blocks for d (a FakeClock advances itself instead).
  virtual void SleepFor(std::chrono::nanoseconds d) = 0;
};

class SystemClock final : public Clock {
 public:
  SysTime Now() const override;
  MonoTime Monotonic() const override;
  void SleepFor(std::chrono::nanoseconds d) override;
};

// Seconds since the Unix epoch, and back; the database stores times this way.
int64_t ToUnixSeconds(SysTime t);
SysTime FromUnixSeconds(int64_t s);
// "2026-11-30T03:00:00Z"
std::string FormatUtc(SysTime t);

}  // namespace dp
