#include "http/static_files.h"

#include <sys/stat.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "http/mime_types.h"

namespace dp::http {
namespace {

// realpath(3) as a Result.
Result<std::string> RealPath(const std::string& path) {
  char buf[PATH_MAX];
  if (!::realpath(path.c_str(), buf)) return ErrnoStatus(errno, path);
  return std::string(buf);
}

}  // namespace

StaticFiles::StaticFiles(std::string root) : root_(std::move(root)) {}

Result<std::string> StaticFiles::Resolve(std::string_view raw_path) const {
  if (raw_path.empty() || raw_path.front() != '/')
    return InvalidArgument("the path must start with '/'");
  std::string relative;
  std::string_view rest = raw_path.substr(1);
  bool last = false;
  while (!last) {
    auto slash = rest.find('/');
    last = slash == std::string_view::npos;
    std::string_view raw_segment = rest.substr(0, slash);
    rest = last ? std::string_view() : rest.substr(slash + 1);
    if (raw_segment.empty()) {
      if (last) {  // "/" or "dir/": the folder's index
        relative += relative.empty() ? "index.html" : "/index.html";
        break;
      }
      return InvalidArgument("empty path segment");
    }
    auto decoded = PercentDecode(raw_segment);
    if (!decoded.ok()) return decoded.status();
    const std::string& seg = *decoded;
    if (seg == "." || seg == "..") return InvalidArgument("'.' and '..' are not allowed in paths");
    if (seg.find_first_of(std::string_view("/\\\0", 3)) != std::string::npos)
      return InvalidArgument("encoded '/', '\\' or NUL in a path segment");
    if (seg.front() == '.') return NotFound("hidden file");
    if (!relative.empty()) relative += '/';
    relative += seg;
  }

  auto real_root = RealPath(root_);
  if (!real_root.ok()) return NotFound("web UI folder not found: " + root_);
  auto real_file = RealPath(*real_root + "/" + relative);
  if (!real_file.ok()) return NotFound(relative);
  const std::string& rr = *real_root;
  const std::string& rf = *real_file;
  bool inside = rf.size() > rr.size() && rf.compare(0, rr.size(), rr) == 0 &&
                (rr == "/" || rf[rr.size()] == '/');
  if (!inside) return NotFound(relative + " resolves outside the web UI folder");
  struct stat st {};
  if (::stat(rf.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return NotFound(relative);
  return rf;
}

Response StaticFiles::Serve(const Request& request) const {
  std::string_view path = request.Path();
  auto file = Resolve(path);
  if (!file.ok()) {
    if (file.status().code() == StatusCode::kInvalidArgument)
      return ErrorResponse(400, "bad_request", "bad path " + std::string(path) + ": " +
                                                    file.status().message());
    return ErrorResponse(404, "not_found", "no such file: " + std::string(path));
  }
  std::ifstream in(*file, std::ios::binary);
  if (!in) return ErrorResponse(404, "not_found", "no such file: " + std::string(path));
  in.seekg(0, std::ios::end);
  auto size = static_cast<std::uint64_t>(in.tellg());
  if (size > kMaxFileBytes) return ErrorResponse(404, "not_found", "file too large to serve");
  in.seekg(0);
  Response r;
  r.status = 200;
  r.content_type = std::string(MimeTypeForPath(*file));
  r.body.resize(size);
  in.read(r.body.data(), static_cast<std::streamsize>(size));
  r.body.resize(static_cast<std::size_t>(in.gcount()));
  r.SetHeader("Cache-Control", "no-cache");
  // The page loads nothing from elsewhere; say so, so injected markup cannot.
  r.SetHeader("Content-Security-Policy",
              "default-src 'self'; img-src 'self' data:; object-src 'none'; "
              "base-uri 'none'; frame-ancestors 'none'");
  return r;
}

}  // namespace dp::http
