#include "http/openapi_record_util.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>

#include "http/api.h"

namespace dp::testing {
namespace {

std::string CurrentTest() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return info ? std::string(info->test_suite_name()) + "." + info->name() : "";
}

void Append(const std::string& method, const std::string& target, int status,
            const std::string& content_type, const std::map<std::string, std::string>& headers,
            const std::string& body) {
  const char* file = std::getenv("DP_OPENAPI_RECORD");
  if (!file || !*file) return;
  std::string path = target.substr(0, target.find('?'));
  if (path != "/api" && path.rfind("/api/", 0) != 0) return;
  nlohmann::json line = {{"test", CurrentTest()}, {"method", method},   {"target", target},
                         {"status", status},      {"content_type", content_type},
                         {"headers", headers},    {"body", body}};
  std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  int fd = ::open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0) << "cannot record API responses in " << file;
  ssize_t n = ::write(fd, text.data(), text.size());
  ::close(fd);
  ASSERT_EQ(n, static_cast<ssize_t>(text.size())) << "short write to " << file;
}

}  // namespace

http::Response RouteAndRecord(const http::Router& router, const http::Request& request) {
  http::Response r = router.Route(request);
  std::map<std::string, std::string> headers;
  for (const auto& [name, value] : r.headers) {
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    headers[lower] = value;
  }
  Append(std::string(http::MethodName(request.method)), request.target, r.status, r.content_type,
         headers, request.method == http::Method::kHead ? "" : r.body);
  return r;
}

void RecordApiResponse(const std::string& method, const std::string& target,
                       const HttpResult& result) {
  if (!result.received) return;
  Append(method, target, result.status, result.Header("content-type"), result.headers,
         result.body);
}

nlohmann::json GetApiJson(Store& store, const Clock& clock, const std::string& target,
                          int want) {
  http::ApiContext ctx;
  ctx.store = &store;
  ctx.clock = &clock;
  ctx.started_at = clock.Now();
  http::Response r = RouteAndRecord(*http::BuildApiRouter(ctx),
                                    http::Request::Make(http::Method::kGet, target));
  EXPECT_EQ(r.status, want) << target << ": " << r.body;
  return nlohmann::json::parse(r.body);
}

}  // namespace dp::testing
