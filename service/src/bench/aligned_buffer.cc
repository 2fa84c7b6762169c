#include "bench/aligned_buffer.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

namespace dp {

std::size_t PageSize() {
  static const std::size_t page = [] {
    long n = ::sysconf(_SC_PAGESIZE);
    return n > 0 ? static_cast<std::size_t>(n) : std::size_t{4096};
  }();
  return page;
}

AlignedBuffer::~AlignedBuffer() { std::free(data_); }

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
  if (this != &other) {
    std::free(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

Result<AlignedBuffer> AlignedBuffer::Allocate(std::size_t size, std::size_t alignment) {
  if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0)
    return InvalidArgument("buffer alignment " + std::to_string(alignment) +
                           " is not a power of two");
  if (size == 0) return InvalidArgument("empty buffer");
  void* p = nullptr;
  if (posix_memalign(&p, alignment, size) != 0)
    return ResourceExhausted("cannot allocate " + std::to_string(size) + " bytes");
  std::memset(p, 0, size);
  AlignedBuffer b;
  b.data_ = static_cast<std::byte*>(p);
  b.size_ = size;
  return b;
}

}  // namespace dp
