#include "store/compressed_text.h"

#include <zlib.h>

namespace dp {

std::string Deflate(std::string_view text) {
  uLongf size = compressBound(static_cast<uLong>(text.size()));
  std::string out(size, '\0');
  int rc = compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                     reinterpret_cast<const Bytef*>(text.data()), static_cast<uLong>(text.size()),
                     Z_DEFAULT_COMPRESSION);
  if (rc != Z_OK) return std::string();  // only on Z_MEM_ERROR; callers then keep the text
  out.resize(size);
  return out;
}

Result<std::string> Inflate(std::string_view bytes, std::size_t max_bytes) {
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return Internal("zlib: inflateInit failed");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char chunk[16384];
  int rc = Z_OK;
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(chunk);
    zs.avail_out = sizeof chunk;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(chunk, sizeof chunk - zs.avail_out);
    if (out.size() > max_bytes) rc = Z_BUF_ERROR;
    if (rc == Z_OK && zs.avail_in == 0 && zs.avail_out != 0) rc = Z_DATA_ERROR;  // truncated
  }
  inflateEnd(&zs);
  if (rc != Z_STREAM_END)
    return Corrupt("compressed column does not inflate (zlib error " + std::to_string(rc) + ")");
  return out;
}

}  // namespace dp
