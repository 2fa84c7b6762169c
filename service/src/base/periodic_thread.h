// PeriodicThread: the one way the daemon's background tasks (discovery,
// retention, ZFS sampling) loop. A pass runs on the thread at Start(), then
// again a period after the previous pass ended, or sooner after Wake(); Stop()
// ends the loop and waits for a pass in progress. The period is waited on the
// steady clock, so a step of the wall clock neither skips nor repeats a pass.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "base/thread_annotations.h"

namespace dp {

class PeriodicThread {
 public:
  PeriodicThread() = default;
  ~PeriodicThread();  // Stop()
  PeriodicThread(const PeriodicThread&) = delete;
  PeriodicThread& operator=(const PeriodicThread&) = delete;

  // Starts the loop; does nothing while one runs. `pass` runs on the thread
  // only, one pass at a time. Start and Stop are the owner's calls (one
  // thread); Wake may come from any.
  void Start(std::chrono::milliseconds period, std::function<void()> pass);
  // The next pass now (or right after the one in progress).
  void Wake();
  // Ends the loop and waits for a pass in progress. Idempotent; Start may
  // follow.
  void Stop();

 private:
  void Loop(std::chrono::milliseconds period, const std::function<void()>& pass);

  Mutex mu_;
  std::condition_variable cv_;
  bool stop_ GUARDED_BY(mu_) = false;
  bool wake_ GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace dp
