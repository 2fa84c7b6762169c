#include "alert/alert_dispatcher.h"

#include <algorithm>

#include "base/log.h"

namespace dp {

AlertDispatcher::~AlertDispatcher() { Stop(); }

void AlertDispatcher::AddSink(std::unique_ptr<AlertSink> sink, SinkPolicy policy) {
  MutexLock lock(mu_);
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

void AlertDispatcher::SetOutbox(NotificationOutbox* outbox) {
  MutexLock lock(mu_);
  outbox_ = outbox;
}

void AlertDispatcher::RemoveFromOutbox(std::int64_t id) {
  if (id == 0 || outbox_ == nullptr) return;
  if (Status st = outbox_->Remove(id); !st.ok())
    LogWarning("alert outbox: cannot remove notification " + std::to_string(id) + ": " +
               st.ToString());
}

std::int64_t AlertDispatcher::PushLocked(Lane& lane, Queued q) {
  std::int64_t pushed_out = 0;
  if (lane.queue.size() >= lane.policy.queue_capacity) {
    LogWarning("alert sink " + lane.stats.name + ": queue full (" +
               std::to_string(lane.policy.queue_capacity) +
               "), dropping the oldest notification: " + lane.queue.front().n.Title());
    pushed_out = lane.queue.front().outbox_id;
    lane.queue.pop_front();
    ++lane.stats.dropped;
  }
  lane.queue.push_back(std::move(q));
  return pushed_out;
}

// What an earlier run left in the outbox goes back on its sink's queue, in
// the order it was accepted, ahead of anything new. An entry whose sink is no
// longer configured, or that cannot be read back, is logged and removed:
// keeping it would retry it at every start for ever.
void AlertDispatcher::RestoreFromOutbox() {
  if (outbox_ == nullptr) return;
  auto pending = outbox_->Pending();
  if (!pending.ok()) {
    LogError("alert outbox: cannot read the notifications left by the last run: " +
             pending.status().ToString());
    return;
  }
  std::vector<std::int64_t> remove;
  {
    MutexLock lock(mu_);
    for (OutboxEntry& e : *pending) {
      auto lane = std::find_if(lanes_.begin(), lanes_.end(),
                               [&](const auto& l) { return l->stats.name == e.sink; });
      if (lane == lanes_.end()) {
        LogWarning("alert outbox: sink '" + e.sink +
                   "' is no longer configured; dropping a notification it was never sent");
        remove.push_back(e.id);
        continue;
      }
      auto n = DecodeNotification(e.body);
      if (!n.ok()) {
        LogWarning("alert outbox: dropping notification " + std::to_string(e.id) + " for " +
                   e.sink + ": " + n.status().ToString());
        remove.push_back(e.id);
        continue;
      }
      ++(*lane)->stats.restored;
      if (std::int64_t out = PushLocked(**lane, {std::move(*n), e.id}); out != 0)
        remove.push_back(out);
    }
    for (const auto& lane : lanes_)
      if (lane->stats.restored > 0)
        LogInfo("alert sink " + lane->stats.name + ": " + std::to_string(lane->stats.restored) +
                " notification(s) from before the restart queued again");
  }
  for (std::int64_t id : remove) RemoveFromOutbox(id);
}

void AlertDispatcher::Start() {
  {
    MutexLock lock(mu_);
    if (started_) return;
  }
  RestoreFromOutbox();
  MutexLock lock(mu_);
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
    MutexLock lock(mu_);
    if (!started_) return;
    stopping_ = true;
  }
  cv_.notify_all();
  // Joined without the lock, which the workers take to finish; the lanes
  // themselves stay (unique_ptr), so their addresses outlive a later AddSink.
  std::vector<Lane*> lanes;
  {
    MutexLock lock(mu_);
    for (auto& lane : lanes_) lanes.push_back(lane.get());
  }
  for (Lane* lane : lanes)
    if (lane->worker.joinable()) lane->worker.join();
  MutexLock lock(mu_);
  for (auto& lane : lanes_) {
    const auto kept = static_cast<std::size_t>(
        std::count_if(lane->queue.begin(), lane->queue.end(),
                      [](const Queued& q) { return q.outbox_id != 0; }));
    const std::size_t lost = lane->queue.size() - kept;
    if (kept > 0)
      LogInfo("alert sink " + lane->stats.name + ": " + std::to_string(kept) +
              " notification(s) not sent yet, kept for the next start");
    if (lost > 0)
      LogWarning("alert sink " + lane->stats.name + ": " + std::to_string(lost) +
                 " notification(s) not sent at shutdown");
    lane->stats.dropped += lost;
    lane->queue.clear();
  }
  started_ = false;
}

void AlertDispatcher::Submit(const Notification& n) {
  // Tests go everywhere; an alert's notifications (opening, reminders,
  // resolution) go where its severity is wanted.
  const auto sev = ParseSeverity(n.alert.severity).value_or(Severity::kInfo);
  std::vector<Lane*> targets;
  NotificationOutbox* outbox = nullptr;
  {
    MutexLock lock(mu_);
    for (auto& lane : lanes_)
      if (n.kind == NotifyKind::kTest || sev >= lane->policy.min_severity)
        targets.push_back(lane.get());
    outbox = outbox_;
  }
  if (targets.empty()) return;
  // Written before it is queued, outside the lock (a short SQLite write). A
  // test message is not kept: sent after a restart it would only confuse. An
  // outbox that cannot take it (a full or read-only disk) does not stop the
  // notification: it is still queued, only not kept across a restart.
  std::vector<std::int64_t> ids(targets.size(), 0);
  if (outbox != nullptr && n.kind != NotifyKind::kTest) {
    const std::string body = EncodeNotification(n);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      auto id = outbox->Add(targets[i]->stats.name, body);
      if (id.ok()) {
        ids[i] = *id;
      } else {
        LogWarning("alert outbox: cannot keep a notification for " + targets[i]->stats.name +
                   " (it is still sent, but lost if the daemon stops first): " +
                   id.status().ToString());
      }
    }
  }
  std::vector<std::int64_t> pushed_out;
  {
    MutexLock lock(mu_);
    for (std::size_t i = 0; i < targets.size(); ++i)
      if (std::int64_t out = PushLocked(*targets[i], {n, ids[i]}); out != 0)
        pushed_out.push_back(out);
  }
  cv_.notify_all();
  for (std::int64_t id : pushed_out) RemoveFromOutbox(id);
}

