// WebhookReceiver: a tiny HTTP server on 127.0.0.1 (any free port) for the
// end-to-end tests: records every request body and answers each with a fixed
// status (200, or 500 to play a broken endpoint). One thread, one connection
// at a time. Tests only.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace dp::testing {

class WebhookReceiver {
 public:
  explicit WebhookReceiver(int status = 200);
  ~WebhookReceiver();
  WebhookReceiver(const WebhookReceiver&) = delete;
  WebhookReceiver& operator=(const WebhookReceiver&) = delete;

  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/hook"; }
  std::vector<std::string> bodies() const;
  // True once a body containing needle has arrived.
  bool WaitFor(const std::string& needle, std::chrono::milliseconds timeout) const;

 private:
  void Serve();
  const int status_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::vector<std::string> bodies_;
  std::thread thread_;
};

}  // namespace dp::testing
