// SignalWaiter: turns SIGHUP, SIGINT and SIGTERM into return values of
// Wait() instead of asynchronous handlers. The constructor blocks them in
// the calling thread, and so in every thread started after it: create it in
// main before anything starts a thread. Wait() is called by one thread.
#pragma once

#include <signal.h>

#include <chrono>

namespace dp {

class SignalWaiter {
 public:
  SignalWaiter();
  // Blocks until one of the signals arrives; returns its number.
  int Wait();
  // Like Wait, but returns 0 when no signal came within timeout (the main
  // loop's watchdog pings).
  int WaitFor(std::chrono::milliseconds timeout);

 private:
  sigset_t set_;
};

}  // namespace dp
