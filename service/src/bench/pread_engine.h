// PreadEngine: the portable engine — queue depth N means N worker threads each
// doing blocking pread(2) on the shared read-only descriptor (fio's psync
// with numjobs=N; the FreeBSD default). At queue depth 1 there are no workers:
// Reap does the pread on the runner's own thread, as fio's psync does, since a
// hand-off to a worker and back costs two thread wake-ups per read (measured
// here: half of a plain pread loop's IOPS on a RAM-backed loop device).
// Owned by one runner thread, which calls Submit/Reap; the destructor waits for
// reads in flight, then joins the workers.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "base/clock.h"
#include "base/thread_annotations.h"
#include "bench/io_engine.h"

namespace dp {

class PreadEngine final : public IoEngine {
 public:
  // fd stays owned by the caller and must outlive the engine.
  PreadEngine(int fd, std::uint32_t queue_depth, const Clock& clock);
  ~PreadEngine() override;

  std::string_view name() const override { return "pread"; }
  std::uint32_t queue_depth() const override { return queue_depth_; }
  Status Submit(const IoRequest& request) override;
  Result<std::size_t> Reap(std::size_t min_complete, std::chrono::nanoseconds timeout,
                           std::vector<IoCompletion>& out) override;
  std::uint32_t in_flight() const override { return in_flight_; }
  std::uint32_t max_concurrency_seen() const override { return max_concurrency_.load(); }

 private:
  void Worker();
  // One whole read (retrying short reads and EINTR) with its latency.
  IoCompletion Execute(const IoRequest& r);
  void NoteExecuting();

  const int fd_;
  const std::uint32_t queue_depth_;
  const Clock& clock_;
  std::uint32_t in_flight_ = 0;  // runner thread only
  const bool inline_ = false;    // queue depth 1: reads run on the runner thread
  IoRequest pending_{};          // inline_: the read queued by Submit

  Mutex mu_;
  std::condition_variable work_cv_;  // workers wait for requests
  std::condition_variable done_cv_;  // the runner waits for completions
  std::deque<IoRequest> queue_ GUARDED_BY(mu_);
  std::vector<IoCompletion> done_ GUARDED_BY(mu_);
  std::size_t want_ GUARDED_BY(mu_) = 1;  // completions the runner waits for; workers notify at this many
  bool stop_ GUARDED_BY(mu_) = false;
  std::atomic<std::uint32_t> executing_{0};
  std::atomic<std::uint32_t> max_concurrency_{0};
  std::vector<std::thread> workers_;
};

}  // namespace dp
