// RetentionConfig: how long the store keeps each kind of detail (the
// "retention" key of the configuration). Plain value type; the store applies
// it (Store::ApplyRetention), the daemon once at start-up and then every
// interval_hours.
//
// Sized for a NAS boot device: with the default schedules (SMART every 4 h,
// discovery hourly, the read tests weekly) these defaults keep a drive's
// history near 0.5 MB a year (benchmarks/db_size measures it).
#pragma once

namespace dp {

struct RetentionConfig {
  bool enabled = true;         // false: nothing is ever removed
  int interval_hours = 24;     // a pass this often (and one at start-up)
  int smart_full_days = 7;     // every SMART snapshot, smartctl's output included
  int smart_daily_days = 90;   // then one snapshot a day, then one a week (every
                               // one whose counters changed is kept regardless)
  int smart_runs_days = 90;    // successful `smart` runs older than this are removed
  int histogram_days = 90;     // latency histograms of older runs are removed
  int detail_days = 365;       // older runs keep only mb_per_s, iops, access_ms, p99_us
  bool operator==(const RetentionConfig&) const = default;
};

}  // namespace dp
