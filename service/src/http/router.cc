#include "http/router.h"

#include <exception>
#include <set>

#include "base/log.h"

namespace dp::http {
namespace {

bool IsPlaceholder(std::string_view s) {
  return s.size() >= 2 && s.front() == '{' && s.back() == '}';
}

std::string AllowHeader(const std::set<Method>& methods) {
  std::set<Method> all = methods;
  if (all.count(Method::kGet)) all.insert(Method::kHead);
  std::string out;
  for (Method m : all) {
    if (!out.empty()) out += ", ";
    out += MethodName(m);
  }
  return out;
}

}  // namespace

Result<std::vector<std::string>> SplitPath(std::string_view raw_path) {
  if (raw_path.empty() || raw_path.front() != '/')
    return InvalidArgument("the request target must be an absolute path such as /api/v1/health");
  std::vector<std::string> out;
  std::string_view rest = raw_path.substr(1);
  while (true) {
    auto slash = rest.find('/');
    auto decoded = PercentDecode(rest.substr(0, slash));
    if (!decoded.ok()) return decoded.status();
    out.push_back(std::move(decoded).value());
    if (slash == std::string_view::npos) break;
    rest = rest.substr(slash + 1);
  }
  return out;
}

Router::Router(std::string api_token) { tokens_.api_token = std::move(api_token); }

Router::Router(AccessTokens tokens) : tokens_(std::move(tokens)) {}

void Router::Add(Method method, std::string_view pattern, Handler handler, Access access) {
  Entry e;
  e.method = method;
  std::string_view rest = pattern.substr(pattern.empty() || pattern.front() != '/' ? 0 : 1);
  while (true) {
    auto slash = rest.find('/');
    e.segments.emplace_back(rest.substr(0, slash));
    if (slash == std::string_view::npos) break;
    rest = rest.substr(slash + 1);
  }
  e.handler = std::move(handler);
  e.access = IsMutating(method) ? Access::kToken : access;
  entries_.push_back(std::move(e));
}

bool Router::Match(const Entry& entry, const std::vector<std::string>& segments,
                   PathParams& params) {
  if (entry.segments.size() != segments.size()) return false;
  PathParams found;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& want = entry.segments[i];
    if (IsPlaceholder(want)) {
      if (segments[i].empty()) return false;
      found[want.substr(1, want.size() - 2)] = segments[i];
    } else if (want != segments[i]) {
      return false;
    }
  }
  params = std::move(found);
  return true;
}

Response Router::Call(const Entry& entry, const Request& request,
                      const PathParams& params) const {
  std::optional<Response> denied;
  switch (entry.access) {
    case Access::kPublic: break;
    case Access::kRead: denied = CheckReadToken(request, tokens_); break;
    case Access::kMetrics: denied = CheckMetricsToken(request, tokens_); break;
    case Access::kToken: denied = CheckBearerToken(request, tokens_.api_token); break;
  }
  if (denied) return *denied;
  try {
    return entry.handler(request, params);
  } catch (const std::exception& e) {
    LogError(std::string("http: ") + std::string(MethodName(request.method)) + " " +
             request.target + ": " + e.what());
    return ErrorResponse(500, "internal", "internal error; the daemon's log has the details");
  }
}

std::vector<std::pair<Method, std::string>> Router::Routes() const {
  std::vector<std::pair<Method, std::string>> out;
  for (const Entry& e : entries_) {
    std::string pattern;
    for (const std::string& s : e.segments) pattern += "/" + s;
    out.emplace_back(e.method, pattern);
  }
  return out;
}

Response Router::Route(const Request& request) const {
  std::string_view path = request.Path();
  auto segments = SplitPath(path);
  if (!segments.ok()) return ErrorResponse(400, "bad_request", segments.status().message());

  std::set<Method> allowed;
  for (const Entry& e : entries_) {
    PathParams params;
    if (!Match(e, *segments, params)) continue;
    bool same = e.method == request.method ||
                (request.method == Method::kHead && e.method == Method::kGet);
    if (same) return Call(e, request, params);
    allowed.insert(e.method);
  }
  if (!allowed.empty()) {
    Response r = ErrorResponse(405, "method_not_allowed",
                               std::string(MethodName(request.method)) + " is not allowed on " +
                                   std::string(path) + " (allowed: " + AllowHeader(allowed) + ")");
    r.SetHeader("Allow", AllowHeader(allowed));
    return r;
  }
  bool api = path == "/api" || path.starts_with("/api/");
  if (fallback_ && !api) {
    if (request.method == Method::kGet || request.method == Method::kHead) {
      try {
        return fallback_(request, {});
      } catch (const std::exception& e) {
        LogError(std::string("http: ") + request.target + ": " + e.what());
        return ErrorResponse(500, "internal", "internal error; the daemon's log has the details");
      }
    }
    Response r = ErrorResponse(405, "method_not_allowed",
                               std::string(MethodName(request.method)) +
                                   " is not allowed on static files (allowed: GET, HEAD)");
    r.SetHeader("Allow", "GET, HEAD");
    return r;
  }
  return ErrorResponse(404, "not_found", "no such resource: " + std::string(path));
}

}  // namespace dp::http
