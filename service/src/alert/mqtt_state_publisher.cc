#include "alert/mqtt_state_publisher.h"

#include "base/log.h"

namespace dp {

MqttStatePublisher::MqttStatePublisher(std::vector<std::shared_ptr<MqttSink>> sinks,
                                       SnapshotFn snapshot, std::chrono::milliseconds debounce,
                                       std::chrono::milliseconds retry)
    : sinks_(std::move(sinks)), snapshot_(std::move(snapshot)), debounce_(debounce), retry_(retry) {}

MqttStatePublisher::~MqttStatePublisher() { Stop(); }

void MqttStatePublisher::Start() {
  std::lock_guard lock(mu_);
  if (thread_.joinable() || sinks_.empty()) return;
  stop_ = false;
  thread_ = std::thread([this] { Run(); });
}

void MqttStatePublisher::Changed() {
  std::lock_guard lock(mu_);
  stale_ = true;
  cv_.notify_all();
}

void MqttStatePublisher::Stop() {
  {
    std::lock_guard lock(mu_);
    if (!thread_.joinable()) return;
    stop_ = true;
    cv_.notify_all();
  }
  thread_.join();
}

int MqttStatePublisher::published() const {
  std::lock_guard lock(mu_);
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
  std::unique_lock lock(mu_);
  for (;;) {
    cv_.wait(lock, [&] { return stale_ || stop_; });
    if (!stale_) return;  // stopping with nothing owed
    // The rest of the burst arrives meanwhile and is in the same snapshot.
    if (!stop_) cv_.wait_for(lock, debounce_, [&] { return stop_; });
    stale_ = false;
    const bool stopping = stop_;
    lock.unlock();
    const bool ok = PublishOnce();
    lock.lock();
    if (ok) {
      ++published_;
    } else {
      stale_ = true;
      if (stopping) return;  // the broker is away: the next start publishes
      cv_.wait_for(lock, retry_, [&] { return stop_; });
    }
    if (stopping && !stale_) return;
  }
}

}  // namespace dp
