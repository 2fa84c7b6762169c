// The real diskpulsed over real HTTP, every /api/v1 route once or more — with
// a file target run for real so runs, points and history have content — and
// the error statuses the server itself answers (400, 401, 404, 405, 413,
// 431). Each response is recorded for validate_responses.py, which holds it
// against the OpenAPI document; here the statuses are asserted.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "http/openapi_record_util.h"
#include "support/capability.h"
#include "support/daemon_process.h"
#include "support/http_client.h"
#include "support/loop_device.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using dp::testing::DaemonProcess;
using dp::testing::HeaderList;
using dp::testing::HttpResult;
using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kToken = "openapi-live-token";

class OpenApiLiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string dir = dp::testing::LoopDevice::DirectIoDir();
    if (dir.empty())
      DP_SKIP_WITHOUT("O_DIRECT", "no folder supporting O_DIRECT for the target file");
    target_ = dir + "/diskpulse-openapi-" + std::to_string(::getpid()) + ".img";
    { std::ofstream(target_).flush(); }
    std::filesystem::resize_file(target_, 64ULL << 20);
    json patch = {
        {"api_token", kToken},
        {"targets", json::array({{{"path", target_}, {"name", "bench-a"}}})},
        {"bench", {{"engine", "pread"}, {"max_seconds", 1}, {"max_bytes", 64ULL << 20}}},
        {"http", {{"max_body_bytes", 4096}, {"max_header_bytes", 8192}}},
    };
    // An empty stand-in sysfs: discovery finds no disks, only the file target.
    std::filesystem::create_directories(tmp_.path() / "host" / "sys" / "block");
    auto d = DaemonProcess::Start(tmp_, patch);
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    daemon_ = std::move(d).value();
  }
  void TearDown() override {
    daemon_.reset();
    if (!target_.empty()) std::filesystem::remove(target_);
  }

  HttpResult Call(const std::string& method, const std::string& target,
                  const std::string& body = "", bool token = true) {
    HeaderList headers;
    if (token) headers.push_back({"Authorization", std::string("Bearer ") + kToken});
    if (!body.empty()) headers.push_back({"Content-Type", "application/json"});
    HttpResult r = dp::testing::HttpRequest(daemon_->port(), method, target, body, headers, 10s);
    EXPECT_TRUE(r.received) << method << " " << target << ": " << r.error;
    dp::testing::RecordApiResponse(method, target, r);
    return r;
  }
  // Asserts the status and returns the parsed body.
  json Expect(int status, const std::string& method, const std::string& target,
              const std::string& body = "", bool token = true) {
    HttpResult r = Call(method, target, body, token);
    EXPECT_EQ(r.status, status) << method << " " << target << ": " << r.body;
    return r.Json();
  }

  dp::testing::TempDir tmp_;
  std::string target_;
  std::unique_ptr<DaemonProcess> daemon_;
};

