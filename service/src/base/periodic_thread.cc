#include "base/periodic_thread.h"

#include <utility>

namespace dp {

PeriodicThread::~PeriodicThread() { Stop(); }

void PeriodicThread::Start(std::chrono::milliseconds period, std::function<void()> pass) {
  MutexLock lock(mu_);
  if (thread_.joinable()) return;
  stop_ = false;
  wake_ = false;
  thread_ = std::thread([this, period, pass = std::move(pass)] { Loop(period, pass); });
}

void PeriodicThread::Wake() {
  {
    MutexLock lock(mu_);
    wake_ = true;
  }
  cv_.notify_all();
}

void PeriodicThread::Stop() {
  {
    MutexLock lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void PeriodicThread::Loop(std::chrono::milliseconds period, const std::function<void()>& pass) {
  while (true) {
    pass();
    MutexLock lock(mu_);
    lock.WaitFor(cv_, period, [this]() REQUIRES(mu_) { return stop_ || wake_; });
    if (stop_) return;
    wake_ = false;
  }
}

}  // namespace dp
