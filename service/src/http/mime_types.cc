#include "http/mime_types.h"

#include "http/request.h"

namespace dp::http {

std::string_view MimeTypeForPath(std::string_view path) {
  struct Entry {
    std::string_view ext, type;
  };
  static constexpr Entry kTypes[] = {
      {"html", "text/html; charset=utf-8"},
      {"htm", "text/html; charset=utf-8"},
      {"css", "text/css; charset=utf-8"},
      {"js", "text/javascript; charset=utf-8"},
      {"mjs", "text/javascript; charset=utf-8"},
      {"json", "application/json"},
      {"map", "application/json"},
      {"webmanifest", "application/manifest+json"},
      {"txt", "text/plain; charset=utf-8"},
      {"md", "text/plain; charset=utf-8"},
      {"svg", "image/svg+xml"},
      {"png", "image/png"},
      {"jpg", "image/jpeg"},
      {"jpeg", "image/jpeg"},
      {"gif", "image/gif"},
      {"webp", "image/webp"},
      {"ico", "image/x-icon"},
      {"woff", "font/woff"},
      {"woff2", "font/woff2"},
      {"wasm", "application/wasm"},
  };
  auto slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  auto dot = name.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == name.size()) return "application/octet-stream";
  std::string_view ext = name.substr(dot + 1);
  for (const Entry& e : kTypes)
    if (EqualsIgnoreCase(e.ext, ext)) return e.type;
  return "application/octet-stream";
}

}  // namespace dp::http
