#include "http/compression.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace dp::http {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool Compressible(std::string_view content_type) {
  const std::string type = Lower(content_type);
  for (std::string_view t : {"application/json", "text/", "application/javascript",
                             "image/svg+xml", "application/problem+json"})
    if (type.rfind(t, 0) == 0) return true;
  return false;
}

}  // namespace

bool AcceptsGzip(std::string_view accept_encoding) {
  bool gzip = false, star = false, gzip_named = false;
  std::string_view rest = accept_encoding;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    std::string_view item = Trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (item.empty()) continue;
    const auto semi = item.find(';');
    const std::string coding = Lower(Trim(item.substr(0, semi)));
    bool allowed = true;
    if (semi != std::string_view::npos) {
      std::string params = Lower(item.substr(semi + 1));
      const auto q = params.find("q=");
      if (q != std::string::npos) allowed = std::strtod(params.c_str() + q + 2, nullptr) > 0.0;
    }
    if (coding == "gzip" || coding == "x-gzip") {
      gzip_named = true;
      gzip = allowed;
    } else if (coding == "*") {
      star = allowed;
    }
  }
  return gzip_named ? gzip : star;
}

std::string GzipBytes(std::string_view data) {
  z_stream zs{};
  // 15 + 16: a gzip header and trailer around the deflate stream.
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return std::string();
  std::string out(deflateBound(&zs, static_cast<uLong>(data.size())) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return rc == Z_STREAM_END ? out : std::string();
}

void CompressForClient(const Request& request, Response& response) {
  if (response.status < 200 || response.status >= 300 || response.status == 204) return;
  if (!Compressible(response.content_type) || response.Header("Content-Encoding")) return;
  response.SetHeader("Vary", "Accept-Encoding");
  if (response.body.size() < kCompressMinBytes) return;
  const std::string* accept = request.Header("Accept-Encoding");
  if (!accept || !AcceptsGzip(*accept)) return;
  std::string packed = GzipBytes(response.body);
  if (packed.empty() || packed.size() >= response.body.size()) return;
  response.body = std::move(packed);
  response.SetHeader("Content-Encoding", "gzip");
}

}  // namespace dp::http
