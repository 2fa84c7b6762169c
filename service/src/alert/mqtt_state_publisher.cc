#include "alert/mqtt_state_publisher.h"

#include "base/log.h"

namespace dp {

MqttStatePublisher::MqttStatePublisher(std::vector<std::shared_ptr<MqttSink>> sinks,
                                       SnapshotFn snapshot, std::chrono::milliseconds debounce,
                                       std::chrono::milliseconds retry)
    : sinks_(std::move(sinks)), snapshot_(std::move(snapshot)), debounce_(debounce), retry_(retry) {}

MqttStatePublisher::~MqttStatePublisher() { Stop(); }

void MqttStatePublisher::Start() {
  MutexLock lock(mu_);
  if (thread_.joinable() || sinks_.empty()) return;
  stop_ = false;
  thread_ = std::thread([this] { Run(); });
}

void MqttStatePublisher::Changed() {
  MutexLock lock(mu_);
  stale_ = true;
  cv_.notify_all();
}

void MqttStatePublisher::Stop() {
  {
    MutexLock lock(mu_);
    if (!thread_.joinable()) return;
    stop_ = true;
    cv_.notify_all();
  }
  thread_.join();
}

int MqttStatePublisher::published() const {
  MutexLock lock(mu_);
  return published_;
}

bool MqttStatePublisher::PublishOnce() {
  auto snapshot = snapshot_();
  if (!snapshot.ok()) {
    LogWarning("mqtt: state not published: " + snapshot.status().ToString());
    return false;
  }
  bool all = true;
  for (const auto& sink : sinks_) {
    Status s = sink->PublishState(*snapshot);
    if (!s.ok()) {
      all = false;
      LogWarning("alerts: " + sink->name() + ": state not published: " + s.ToString());
    }
  }
  return all;
}

void MqttStatePublisher::Run() {
  MutexLock lock(mu_);
  for (;;) {
    lock.Wait(cv_, [this]() REQUIRES(mu_) { return stale_ || stop_; });
    if (!stale_) return;  // stopping with nothing owed
    // The rest of the burst arrives meanwhile and is in the same snapshot.
    if (!stop_) lock.WaitFor(cv_, debounce_, [this]() REQUIRES(mu_) { return stop_; });
    stale_ = false;
    const bool stopping = stop_;
    lock.Unlock();
    const bool ok = PublishOnce();
    lock.Lock();
    if (ok) {
      ++published_;
    } else {
      stale_ = true;
      if (stopping) return;  // the broker is away: the next start publishes
      lock.WaitFor(cv_, retry_, [this]() REQUIRES(mu_) { return stop_; });
    }
    if (stopping && !stale_) return;
  }
}

}  // namespace dp
