// MIME types for the web page's static files, by file extension. Pure.
#pragma once

#include <string_view>

namespace dp::http {

// "text/html; charset=utf-8" for "index.html", "text/javascript; charset=utf-8"
// for "app.js", ...; "application/octet-stream" for anything unknown.
std::string_view MimeTypeForPath(std::string_view path);

}  // namespace dp::http
