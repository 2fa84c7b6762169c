// The daemon's pre-run probe on a real loop device (Linux, root, fio): its
// busy share is near 0 on an idle device and above the default deferral bar
// (10%) under every shape of foreign I/O — a streaming reader, small random
// reads at depth, medium random reads, small writes (to the test's own loop
// device's scratch backing file).
#include <gtest/gtest.h>

#include <iostream>
#include <thread>

#include "base/command_runner.h"
#include "watch/device_state_probe.h"
#include "store/store.h"
#include "support/capability.h"
#include "support/foreign_load.h"
#include "support/loop_device.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using testing::ForeignLoad;
using testing::LoadShape;
using testing::LoopDevice;

TEST(DeviceStateProbeLinuxTest, BusyShareSeesEveryShapeOfForeignIo) {
  std::string why = LoopDevice::Unavailable();
  if (!why.empty()) DP_SKIP_WITHOUT("loop devices", why);
  why = ForeignLoad::Unavailable();
  if (!why.empty()) DP_SKIP_WITHOUT("fio", why);
  auto loop = LoopDevice::Create(128ULL << 20, /*direct_io=*/true);
  ASSERT_TRUE(loop.ok()) << loop.status().ToString();
  testing::TempDir dir;
  auto store = Store::Open(dir.Path("probe.db"));
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  Drive d;
  d.id = "probe-loop";
  d.dev_path = (*loop)->path();
  d.name = (*loop)->name();
  d.transport = "virtual";
  ASSERT_TRUE((*store)->UpsertDrive(d, 0).ok());
  PosixCommandRunner runner;
  PosixDeviceOpener opener;
  DeviceStateProbeOptions opts;
  opts.window = std::chrono::milliseconds(1000);
  opts.read_smart = false;
  DeviceStateProbe probe(Config{}, runner, **store, opener, opts);

  // Idle (once udev has looked at the new device).
  double idle = 1;
  for (int i = 0; i < 10 && idle >= 0.02; ++i) {
    auto s = probe.Probe(d.id);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    idle = s->busy_share;
  }
  EXPECT_LT(idle, 0.02);
  for (LoadShape shape : testing::AllLoadShapes()) {
    auto load = ForeignLoad::Start(d.dev_path, shape);
    ASSERT_TRUE(load.ok()) << load.status().ToString();
    ASSERT_TRUE((*load)->WaitForCounters((*loop)->MajMin())) << testing::LoadShapeName(shape);
    auto s = probe.Probe(d.id);
    (*load)->Stop();
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_GT(s->busy_share, 0.10) << testing::LoadShapeName(shape);
    std::cout << "[figures] probe busy share, " << testing::LoadShapeName(shape) << ": "
              << s->busy_share << " (idle " << idle << ")\n";
  }
}

}  // namespace
}  // namespace dp
