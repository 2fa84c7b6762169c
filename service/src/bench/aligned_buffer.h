// AlignedBuffer: a heap buffer whose address is aligned for O_DIRECT I/O
// (the device's logical block size, at least a page). Move-only; owned by
// whoever allocated it; not thread-safe (engines write into disjoint buffers).
#pragma once

#include <cstddef>
#include <span>

#include "base/result.h"

namespace dp {

// The kernel's page size (sysconf): 4 KiB on x86-64, 4, 16 or 64 KiB on
// arm64 kernels. Direct-I/O buffers are aligned to at least this, so each
// page of a buffer is one segment of the request.
std::size_t PageSize();

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  ~AlignedBuffer();
  AlignedBuffer(AlignedBuffer&& other) noexcept;
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept;
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;

  // size bytes aligned to `alignment` (a power of two); contents are zeroed.
  static Result<AlignedBuffer> Allocate(std::size_t size, std::size_t alignment);

  std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::span<std::byte> span() const { return {data_, size_}; }
  // Gives the memory up without freeing it (for a buffer the kernel may still
  // write into); the buffer is empty afterwards.
  void Release() {
    data_ = nullptr;
    size_ = 0;
  }

 private:
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace dp
