// FakeClock: a Clock that moves only when told (Advance/Set) or when someone
// sleeps on it. Thread-safe. Used by tests and by `--show-schedule` previews.
#pragma once

#include <mutex>

#include "base/clock.h"
#include "base/thread_annotations.h"

namespace dp {

class FakeClock final : public Clock {
 public:
  explicit FakeClock(SysTime start = FromUnixSeconds(1'767'225'600))  // 2026-01-01T00:00Z
      : now_(start), mono_(MonoTime{} + std::chrono::hours(1)) {}

  SysTime Now() const override {
    MutexLock lock(mu_);
    return now_;
  }
  MonoTime Monotonic() const override {
    MutexLock lock(mu_);
    return mono_;
  }
  void SleepFor(std::chrono::nanoseconds d) override { Advance(d); }

  void Advance(std::chrono::nanoseconds d) {
    MutexLock lock(mu_);
    now_ += std::chrono::duration_cast<SysTime::duration>(d);
    mono_ += std::chrono::duration_cast<MonoTime::duration>(d);
  }
  // Jumps the wall clock only (a clock step); monotonic time does not move.
  void Set(SysTime t) {
    MutexLock lock(mu_);
    now_ = t;
  }

 private:
  mutable Mutex mu_;
  SysTime now_ GUARDED_BY(mu_);
  MonoTime mono_ GUARDED_BY(mu_);
};

}  // namespace dp
