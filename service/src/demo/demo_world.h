// DemoWorld: the simulated NAS of `diskpulsed --demo`. Eight drives behind
// one controller: pool "tank" is a raidz2 of six WD Red disks with an NVMe
// SLOG and a hot spare. The disks are SimulatedDrive models (bench module)
// read by the real workloads through SimulatedTarget; their SMART is a real
// smartctl capture (demo_captures.h) parsed by the real parser, with the
// figures that move over time (power-on hours, temperature, pending
// sectors) moved. Drives and the pool have something to find:
//   sdb  loses 2.5%/month of throughput from 5 months before the demo starts,
//   sdd  grows pending sectors from 10 weeks before it and on (SMART),
//   sde  is 20% slower than its five siblings from the start (peers),
//   sdf  ran its weekly short self-test until 3 weeks before (self-test overdue),
//   sdh  a seventh WD Red, gone 2 days before the demo starts (missing),
//   tank was last scrubbed 50 days before (scrub overdue).
// Everything is a pure function of (drive, test, time): the same call gives
// the same figures, so seeded history and live runs join up.
//
// Thread-safe after construction (const methods only).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "bench/simulated_engine.h"
#include "model/bench_result.h"
#include "model/drive.h"
#include "model/pool.h"
#include "model/smart_snapshot.h"

namespace dp {

class DemoWorld {
 public:
  // `epoch`: when the demo's drives were installed; `live_from`: when the
  // demo starts (unix seconds). From then on sdd's pending sectors grow by
  // one every 5 minutes, so SMART checks keep finding new ones.
  DemoWorld(std::int64_t epoch, std::int64_t live_from);

  const std::vector<Drive>& drives() const { return drives_; }
  const std::vector<Pool>& pools() const { return pools_; }
  // The drive that went missing (not among drives()) and when it went.
  const Drive& lost_drive() const { return lost_; }
  std::int64_t lost_at() const { return live_from_ - 2 * 86400; }
  std::int64_t epoch() const { return epoch_; }

  // The points one run of a read test (seq, zones, seek, random) measures on
  // the drive at `at`. InvalidArgument for another test or drive.
  Result<std::vector<BenchPoint>> Measure(const std::string& drive_id, const std::string& test,
                                          std::int64_t at) const;
  // The drive's SMART at `at`, from its capture.
  Result<SmartSnapshot> Smart(const std::string& drive_id, std::int64_t at) const;

  // Read tests the demo measures.
  static const std::vector<std::string>& ReadTests();

 private:
  struct Sim {
    SimulatedDrive model;
    bool nvme = false;
    double decay_per_month = 0;     // from decay_from on
    std::int64_t decay_from = 0;
    std::int64_t pending_from = 0;  // 0 = never; else pending sectors grow from then
    int temperature_offset = 0;
    bool self_tests = false;           // a weekly short self-test in its log
    std::int64_t self_tests_until = 0; // 0 = to this day; else the last ran before then
  };
  const Sim* SimOf(const std::string& drive_id) const;

  std::int64_t epoch_, live_from_;
  std::vector<Drive> drives_;
  std::vector<Sim> sims_;  // parallel to drives_
  std::vector<Pool> pools_;
  Drive lost_;
  SmartSnapshot hdd_smart_, nvme_smart_;
};

}  // namespace dp
