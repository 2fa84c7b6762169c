#include "bench/pread_engine.h"

#include <unistd.h>

#include <cerrno>

namespace dp {

PreadEngine::PreadEngine(int fd, std::uint32_t queue_depth, const Clock& clock)
    : fd_(fd),
      queue_depth_(queue_depth == 0 ? 1 : queue_depth),
      clock_(clock),
      inline_(queue_depth_ == 1) {
  if (inline_) return;
  done_.reserve(queue_depth_);
  workers_.reserve(queue_depth_);
  for (std::uint32_t i = 0; i < queue_depth_; ++i) workers_.emplace_back([this] { Worker(); });
}

PreadEngine::~PreadEngine() {
  {
    MutexLock lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : workers_) t.join();
}

Status PreadEngine::Submit(const IoRequest& request) {
  if (in_flight_ >= queue_depth_)
    return ResourceExhausted("pread engine: " + std::to_string(queue_depth_) +
                             " reads already in flight");
  ++in_flight_;
  if (inline_) {
    pending_ = request;
    return Status::Ok();
  }
  {
    MutexLock lock(mu_);
    queue_.push_back(request);
  }
  work_cv_.notify_one();
  return Status::Ok();
}

Result<std::size_t> PreadEngine::Reap(std::size_t min_complete, std::chrono::nanoseconds timeout,
                                      std::vector<IoCompletion>& out) {
  if (min_complete > in_flight_) min_complete = in_flight_;
  if (inline_) {
    // The queued read has not started yet (it starts here), so even a
    // min_complete of 0 or a short timeout runs it: its buffer is the caller's
    // only once it is reaped, and nothing else would ever start it.
    if (in_flight_ == 0) return std::size_t{0};
    NoteExecuting();
    out.push_back(Execute(pending_));
    --executing_;
    in_flight_ = 0;
    return std::size_t{1};
  }
  MutexLock lock(mu_);
  if (done_.size() < min_complete) {
    want_ = min_complete;
    lock.WaitFor(done_cv_, timeout, [&]() REQUIRES(mu_) { return done_.size() >= min_complete; });
  }
  std::size_t n = done_.size();
  out.insert(out.end(), done_.begin(), done_.end());
  done_.clear();
  lock.Unlock();
  in_flight_ -= static_cast<std::uint32_t>(n);
  return n;
}

void PreadEngine::NoteExecuting() {
  std::uint32_t now_running = ++executing_;
  std::uint32_t seen = max_concurrency_.load();
  while (now_running > seen && !max_concurrency_.compare_exchange_weak(seen, now_running)) {
  }
}

IoCompletion PreadEngine::Execute(const IoRequest& r) {
  const MonoTime start = clock_.Monotonic();
  std::int64_t result = 0;
  std::uint32_t done = 0;
  while (done < r.length) {
    ssize_t n = ::pread(fd_, r.buffer + done, r.length - done, static_cast<off_t>(r.offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      result = -errno;
      break;
    }
    if (n == 0) break;  // end of device: a short read, reported as such
    done += static_cast<std::uint32_t>(n);
  }
  if (result == 0) result = done;
  const auto latency = clock_.Monotonic() - start;
  return {r.tag, result, std::chrono::duration_cast<std::chrono::nanoseconds>(latency)};
}

void PreadEngine::Worker() {
  for (;;) {
    IoRequest r;
    {
      MutexLock lock(mu_);
      lock.Wait(work_cv_, [this]() REQUIRES(mu_) { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stop_ and nothing left
      r = queue_.front();
      queue_.pop_front();
    }
    NoteExecuting();
    IoCompletion c = Execute(r);
    --executing_;
    bool wake = false;
    {
      MutexLock lock(mu_);
      done_.push_back(c);
      wake = done_.size() >= want_;
    }
    if (wake) done_cv_.notify_one();
  }
}

}  // namespace dp