TEST_F(OpenApiLiveTest, EveryRouteAnswersAsDocumented) {
  Expect(200, "GET", "/api/v1/health");
  Expect(200, "GET", "/api/v1/version");
  Expect(200, "GET", "/api/v1/tests");
  json doc = Expect(200, "GET", "/api/v1/openapi.json");
  EXPECT_EQ(doc["openapi"], "3.1.0");

  // The file target appears once discovery ran.
  json drives;
  for (int i = 0; i < 100; ++i) {
    drives = Expect(200, "GET", "/api/v1/drives");
    if (drives.is_array() && !drives.empty()) break;
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_FALSE(drives.empty()) << daemon_->Output();
  Expect(200, "GET", "/api/v1/drives/bench-a");
  Expect(404, "GET", "/api/v1/drives/no-such-drive");
  Expect(400, "GET", "/api/v1/drives/bad%zzescape");

  // A real run, followed to its end.
  // force: a busy machine must not defer it (deferral is not what this checks).
  // Discovery stores the drive before the scheduler takes the pass (its
  // SMART reads come between): on a loaded machine a POST in that window is
  // told the drive is unknown, rightly then; asked again, it is accepted.
  constexpr const char* kRun = R"({"drive": "bench-a", "test": "seq", "force": true})";
  HttpResult posted;
  for (int i = 0; i < 100; ++i) {
    posted = Call("POST", "/api/v1/runs", kRun);
    if (posted.status != 400 || posted.body.find("unknown_drive") == std::string::npos) break;
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(posted.status, 202) << posted.body;
  json accepted = posted.Json();
  ASSERT_TRUE(accepted.contains("id")) << accepted;
  const std::string run = "/api/v1/runs/" + std::to_string(accepted["id"].get<long>());
  json detail;
  for (int i = 0; i < 300; ++i) {
    detail = Expect(200, "GET", run);
    if (!detail.value("active", true)) break;
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(detail["outcome"], "ok") << detail << daemon_->Output();
  EXPECT_FALSE(detail["points"].empty()) << detail;
  Expect(409, "POST", run + "/cancel");
  Expect(404, "POST", "/api/v1/runs/999999/cancel");
  Expect(404, "GET", "/api/v1/runs/999999");
  Expect(200, "GET", "/api/v1/runs?test=seq&limit=5");
  Expect(400, "GET", "/api/v1/runs?outcome=great");
  Expect(404, "GET", "/api/v1/runs?drive=no-such-drive");
  Expect(400, "POST", "/api/v1/runs", R"({"drive": "bench-a", "test": "fastest"})");
  Expect(400, "POST", "/api/v1/runs", "[1, 2]");

  json history = Expect(200, "GET", "/api/v1/drives/bench-a/history?test=seq&metric=mb_per_s");
  EXPECT_FALSE(history["series"].empty()) << history;
  Expect(200, "GET", "/api/v1/drives/bench-a/history?test=seq&metric=mb_per_s&points=2");
  Expect(400, "GET", "/api/v1/drives/bench-a/history?test=seq&metric=mb_per_s&points=1");
  Expect(400, "GET", "/api/v1/drives/bench-a/history");
  Expect(404, "GET", "/api/v1/drives/no-such-drive/history?test=seq&metric=mb_per_s");

  // The page's routes: the first screen, pools, SMART over time (a file
  // target has no SMART: empty series, still the documented shape).
  json overview = Expect(200, "GET", "/api/v1/overview");
  ASSERT_EQ(overview["drives"].size(), 1u) << overview;
  EXPECT_EQ(overview["drives"][0]["name"], "bench-a");
  EXPECT_TRUE(overview["drives"][0]["read"].is_object()) << overview;
  EXPECT_FALSE(overview["drives"][0]["trend"].empty()) << overview;
  EXPECT_EQ(Expect(200, "GET", "/api/v1/pools"), json::array());
  json smart = Expect(200, "GET", "/api/v1/drives/bench-a/smart?points=50");
  EXPECT_EQ(smart["points"], 50);
  Expect(400, "GET", "/api/v1/drives/bench-a/smart?points=1");
  Expect(400, "GET", "/api/v1/drives/bench-a/smart?since=yesterday");
  Expect(404, "GET", "/api/v1/drives/no-such-drive/smart");
  json zfs = Expect(200, "GET", "/api/v1/drives/bench-a/zfs");
  EXPECT_EQ(zfs["samples"], json::array());  // a file target is no ZFS member
  Expect(400, "GET", "/api/v1/drives/bench-a/zfs?limit=0");
  Expect(404, "GET", "/api/v1/drives/no-such-drive/zfs");

  Expect(401, "POST", "/api/v1/drives/bench-a/rebaseline", "", /*token=*/false);
  json mark = Expect(201, "POST", "/api/v1/drives/bench-a/rebaseline",
                     R"({"test": "seq", "reason": "new cable"})");
  EXPECT_EQ(mark["mark"]["reason"], "new cable");
  Expect(400, "POST", "/api/v1/drives/bench-a/rebaseline", R"({"colour": "blue"})");
  Expect(404, "POST", "/api/v1/drives/no-such-drive/rebaseline");
  Expect(200, "GET", "/api/v1/drives/bench-a/rebaseline");
  Expect(200, "GET", "/api/v1/drives/bench-a");  // now with a re-baseline mark

  Expect(200, "GET", "/api/v1/alerts");
  Expect(200, "GET", "/api/v1/alerts?state=all&drive=bench-a");
  Expect(400, "GET", "/api/v1/alerts?state=sleeping");
  Expect(404, "GET", "/api/v1/alerts/12345");
  Expect(404, "POST", "/api/v1/alerts/12345/ack");
  Expect(200, "POST", "/api/v1/alerts/test");

  Expect(200, "GET", "/api/v1/schedule?count=2");
  Expect(400, "GET", "/api/v1/schedule?count=0");

  // What the router and the server answer on their own.
  HttpResult head = Call("HEAD", "/api/v1/health");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.body, "");
  HttpResult wrong = Call("DELETE", "/api/v1/drives");
  EXPECT_EQ(wrong.status, 405);
  EXPECT_EQ(wrong.Header("Allow"), "GET, HEAD");
  Expect(405, "PUT", "/api/v1/runs/1");
  Expect(404, "GET", "/api/v1/no-such-thing");
  Expect(413, "POST", "/api/v1/runs", std::string(5000, ' '));
  HttpResult big = dp::testing::HttpRequest(daemon_->port(), "GET", "/api/v1/health", "",
                                            {{"X-Filler", std::string(9000, 'x')}});
  dp::testing::RecordApiResponse("GET", "/api/v1/health", big);
  EXPECT_EQ(big.status, 431);
}

}  // namespace
}  // namespace dp
