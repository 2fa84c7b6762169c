// HttpLimits: the bounds the server puts on its clients. Its own header so
// that the request parsing (http/beast_request.h) needs nothing of the
// server's. Plain value type.
#pragma once

#include <chrono>
#include <cstdint>

namespace dp::http {

struct HttpLimits {
  // Connections at once. When all are taken, a new one takes the place of the
  // connection that has waited longest on its client (ConnectionSlots); with
  // all busy with requests, it is closed at once. Lowered to fit the
  // descriptor limit (raised towards its hard limit first).
  int max_connections = 64;
  std::chrono::seconds read_timeout{10};     // for a whole request (and for each write)
  std::uint64_t max_body_bytes = 1 << 20;    // larger bodies: 413
  std::uint32_t max_header_bytes = 16 * 1024;  // larger headers: 431
};

}  // namespace dp::http
