// StaticFiles: serves the web page's files from one root directory (config
// `webui_root`), refusing anything that could reach outside it: `..` and `.`
// segments (also %-encoded), encoded slashes or backslashes, NUL bytes, empty
// segments, hidden files, and symlinks that resolve outside the root.
// Immutable after construction; Serve() is safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"
#include "http/request.h"
#include "http/response.h"

namespace dp::http {

class StaticFiles {
 public:
  // Files larger than this are not served (the page's files are small).
  static constexpr std::uint64_t kMaxFileBytes = 32ULL << 20;

  explicit StaticFiles(std::string root);

  // GET/HEAD: 200 with the file and its MIME type; 400 for a path that tries
  // to escape; 404 for anything absent, hidden, not a regular file or outside
  // the root. "/" and paths ending in "/" serve the folder's index.html.
  Response Serve(const Request& request) const;

  // The real path of the file a raw URL path names. InvalidArgument for a
  // path that tries to escape or is malformed, NotFound otherwise.
  Result<std::string> Resolve(std::string_view raw_path) const;

  const std::string& root() const { return root_; }

 private:
  std::string root_;
};

}  // namespace dp::http
