// BenchTarget: what the runner measures — geometry, fresh engines, a clock
// and (optionally) the device's I/O counters for the contention guard.
//  - DeviceTarget: a real BlockDevice read through pread/io_uring on a Clock.
//  - SimulatedTarget: a SimulatedDrive on its own FakeClock (deterministic;
//    no counters, so never contended). Detection tests build drives with it.
// A target is used by one runner thread at a time.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "base/fake_clock.h"
#include "bench/aligned_buffer.h"
#include "bench/block_device.h"
#include "bench/device_counters.h"
#include "bench/engine_choice.h"
#include "bench/io_engine.h"
#include "bench/simulated_engine.h"

namespace dp {

class BenchTarget {
 public:
  virtual ~BenchTarget() = default;
  virtual const std::string& name() const = 0;
  virtual const DeviceInfo& info() const = 0;
  // "uring" | "pread" | "simulated": what MakeEngine builds.
  virtual std::string engine_name() const = 0;
  // `defer_completions`: see uring_engine.h; engines without it ignore it.
  virtual Result<std::unique_ptr<IoEngine>> MakeEngine(std::uint32_t queue_depth,
                                                       bool defer_completions = false) = 0;
  virtual Clock& clock() const = 0;
  // The device's I/O counters now; nullopt when there are none to watch.
  virtual std::optional<DeviceCounters> ReadCounters() = 0;
  virtual std::size_t buffer_alignment() const { return PageSize(); }
};

class DeviceTarget final : public BenchTarget {
 public:
  // `engine` may be kAuto; it is resolved once here for this device.
  DeviceTarget(std::unique_ptr<BlockDevice> device, EngineKind engine, Clock& clock);

  const std::string& name() const override { return device_->path(); }
  const DeviceInfo& info() const override { return device_->info(); }
  std::string engine_name() const override { return engine_name_; }
  Result<std::unique_ptr<IoEngine>> MakeEngine(std::uint32_t queue_depth,
                                               bool defer_completions = false) override;
  Clock& clock() const override { return clock_; }
  std::optional<DeviceCounters> ReadCounters() override;
  std::size_t buffer_alignment() const override { return device_->buffer_alignment(); }
  const BlockDevice& device() const { return *device_; }

 private:
  std::unique_ptr<BlockDevice> device_;
  EngineKind requested_;
  std::string engine_name_;  // resolved; updated to what MakeEngine really built
  Clock& clock_;
};

class SimulatedTarget final : public BenchTarget {
 public:
  // The clock must outlive the target; give each target its own clock when
  // several run in parallel.
  SimulatedTarget(std::string name, SimulatedDrive drive, FakeClock& clock);

  const std::string& name() const override { return name_; }
  const DeviceInfo& info() const override { return info_; }
  std::string engine_name() const override { return "simulated"; }
  Result<std::unique_ptr<IoEngine>> MakeEngine(std::uint32_t queue_depth,
                                               bool defer_completions = false) override;
  Clock& clock() const override { return clock_; }
  std::optional<DeviceCounters> ReadCounters() override { return std::nullopt; }

  // The modelled drive, to age or slow it between runs.
  SimulatedDrive& drive() { return drive_; }

 private:
  std::string name_;
  SimulatedDrive drive_;
  DeviceInfo info_;
  FakeClock& clock_;
};

}  // namespace dp
