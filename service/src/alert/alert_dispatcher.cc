#include "alert/alert_dispatcher.h"

#include <algorithm>

#include "base/log.h"

namespace dp {

AlertDispatcher::~AlertDispatcher() { Stop(); }

void AlertDispatcher::AddSink(std::unique_ptr<AlertSink> sink, SinkPolicy policy) {
  std::lock_guard lock(mu_);
  auto lane = std::make_unique<Lane>();
  lane->stats.name = sink->name();
  lane->sink = std::move(sink);
  lane->policy = policy;
  if (lane->policy.max_attempts < 1) lane->policy.max_attempts = 1;
  if (lane->policy.queue_capacity < 1) lane->policy.queue_capacity = 1;
  Lane* raw = lane.get();
  lanes_.push_back(std::move(lane));
  if (started_) raw->worker = std::thread([this, raw] { Work(raw); });
}

void AlertDispatcher::Start() {
  std::lock_guard lock(mu_);
  if (started_) return;
  started_ = true;
  stopping_ = false;
  for (auto& lane : lanes_) {
    Lane* raw = lane.get();
    raw->worker = std::thread([this, raw] { Work(raw); });
  }
}

void AlertDispatcher::Stop() {
  {
    std::lock_guard lock(mu_);
    if (!started_) return;
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& lane : lanes_)
    if (lane->worker.joinable()) lane->worker.join();
  std::lock_guard lock(mu_);
  for (auto& lane : lanes_) {
    if (!lane->queue.empty())
      LogWarning("alert sink " + lane->stats.name + ": " + std::to_string(lane->queue.size()) +
                 " notification(s) not sent at shutdown");
    lane->stats.dropped += lane->queue.size();
    lane->queue.clear();
  }
  started_ = false;
}

void AlertDispatcher::Submit(const Notification& n) {
  {
    std::lock_guard lock(mu_);
    const auto sev = ParseSeverity(n.alert.severity).value_or(Severity::kInfo);
    for (auto& lane : lanes_) {
      // Tests go everywhere; an alert's notifications (opening, reminders,
      // resolution) go where its severity is wanted.
      if (n.kind != NotifyKind::kTest && sev < lane->policy.min_severity) continue;
      if (lane->queue.size() >= lane->policy.queue_capacity) {
        LogWarning("alert sink " + lane->stats.name + ": queue full (" +
                   std::to_string(lane->policy.queue_capacity) +
                   "), dropping the oldest notification: " + lane->queue.front().Title());
        lane->queue.pop_front();
        ++lane->stats.dropped;
      }
      lane->queue.push_back(n);
    }
  }
  cv_.notify_all();
}

void AlertDispatcher::Work(Lane* lane) {
  std::unique_lock lock(mu_);
  while (true) {
    cv_.wait(lock, [&] { return stopping_ || !lane->queue.empty(); });
    if (stopping_) return;
    Notification n = std::move(lane->queue.front());
    lane->queue.pop_front();
    lane->busy = true;
    auto backoff = lane->policy.retry_initial;
    for (int attempt = 1;; ++attempt) {
      lock.unlock();
      Status st = lane->sink->Send(n);
      lock.lock();
      if (st.ok()) {
        ++lane->stats.sent;
        lane->stats.last_error.clear();
        if (attempt > 1)
          LogInfo("alert sink " + lane->stats.name + ": delivered on attempt " +
                  std::to_string(attempt) + ": " + n.Title());
        break;
      }
      ++lane->stats.attempts_failed;
      lane->stats.last_error = st.ToString();
      if (attempt >= lane->policy.max_attempts) {
        ++lane->stats.failed;
        LogError("alert sink " + lane->stats.name + ": giving up after " + std::to_string(attempt) +
                 " attempt(s): " + st.ToString() + " (" + n.Title() + ")");
        break;
      }
      LogWarning("alert sink " + lane->stats.name + ": attempt " + std::to_string(attempt) +
                 " failed: " + st.ToString() + "; retrying in " + std::to_string(backoff.count()) +
                 " ms");
      if (cv_.wait_for(lock, backoff, [&] { return stopping_; })) {
        lane->stats.dropped += 1;
        lane->busy = false;
        idle_cv_.notify_all();
        return;
      }
      backoff = std::min(backoff * 2, lane->policy.retry_max);
    }
    lane->busy = false;
    idle_cv_.notify_all();
  }
}

std::vector<SinkTestResult> AlertDispatcher::SendTest(const Notification& n) {
  std::vector<AlertSink*> sinks;
  {
    std::lock_guard lock(mu_);
    for (auto& lane : lanes_) sinks.push_back(lane->sink.get());
  }
  std::vector<SinkTestResult> out;
  for (AlertSink* s : sinks) out.push_back({s->name(), s->Send(n)});
  return out;
}

std::vector<SinkStats> AlertDispatcher::Stats() const {
  std::lock_guard lock(mu_);
  std::vector<SinkStats> out;
  for (const auto& lane : lanes_) {
    SinkStats s = lane->stats;
    s.queued = lane->queue.size();
    out.push_back(s);
  }
  return out;
}

std::size_t AlertDispatcher::sink_count() const {
  std::lock_guard lock(mu_);
  return lanes_.size();
}

bool AlertDispatcher::WaitIdle(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return idle_cv_.wait_for(lock, timeout, [&] {
    return std::all_of(lanes_.begin(), lanes_.end(),
                       [](const auto& l) { return l->queue.empty() && !l->busy; });
  });
}

}  // namespace dp
