// Deflate / Inflate: zlib (RFC 1950) compression of the large text the store
// keeps (smartctl's whole output, SMART attribute and self-test lists), so a
// snapshot costs a few KB instead of 20-50 KB. A compressed value is stored
// as a BLOB; plain TEXT in the same column (older rows, short values) reads
// back unchanged, so no migration has to rewrite old rows.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace dp {

// Values shorter than this stay plain text: zlib's header and checksum would
// make them longer.
inline constexpr std::size_t kCompressMinBytes = 128;

// zlib stream of text at the default level. Deterministic for one zlib
// build: equal text gives equal bytes (the store compares blobs to dedupe).
std::string Deflate(std::string_view text);

// Inverse of Deflate. Corrupt: the bytes are not a whole zlib stream, or it
// would inflate beyond max_bytes.
Result<std::string> Inflate(std::string_view bytes, std::size_t max_bytes = 64u << 20);

}  // namespace dp