void AlertDispatcher::Work(Lane* lane) {
  MutexLock lock(mu_);
  while (true) {
    lock.Wait(cv_, [&]() REQUIRES(mu_) { return stopping_ || !lane->queue.empty(); });
    if (stopping_) return;
    Queued q = std::move(lane->queue.front());
    lane->queue.pop_front();
    const Notification& n = q.n;
    lane->busy = true;
    auto backoff = lane->policy.retry_initial;
    for (int attempt = 1;; ++attempt) {
      lock.Unlock();
      Status st = lane->sink->Send(n);
      lock.Lock();
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
      if (lock.WaitFor(cv_, backoff, [this]() REQUIRES(mu_) { return stopping_; })) {
        // Stopped while waiting to retry: kept for the next start when in
        // the outbox, lost otherwise.
        if (q.outbox_id == 0) lane->stats.dropped += 1;
        lane->busy = false;
        idle_cv_.notify_all();
        return;
      }
      backoff = std::min(backoff * 2, lane->policy.retry_max);
    }
    // Delivered or given up: either way no longer owed. Removed before the
    // lane reports idle, so a caller that waited for idleness sees it gone.
    if (q.outbox_id != 0) {
      lock.Unlock();
      RemoveFromOutbox(q.outbox_id);
      lock.Lock();
    }
    lane->busy = false;
    idle_cv_.notify_all();
  }
}

std::vector<SinkTestResult> AlertDispatcher::SendTest(const Notification& n) {
  std::vector<AlertSink*> sinks;
  {
    MutexLock lock(mu_);
    for (auto& lane : lanes_) sinks.push_back(lane->sink.get());
  }
  std::vector<SinkTestResult> out;
  for (AlertSink* s : sinks) out.push_back({s->name(), s->Send(n)});
  return out;
}

std::vector<SinkStats> AlertDispatcher::Stats() const {
  MutexLock lock(mu_);
  std::vector<SinkStats> out;
  for (const auto& lane : lanes_) {
    SinkStats s = lane->stats;
    s.queued = lane->queue.size();
    s.in_flight = lane->busy;
    out.push_back(s);
  }
  return out;
}

bool AlertDispatcher::WaitIdle(std::chrono::milliseconds timeout) {
  MutexLock lock(mu_);
  return lock.WaitFor(idle_cv_, timeout, [this]() REQUIRES(mu_) {
    return std::all_of(lanes_.begin(), lanes_.end(),
                       [](const auto& l) { return l->queue.empty() && !l->busy; });
  });
}

}  // namespace dp
