// Eventually: polls `probe` every `every` until it returns true or `timeout`
// has passed, then asks it one last time. For tests that wait on a daemon or
// a worker thread without a signal to wait on.
#pragma once

#include <chrono>
#include <thread>

namespace dp::testing {

template <typename F>
bool Eventually(F probe, std::chrono::milliseconds timeout,
                std::chrono::milliseconds every = std::chrono::milliseconds(100)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (probe()) return true;
    std::this_thread::sleep_for(every);
  }
  return probe();
}

}  // namespace dp::testing
