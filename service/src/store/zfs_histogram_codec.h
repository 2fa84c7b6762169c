// The compact form the store keeps a ZfsWaitHistogram in (one BLOB per
// sample, schema 10): LEB128 varints — the window's seconds, then for read
// and for write the number of buckets kept, the index of the first, and
// their counts. Only the span from the first to the last non-zero bucket is
// kept (an hour of a busy disk: about 15 buckets, 40-60 bytes in all;
// an idle one: 3 bytes). Pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/zfs_latency.h"

namespace dp {

std::string EncodeZfsWaitHistogram(const ZfsWaitHistogram& h);

// nullopt for bytes that are not such an encoding (truncated, overlong, or
// more than 64 buckets).
std::optional<ZfsWaitHistogram> DecodeZfsWaitHistogram(std::string_view bytes);

}  // namespace dp
