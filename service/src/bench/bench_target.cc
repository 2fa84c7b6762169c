#include "bench/bench_target.h"

namespace dp {

DeviceTarget::DeviceTarget(std::unique_ptr<BlockDevice> device, EngineKind engine, Clock& clock)
    : device_(std::move(device)),
      requested_(engine),
      engine_name_(EngineKindName(ResolveEngine(engine, *device_))),
      clock_(clock) {}

Result<std::unique_ptr<IoEngine>> DeviceTarget::MakeEngine(std::uint32_t queue_depth,
                                                          bool defer_completions) {
  auto engine = dp::MakeEngine(requested_, *device_, queue_depth, clock_, defer_completions);
  if (engine.ok()) engine_name_ = std::string((*engine)->name());
  return engine;
}

std::optional<DeviceCounters> DeviceTarget::ReadCounters() {
  auto c = ReadDeviceCounters(device_->stats_key());
  if (!c.ok()) return std::nullopt;
  return *c;
}

SimulatedTarget::SimulatedTarget(std::string name, SimulatedDrive drive, FakeClock& clock)
    : name_(std::move(name)), drive_(std::move(drive)), info_(drive_.Info()), clock_(clock) {}

Result<std::unique_ptr<IoEngine>> SimulatedTarget::MakeEngine(std::uint32_t queue_depth,
                                                             bool /*defer_completions*/) {
  DP_RETURN_IF_ERROR(drive_.Validate());
  info_ = drive_.Info();
  return std::unique_ptr<IoEngine>(std::make_unique<SimulatedEngine>(drive_, queue_depth, clock_));
}

}  // namespace dp
