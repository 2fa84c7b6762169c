#include "webui/browser_util.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <thread>

namespace dp::testing {
namespace {

using nlohmann::json;
using Ms = std::chrono::milliseconds;

std::string DecodeBase64(const std::string& in) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  int bits = 0, acc = 0;
  for (char c : in) {
    int v = value(c);
    if (v < 0) continue;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return out;
}

}  // namespace

std::string Browser::FindChromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/local/bin/chromium"})
    if (::access(p, X_OK) == 0) return p;
  return "";
}

Result<std::unique_ptr<Browser>> Browser::Launch(const std::string& chromium,
                                                 const std::string& profile_dir, int width,
                                                 int height) {
  // A write to a browser that died must be an error, not the end of the test.
  ::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2];  // in: we write, chromium reads fd 3; out: chromium writes fd 4
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
    return Internal("pipe failed");
  std::vector<std::string> args = {
      chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--disable-extensions", "--remote-debugging-pipe", "--user-data-dir=" + profile_dir,
      "--window-size=" + std::to_string(width) + "," + std::to_string(height), "about:blank"};
  pid_t pid = ::fork();
  if (pid < 0) return Internal("fork failed");
  if (pid == 0) {
    // Out of the way first: the pipes may themselves be fds 3 and 4 (and a
    // dup2 onto itself would keep O_CLOEXEC).
    int read_end = ::fcntl(in[0], F_DUPFD, 10);
    int write_end = ::fcntl(out[1], F_DUPFD, 10);
    ::dup2(read_end, 3);
    ::dup2(write_end, 4);
    int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 1);
    ::dup2(null, 2);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  std::unique_ptr<Browser> b(new Browser());
  b->pid_ = pid;
  b->to_browser_ = in[1];
  b->from_browser_ = out[0];
  // The page Chromium opened.
  DP_ASSIGN_OR_RETURN(json targets, b->Call("Target.getTargets", json::object(), false));
  std::string target;
  for (const json& t : targets["targetInfos"])
    if (t.value("type", "") == "page") target = t.value("targetId", "");
  if (target.empty()) {
    DP_ASSIGN_OR_RETURN(json created,
                        b->Call("Target.createTarget", {{"url", "about:blank"}}, false));
    target = created.value("targetId", "");
  }
  DP_ASSIGN_OR_RETURN(json attached, b->Call("Target.attachToTarget",
                                             {{"targetId", target}, {"flatten", true}}, false));
  b->session_ = attached.value("sessionId", "");
  for (const char* domain : {"Runtime.enable", "Page.enable", "Log.enable"})
    DP_RETURN_IF_ERROR(b->Call(domain).status());
  return b;
}

Browser::~Browser() {
  if (to_browser_ >= 0) ::close(to_browser_);
  if (from_browser_ >= 0) ::close(from_browser_);
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 50; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return;
      std::this_thread::sleep_for(Ms(100));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
}

Status Browser::Send(const json& message) {
  std::string text = message.dump();
  text.push_back('\0');
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(to_browser_, text.data() + done, text.size() - done);
    if (n <= 0) return Unavailable("chromium closed its pipe");
    done += static_cast<std::size_t>(n);
  }
  return Status::Ok();
}

