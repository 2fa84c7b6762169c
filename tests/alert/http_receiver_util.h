// HttpReceiver: a tiny HTTP(S) server on 127.0.0.1 for the webhook tests.
// Accepts connections one at a time on its own thread, records each request
// and answers with the next configured status (the last one repeats), after
// an optional delay. With cert/key files it speaks TLS. Tests only.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace dp::testing {

struct ReceivedRequest {
  std::string method;
  std::string target;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
};

class HttpReceiver {
 public:
  struct Options {
    std::vector<int> statuses = {200};
    std::chrono::milliseconds delay{0};  // before answering
    std::string cert_file, key_file;     // both set: TLS
  };
  explicit HttpReceiver(Options options);
  ~HttpReceiver();

  int port() const { return port_; }
  std::vector<ReceivedRequest> requests() const;
  int tls_failures() const { return tls_failures_; }
  bool WaitForRequests(std::size_t n, std::chrono::milliseconds timeout) const;

 private:
  void Serve();

  Options options_;
  int port_ = 0;
  int listen_fd_ = -1;
  std::atomic<bool> stop_{false};
  std::atomic<int> tls_failures_{0};
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  std::vector<ReceivedRequest> requests_;
  std::thread thread_;
};

// A TCP port on 127.0.0.1 that nothing listens on (bound, then released).
int UnusedPort();

// Makes a self-signed certificate for `host` (CN and subjectAltName) with the
// openssl command; returns false (with a reason) when it cannot.
bool MakeSelfSignedCert(const std::string& dir, const std::string& host, std::string& cert,
                        std::string& key, std::string& why);

}  // namespace dp::testing
