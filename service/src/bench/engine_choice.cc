#include "bench/engine_choice.h"

#include "base/clock.h"
#include "base/log.h"
#include "bench/pread_engine.h"
#include "bench/uring_engine.h"

namespace dp {

Result<EngineKind> ParseEngineKind(std::string_view name) {
  if (name == "auto") return EngineKind::kAuto;
  if (name == "pread") return EngineKind::kPread;
  if (name == "uring") return EngineKind::kUring;
  return InvalidArgument("unknown engine '" + std::string(name) +
                         "' (expected auto, pread or uring)");
}

std::string_view EngineKindName(EngineKind kind) {
  switch (kind) {
    case EngineKind::kAuto:
      return "auto";
    case EngineKind::kPread:
      return "pread";
    case EngineKind::kUring:
      return "uring";
  }
  return "?";
}

bool UringCompiledIn() {
#if DP_HAVE_URING
  return true;
#else
  return false;
#endif
}

bool UringUsable(std::string* why) {
#if DP_HAVE_URING
  static const std::string refusal = [] {
    SystemClock clock;
    auto ring = MakeUringEngine(-1, 1, clock);  // a one-entry ring, no file
    return ring.ok() ? std::string() : ring.status().message();
  }();
  if (why) *why = refusal.empty() ? "io_uring" : refusal;
  return refusal.empty();
#else
  if (why) *why = "io_uring not built in";
  return false;
#endif
}

EngineKind ResolveEngine(EngineKind requested, const BlockDevice& device, std::string* why) {
  if (requested != EngineKind::kAuto) {
    if (why) *why = "engine chosen by the caller";
    return requested;
  }
  if (!UringCompiledIn()) {
    if (why) *why = "io_uring not built in; pread threads";
    return EngineKind::kPread;
  }
  if (std::string refusal; !UringUsable(&refusal)) {
    if (why) *why = refusal + "; pread threads";
    return EngineKind::kPread;
  }
  if (internal::ReadsThrottled(device.stats_key())) {
    if (why)
      *why =
          "reads throttled by this process's cgroup: pread, which the throttle "
          "charges exactly (it charges io_uring reads about twice)";
    return EngineKind::kPread;
  }
  if (why) *why = "io_uring";
  return EngineKind::kUring;
}

Result<std::unique_ptr<IoEngine>> MakeEngine(EngineKind kind, const BlockDevice& device,
                                             std::uint32_t queue_depth, const Clock& clock,
                                             bool defer_completions) {
  EngineKind resolved = ResolveEngine(kind, device);
  if (resolved == EngineKind::kUring) {
    if (!UringCompiledIn())
      return Unsupported("this build has no io_uring engine (liburing missing)");
    auto engine = MakeUringEngine(device.fd(), queue_depth, clock, defer_completions);
    if (engine.ok() || kind == EngineKind::kUring) return engine;
    LogWarning(device.path() + ": " + engine.status().message() + "; using pread threads");
  }
  return std::unique_ptr<IoEngine>(std::make_unique<PreadEngine>(device.fd(), queue_depth, clock));
}

}  // namespace dp
