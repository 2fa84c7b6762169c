// Gzip of answers for clients that take it: the page's scripts, its JSON and
// a drive's history shrink four- to tenfold, which is most of a phone's wait
// on a slow link. Pure functions; the server applies them on a handler
// thread, never on the network thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "http/request.h"
#include "http/response.h"

namespace dp::http {

// Bodies smaller than this go as they are: gzip's header and the CPU cost
// more than they save.
inline constexpr std::size_t kCompressMinBytes = 1024;

// Whether an Accept-Encoding value admits gzip (a "gzip" or "*" coding whose
// q is not 0).
bool AcceptsGzip(std::string_view accept_encoding);

// The gzip member of `data` (RFC 1952); "" only when zlib cannot allocate.
std::string GzipBytes(std::string_view data);

// Compresses `response` in place when the request accepts gzip and the body
// is text worth it (JSON, HTML, CSS, JS, SVG, plain text, metrics), not
// already encoded, and a 2xx; sets Content-Encoding and Vary. Every answer
// whose encoding depends on the request says Vary: Accept-Encoding.
void CompressForClient(const Request& request, Response& response);

}  // namespace dp::http
