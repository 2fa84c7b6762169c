// Browser: headless Chromium driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe: JSON messages ended by NUL on fds 3 and 4), so a
// test can open a page, run JavaScript in it (clicks, reading the DOM),
// wait for a condition, switch to dark mode or a phone's viewport, take
// screenshots and collect console errors and uncaught exceptions.
// One page per Browser. Not thread-safe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace dp::testing {

class Browser {
 public:
  // "" when no Chromium is installed.
  static std::string FindChromium();
  // Starts Chromium with its profile in profile_dir and opens a blank page.
  static Result<std::unique_ptr<Browser>> Launch(const std::string& chromium,
                                                 const std::string& profile_dir, int width = 1280,
                                                 int height = 900);
  ~Browser();
  Browser(const Browser&) = delete;
  Browser& operator=(const Browser&) = delete;

  // Navigates and waits for the load event.
  Status Open(const std::string& url);
  // Evaluates `js` in the page (awaiting a promise); the value as JSON.
  // An exception in the page is an error with its text.
  Result<nlohmann::json> Eval(const std::string& js);
  // Polls `js` until it is truthy; DeadlineExceeded naming it otherwise.
  Status WaitFor(const std::string& js, std::chrono::milliseconds timeout = std::chrono::seconds(20));
  Status Screenshot(const std::string& png_path);
  Status EmulateDark(bool dark);
  Status SetViewport(int width, int height, bool mobile);
  // Runs `js` in every document this page opens from now on, before the
  // page's own scripts (observers that must see the whole load).
  Status RunOnNewDocument(const std::string& js);
  // Slows the page's CPU `rate` times (1: off), as Lighthouse's phone does.
  Status ThrottleCpu(double rate);
  // Console errors, uncaught exceptions and failed loads seen so far
  // (events that arrived while waiting for answers).
  std::vector<std::string> Errors() const { return errors_; }

 private:
  Browser() = default;
  Result<nlohmann::json> Call(const std::string& method, nlohmann::json params = nlohmann::json::object(),
                              bool in_page = true);
  Status Send(const nlohmann::json& message);
  Result<nlohmann::json> Receive(std::chrono::milliseconds timeout);
  void OnEvent(const nlohmann::json& event);

  pid_t pid_ = -1;
  int to_browser_ = -1, from_browser_ = -1;
  std::string buffer_;
  std::string session_;
  int next_id_ = 1;
  std::vector<std::string> errors_;
};

}  // namespace dp::testing