Result<json> Browser::Receive(Ms timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (auto end = buffer_.find('\0'); end != std::string::npos) {
      std::string one = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      json j = json::parse(one, nullptr, false);
      if (!j.is_discarded()) return j;
      continue;
    }
    auto left = std::chrono::duration_cast<Ms>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return Timeout("no answer from chromium in time");
    pollfd p{from_browser_, POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    char chunk[65536];
    ssize_t n = ::read(from_browser_, chunk, sizeof chunk);
    if (n <= 0) return Unavailable("chromium exited");
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

void Browser::OnEvent(const json& e) {
  const std::string method = e.value("method", "");
  const json& p = e.contains("params") ? e["params"] : json::object();
  if (method == "Runtime.exceptionThrown") {
    const json& d = p.value("exceptionDetails", json::object());
    std::string text = d.value("text", "");
    if (d.contains("exception")) text += " " + d["exception"].value("description", "");
    errors_.push_back("exception: " + text);
  } else if (method == "Runtime.consoleAPICalled" && p.value("type", "") == "error") {
    std::string text;
    for (const json& a : p.value("args", json::array()))
      text += (a.contains("value") ? a["value"].dump() : a.value("description", "")) + " ";
    errors_.push_back("console.error: " + text);
  } else if (method == "Log.entryAdded") {
    const json& entry = p.value("entry", json::object());
    if (entry.value("level", "") == "error")
      errors_.push_back("log: " + entry.value("text", "") + " " + entry.value("url", ""));
  }
}

Result<json> Browser::Call(const std::string& method, json params, bool in_page) {
  const int id = next_id_++;
  json message = {{"id", id}, {"method", method}, {"params", std::move(params)}};
  if (in_page && !session_.empty()) message["sessionId"] = session_;
  DP_RETURN_IF_ERROR(Send(message));
  while (true) {
    DP_ASSIGN_OR_RETURN(json reply, Receive(Ms(60000)));
    if (reply.contains("id") && reply["id"] == id) {
      if (reply.contains("error"))
        return Internal(method + ": " + reply["error"].value("message", reply["error"].dump()));
      return reply.value("result", json::object());
    }
    if (reply.contains("method")) OnEvent(reply);
  }
}

Status Browser::Open(const std::string& url) {
  DP_RETURN_IF_ERROR(Call("Page.navigate", {{"url", url}}).status());
  return WaitFor("document.readyState === 'complete'");
}

Result<json> Browser::Eval(const std::string& js) {
  DP_ASSIGN_OR_RETURN(json r, Call("Runtime.evaluate", {{"expression", js},
                                                         {"awaitPromise", true},
                                                         {"returnByValue", true}}));
  if (r.contains("exceptionDetails")) {
    const json& d = r["exceptionDetails"];
    std::string text = d.value("text", "exception");
    if (d.contains("exception")) text += ": " + d["exception"].value("description", "");
    return InvalidArgument("page: " + text + " in: " + js.substr(0, 120));
  }
  return r.contains("result") && r["result"].contains("value") ? r["result"]["value"] : json(nullptr);
}

Status Browser::WaitFor(const std::string& js, Ms timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string last;
  while (std::chrono::steady_clock::now() < deadline) {
    auto v = Eval("!!(" + js + ")");
    if (v.ok() && v->is_boolean() && v->get<bool>()) return Status::Ok();
    if (!v.ok()) last = v.status().message();
    std::this_thread::sleep_for(Ms(100));
  }
  return Timeout("timed out waiting for: " + js + (last.empty() ? "" : " (" + last + ")"));
}

Status Browser::Screenshot(const std::string& png_path) {
  DP_ASSIGN_OR_RETURN(json r, Call("Page.captureScreenshot", {{"format", "png"},
                                                              {"captureBeyondViewport", true}}));
  std::ofstream f(png_path, std::ios::binary);
  f << DecodeBase64(r.value("data", ""));
  return f ? Status::Ok() : Internal("cannot write " + png_path);
}

Status Browser::EmulateDark(bool dark) {
  return Call("Emulation.setEmulatedMedia",
              {{"features", json::array({{{"name", "prefers-color-scheme"},
                                           {"value", dark ? "dark" : "light"}}})}})
      .status();
}

Status Browser::SetViewport(int width, int height, bool mobile) {
  return Call("Emulation.setDeviceMetricsOverride", {{"width", width},
                                                      {"height", height},
                                                      {"deviceScaleFactor", 1},
                                                      {"mobile", mobile}})
      .status();
}

Status Browser::RunOnNewDocument(const std::string& js) {
  return Call("Page.addScriptToEvaluateOnNewDocument", {{"source", js}}).status();
}

Status Browser::ThrottleCpu(double rate) {
  return Call("Emulation.setCPUThrottlingRate", {{"rate", rate}}).status();
}

}  // namespace dp::testing
