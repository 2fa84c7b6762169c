// MqttStatePublisher: keeps the brokers' retained state in step with the
// alerts. Changed() only marks the state stale (cheap, never blocks: the
// alert service calls it under its lock); the publisher's own thread waits
// `debounce` so a burst of changes is one publish, then takes one fresh
// snapshot and publishes it to every sink. Because each publish reads the
// state anew rather than queueing events, nothing can pile up and the last
// change is never lost: a change during a publish makes another; a failed
// publish is tried again after `retry`; Stop() publishes what is still
// stale before it returns.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "alert/mqtt_sink.h"
#include "base/status.h"
#include "base/thread_annotations.h"

namespace dp {

class MqttStatePublisher {
 public:
  using SnapshotFn = std::function<Result<MqttSnapshot>()>;
  MqttStatePublisher(std::vector<std::shared_ptr<MqttSink>> sinks, SnapshotFn snapshot,
                     std::chrono::milliseconds debounce = std::chrono::seconds(2),
                     std::chrono::milliseconds retry = std::chrono::seconds(30));
  ~MqttStatePublisher();  // Stop()

  void Start();
  void Changed();
  void Stop();
  // Publishes that went to every sink (for tests).
  int published() const;

 private:
  void Run();
  bool PublishOnce();

  std::vector<std::shared_ptr<MqttSink>> sinks_;
  SnapshotFn snapshot_;
  std::chrono::milliseconds debounce_, retry_;
  mutable Mutex mu_;
  std::condition_variable cv_;
  bool stale_ GUARDED_BY(mu_) = false;
  bool stop_ GUARDED_BY(mu_) = false;
  int published_ GUARDED_BY(mu_) = 0;
  std::thread thread_;
};

}  // namespace dp
