// Heartbeat: how a working part of the daemon shows that it makes progress.
// The service manager's watchdog is fed only while every part does
// (app/watchdog.h), so a daemon whose scheduler, HTTP server, database or
// evaluator hangs is restarted even though its main loop still runs.
//
// A part is stalled
//  - as a loop, when its last Beat() is older than the limit (a loop that
//    never beat is not judged);
//  - as a worker, while a call (Begin() ... End(), or a Call scope) has run
//    longer than the limit. An idle worker is never stalled. Calls may
//    overlap; the part is then busy since the first of them began.
// Thread-safe.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/thread_annotations.h"

namespace dp {

class Heartbeat {
 public:
  explicit Heartbeat(std::string name, const Clock& clock);
  const std::string& name() const { return name_; }

  void Beat();
  void Begin();
  void End();
  // Not judged while one lives: a call known to be long and still moving
  // (converting the database file in one VACUUM).
  class Quiet {
   public:
    explicit Quiet(Heartbeat* h);
    ~Quiet();
    Quiet(const Quiet&) = delete;
    Quiet& operator=(const Quiet&) = delete;

   private:
    Heartbeat* h_;
  };

  // How long the part has been without progress at `now`; nullopt when it
  // is not stalled by that measure at all (idle worker, quiet, never beat).
  std::optional<std::chrono::nanoseconds> SinceProgress(MonoTime now) const;

 private:
  const std::string name_;
  const Clock& clock_;
  mutable Mutex mu_;
  std::optional<MonoTime> last_beat_ GUARDED_BY(mu_);
  int calls_ GUARDED_BY(mu_) = 0;
  MonoTime busy_since_ GUARDED_BY(mu_) = {};
  int quiet_ GUARDED_BY(mu_) = 0;
};

// The daemon's parts, each with its heartbeat (addresses stay valid).
class HeartbeatBoard {
 public:
  explicit HeartbeatBoard(const Clock& clock) : clock_(clock) {}
  Heartbeat& Add(std::string name);
  // "store (no progress for 75 s)" for each part stalled longer than limit.
  std::vector<std::string> Stalled(std::chrono::nanoseconds limit) const;

 private:
  const Clock& clock_;
  mutable Mutex mu_;
  std::deque<std::unique_ptr<Heartbeat>> parts_ GUARDED_BY(mu_);
};

// A BasicLockable mutex whose holder counts as a call of `heartbeat` (set
// before other threads use it): a lock held longer than the limit is a
// stalled part, however the holder got stuck.
class CAPABILITY("mutex") WatchedMutex {
 public:
  void lock() ACQUIRE() {
    mu_.lock();
    if (heartbeat_) heartbeat_->Begin();
  }
  void unlock() RELEASE() {
    if (heartbeat_) heartbeat_->End();
    mu_.unlock();
  }
  void Watch(Heartbeat* heartbeat) { heartbeat_ = heartbeat; }
  Heartbeat* heartbeat() const { return heartbeat_; }

 private:
  Mutex mu_;
  Heartbeat* heartbeat_ = nullptr;
};

// Holds a WatchedMutex for its scope.
class SCOPED_CAPABILITY WatchedLock {
 public:
  explicit WatchedLock(WatchedMutex& mu) ACQUIRE(mu) : mu_(mu) { mu_.lock(); }
  ~WatchedLock() RELEASE() { mu_.unlock(); }
  WatchedLock(const WatchedLock&) = delete;
  WatchedLock& operator=(const WatchedLock&) = delete;

 private:
  WatchedMutex& mu_;
};

}  // namespace dp
