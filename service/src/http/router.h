// Router: maps a Request to the Response of the resource that handles it.
// Socket-free and pure apart from what the handlers do, so it is tested
// without a network. Built once (see api.h), then immutable:
// Route() may be called from any number of threads at once.
//
// Patterns are absolute paths whose segments are literals or `{name}`
// placeholders ("/api/v1/drives/{id}"); a placeholder matches one
// percent-decoded segment and is handed to the handler in PathParams.
// Rules, in order:
//   - a target that is not an absolute path, or has a bad %-escape: 400;
//   - a route matching path and method: its handler (HEAD runs the GET
//     handler; the server drops the body). Mutating methods (POST, PUT, PATCH,
//     DELETE) always need `Authorization: Bearer <api_token>` (auth.h); reads
//     need api_token or read_token when the tokens say so (kRead), /metrics
//     may have its own (kMetrics);
//   - a path some route matches, but not with this method: 405 + Allow;
//   - outside /api/: the fallback (static files) for GET and HEAD, 405 else;
//   - otherwise 404. Errors use the JSON error body (response.h).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "http/auth.h"
#include "http/request.h"
#include "http/response.h"

namespace dp::http {

using PathParams = std::map<std::string, std::string>;
using Handler = std::function<Response(const Request&, const PathParams&)>;

// Who may call a route. Mutating methods are kToken whatever is asked.
// kPublic: anyone (liveness: health and version). kRead: anyone while reads
// are open, else a read token (auth.h). kMetrics: as kRead, or metrics_token.
enum class Access { kPublic, kRead, kMetrics, kToken };

class Router {
 public:
  explicit Router(std::string api_token = "");
  explicit Router(AccessTokens tokens);

  void Add(Method method, std::string_view pattern, Handler handler,
           Access access = Access::kRead);
  void Get(std::string_view pattern, Handler handler, Access access = Access::kRead) {
    Add(Method::kGet, pattern, handler, access);
  }
  void Post(std::string_view pattern, Handler handler) { Add(Method::kPost, pattern, handler); }
  void Put(std::string_view pattern, Handler handler) { Add(Method::kPut, pattern, handler); }

  // Serves GET/HEAD requests outside /api/ that no route matched.
  void SetFallback(Handler handler) { fallback_ = std::move(handler); }

  Response Route(const Request& request) const;

  // Every registered (method, pattern), in registration order, so a test can
  // hold the routes against the OpenAPI document.
  std::vector<std::pair<Method, std::string>> Routes() const;

 private:
  struct Entry {
    Method method;
    std::vector<std::string> segments;  // "{name}" for a placeholder
    Handler handler;
    Access access;
  };
  static bool Match(const Entry& entry, const std::vector<std::string>& segments,
                    PathParams& params);
  Response Call(const Entry& entry, const Request& request, const PathParams& params) const;

  AccessTokens tokens_;
  std::vector<Entry> entries_;
  Handler fallback_;
};

// Splits a raw path ("/a/b%20c/") into decoded segments {"a", "b c", ""}.
// InvalidArgument if it does not start with '/' or has a bad %-escape.
Result<std::vector<std::string>> SplitPath(std::string_view raw_path);

}  // namespace dp::http
