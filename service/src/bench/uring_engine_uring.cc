#include <liburing.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "bench/uring_engine.h"

namespace dp {
namespace {

class UringEngine final : public IoEngine {
 public:
  UringEngine(int fd, std::uint32_t queue_depth, bool defer_completions, const Clock& clock)
      : fd_(fd),
        queue_depth_(queue_depth),
        want_deferred_(defer_completions),
        clock_(clock),
        slots_(queue_depth) {
    free_.reserve(queue_depth);
    for (std::uint32_t i = queue_depth; i > 0; --i) free_.push_back(i - 1);
  }
  ~UringEngine() override {
    if (ready_) {
      // Reads still in the kernel write into caller buffers: wait for them.
      std::vector<IoCompletion> sink;
      while (in_flight_ > 0) {
        auto r = Reap(in_flight_, std::chrono::seconds(1), sink);
        if (!r.ok()) break;
        sink.clear();
      }
      io_uring_queue_exit(&ring_);
    }
  }

  Status Init() {
    unsigned entries = 1;
    while (entries < queue_depth_) entries <<= 1;
    // Deferred: see uring_engine.h. Older kernels refuse the flags (before
    // 6.1 DEFER_TASKRUN, before 5.19 COOP_TASKRUN): fall back.
    const unsigned deferred = IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
                              IORING_SETUP_DEFER_TASKRUN;
    std::vector<unsigned> tries = {0u};
    if (want_deferred_) tries = {deferred, unsigned{IORING_SETUP_COOP_TASKRUN}, 0u};
    int rc = -EINVAL;
    for (unsigned flags : tries) {
      io_uring_params params{};
      params.flags = flags;
      rc = io_uring_queue_init_params(entries, &ring_, &params);
      if (rc != -EINVAL) {
        deferred_ = (flags & IORING_SETUP_DEFER_TASKRUN) != 0;
        break;
      }
    }
    if (rc < 0) return Unsupported(std::string("io_uring unavailable: ") + std::strerror(-rc));
    ready_ = true;
    if (io_uring_register_files(&ring_, &fd_, 1) == 0) fixed_file_ = true;
    return Status::Ok();
  }

  bool RegisterBuffers(const std::vector<std::byte*>& buffers, std::uint32_t length) override {
    if (fixed_buffers_) {
      io_uring_unregister_buffers(&ring_);
      fixed_buffers_ = false;
    }
    if (buffers.empty()) return false;
    std::vector<iovec> iov;
    iov.reserve(buffers.size());
    for (std::byte* b : buffers) iov.push_back({b, length});
    // May fail under RLIMIT_MEMLOCK (pinned pages are charged to it); plain
    // reads then pin per read as before.
    fixed_buffers_ =
        io_uring_register_buffers(&ring_, iov.data(), static_cast<unsigned>(iov.size())) == 0;
    return fixed_buffers_;
  }

  std::string_view name() const override { return "uring"; }
  std::uint32_t queue_depth() const override { return queue_depth_; }
  std::uint32_t in_flight() const override { return in_flight_; }
  std::uint32_t max_concurrency_seen() const override { return max_concurrency_; }

  Status Submit(const IoRequest& r) override {
    if (free_.empty())
      return ResourceExhausted("uring engine: " + std::to_string(queue_depth_) +
                               " reads already in flight");
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    if (!sqe) return Internal("uring engine: submission queue full");
    std::uint32_t slot = free_.back();
    free_.pop_back();
    slots_[slot].tag = r.tag;
    unprepared_.push_back(slot);
    const int fd = fixed_file_ ? 0 : fd_;
    if (fixed_buffers_ && r.buffer_index >= 0)
      io_uring_prep_read_fixed(sqe, fd, r.buffer, r.length, r.offset, r.buffer_index);
    else
      io_uring_prep_read(sqe, fd, r.buffer, r.length, r.offset);
    if (fixed_file_) sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data64(sqe, slot);
    ++in_flight_;
    return Status::Ok();
  }

  Result<std::size_t> Reap(std::size_t min_complete, std::chrono::nanoseconds timeout,
                           std::vector<IoCompletion>& out) override {
    if (min_complete > in_flight_) min_complete = in_flight_;
    if (!unprepared_.empty()) {
      MonoTime now = clock_.Monotonic();
      for (std::uint32_t s : unprepared_) slots_[s].submitted = now;
      unprepared_.clear();
    }
    int rc;
    if (min_complete == 0) {
      // With deferred completions nothing is posted unless the kernel is asked.
      do rc = deferred_ ? io_uring_submit_and_get_events(&ring_) : io_uring_submit(&ring_);
      while (rc == -EINTR || rc == -EAGAIN);
    } else {
      __kernel_timespec ts{};
      auto ns = timeout.count() < 0 ? 0 : timeout.count();
      ts.tv_sec = ns / 1'000'000'000;
      ts.tv_nsec = ns % 1'000'000'000;
      io_uring_cqe* first = nullptr;
      // Submit, then wait in a second call. Measured here (kernel 6.18, loop
      // device with direct I/O, liburing 2.3): one io_uring_submit_and_wait_timeout
      // call put most reads at ~4 ms (a scheduler tick): 330-410 IOPS at QD1
      // and ~11k at QD32 where fio's io_uring engine (which also submits and
      // reaps in separate calls) reached 7.5k and 37-40k; submitting first
      // gave 6.3-7.6k and 37-42k, level with fio.
      do rc = io_uring_submit(&ring_);
      while (rc == -EINTR || rc == -EAGAIN);
      while (rc >= 0) {
        rc = io_uring_wait_cqes(&ring_, &first, static_cast<unsigned>(min_complete), &ts, nullptr);
        if (rc != -EINTR) break;
      }
      if (rc == -ETIME) rc = 0;
    }
    if (rc < 0) return IoError(std::string("io_uring submit: ") + std::strerror(-rc));
    in_kernel_ = in_flight_;
    if (in_kernel_ > max_concurrency_) max_concurrency_ = in_kernel_;

    MonoTime now = clock_.Monotonic();
    std::size_t n = 0;
    unsigned head;
    io_uring_cqe* cqe;
    io_uring_for_each_cqe(&ring_, head, cqe) {
      auto slot = static_cast<std::uint32_t>(io_uring_cqe_get_data64(cqe));
      out.push_back(
          {slots_[slot].tag, cqe->res,
           std::chrono::duration_cast<std::chrono::nanoseconds>(now - slots_[slot].submitted)});
      free_.push_back(slot);
      ++n;
    }
    io_uring_cq_advance(&ring_, static_cast<unsigned>(n));
    in_flight_ -= static_cast<std::uint32_t>(n);
    return n;
  }

 private:
  struct Slot {
    std::uint64_t tag = 0;
    MonoTime submitted{};
  };
  int fd_;
  const std::uint32_t queue_depth_;
  const bool want_deferred_;
  const Clock& clock_;
  io_uring ring_{};
  bool ready_ = false;
  bool fixed_file_ = false;
  bool fixed_buffers_ = false;
  bool deferred_ = false;  // IORING_SETUP_DEFER_TASKRUN
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> unprepared_;
  std::uint32_t in_flight_ = 0, in_kernel_ = 0, max_concurrency_ = 0;
};

}  // namespace

Result<std::unique_ptr<IoEngine>> MakeUringEngine(int fd, std::uint32_t queue_depth,
                                                  const Clock& clock, bool defer_completions) {
  if (queue_depth == 0) queue_depth = 1;
  auto engine = std::make_unique<UringEngine>(fd, queue_depth, defer_completions, clock);
  DP_RETURN_IF_ERROR(engine->Init());
  return std::unique_ptr<IoEngine>(std::move(engine));
}

}  // namespace dp
