// The field noise model of detect_quality (benchmarks/detect_field.cc says what it
// models and why). Bench code: not part of the daemon.
#pragma once

#include <cstdint>
#include <vector>

#include "config/alerts_config.h"

namespace dp::field {

struct Model {
  double noise = 0.03;         // per-series CV (log-scale sd of the heavy-tailed noise)
  double shared = 0.01;        // sd of the environment shared by a week's runs
  double season = 0.02;        // amplitude of the yearly swing
  double interference = 0.02;  // share of scheduled runs hit by unseen interference
  std::int64_t retest_seconds = 6 * 3600;
  bool gaussian = false;       // normal noise instead of Student-t (the idealised drive)
  int vdev = 3;                // healthy drives in vdevs of this many, judged against each
                               // other (EvaluatePeers); 1 = each drive alone
  int box_vdevs = 1;           // vdevs of `vdev` drives in one box (one room, one box step)
  double unit = 0.02;          // sd of a unit's own level of each figure among its siblings
  // A benign permanent box-wide change (new HBA driver or firmware, a kernel
  // whose I/O scheduler differs): every series of every drive of a vdev this
  // much worse for good from a week drawn per vdev in its second year on (0: none).
  double box_step = 0;
  // Hours-long housekeeping (SMR shingle cleaning, SSD garbage collection, a
  // media scan) on this share of drives: on housekeeping_rate of their weeks
  // the random-read series are 20-45% worse for a log-normal time (median
  // 8 h, log-sd 0.7: two in three outlast a 6 h re-test, 6% a day), gone by
  // the next week (0: none). 1% of weeks puts about 0.34 events a year past
  // the re-test on such a drive, about twice what the daemon saw before
  // events were gathered (four alerts an event, 600 alerts per 1,000
  // drive-years on such drives).
  double housekeeping = 0;
  double housekeeping_rate = 0.01;
  // The slow drive of the peer scenario: its rates (MB/s, IOPS) times
  // peer_slow_rate, its times (access, p99) times peer_slow_time.
  double peer_slow_rate = 0.83;
  double peer_slow_time = 1.2;
};

struct HealthyFigures {
  double drive_years = 0;
  long slowdown = 0, trend = 0, peer = 0, environment = 0, retests = 0, scheduled_runs = 0;
  long drives_with_alert = 0;
  // What the owner hears: event alerts notified as opened (a watch that
  // cleared first is not), of which environment notices; box-wide steps
  // modelled; automatic re-baseline marks kept.
  long notified = 0, environment_notices = 0, box_events = 0, absorbed = 0;
  double NotifiedPerThousandDriveYears() const {
    return drive_years > 0 ? 1000.0 * notified / drive_years : 0;
  }
  long alert_weeks = 0;  // drive-weeks with at least one alert opened: events a user sees
  // How often a healthy scheduled run fell outside its series' single-run
  // band on the worse side, by kind of figure (kKinds: MB/s and IOPS, access
  // times, p99) and by the baseline's size (kAges: 5-8, 9-15, 16-30, 31-99,
  // 100 runs): the band's calibration as the drive's own history makes it.
  static constexpr int kKinds = 3, kAges = 5;
  long band_judged[kKinds][kAges] = {}, band_outside[kKinds][kAges] = {};
  double PerThousandDriveYears() const {
    return drive_years > 0 ? 1000.0 * (slowdown + trend + peer + environment) / drive_years : 0;
  }
  double EventsPerThousandDriveYears() const {
    return drive_years > 0 ? 1000.0 * alert_weeks / drive_years : 0;
  }
};

struct DelayFigures {
  int trials = 0, within2 = 0, within3 = 0, within4 = 0, detected = 0, early_alerts = 0;
  // Trials whose drive's slowdown was notified (not only opened as a watch)
  // at the scheduled week the change began or the next.
  int notified_within2_weeks = 0;
  double runs_sum = 0;
  // What the verdicts promised when the change began ("a 15% drop is seen
  // within ~N runs", the fewest over the changed series): trials with a
  // promise, and those alerted within it; trials promised 2 runs, and those
  // alerted within 2; trials whose best-placed changed series measured a
  // noise CV of at most 3%, and those alerted within 2.
  int promised = 0, kept = 0, promised2 = 0, kept2 = 0, low_noise = 0, low_noise2 = 0;
};

// A sustained 15% drop of every MB/s and IOPS series; p99 latencies 1.5x;
// every seek stroke's access time 25% longer (a worn actuator, a head
// working around a bad zone).
enum class Change { kDrop15, kP99Rise, kSeekRise25 };

// A box for the peer scenario: its vdevs' sizes (one model, or two models
// alternating within each vdev when `mixed`).
struct PeerLayout {
  const char* name;
  std::vector<int> vdevs;
  bool mixed = false;
};

struct PeerFigures {
  int trials = 0;
  int notified = 0;       // the slow drive's slowdown event notified, with a peer verdict
  double cycles_sum = 0;  // weekly cycles from the change to that notification
  double healthy_drive_years = 0;
  long false_notified = 0;  // the healthy drives' slowdown events notified
  long false_peer = 0;      // healthy drives given a peer-outlier verdict
};

HealthyFigures RunHealthy(const Model& m, const DetectionConfig& cfg, int drives, int years,
                          std::uint64_t seed, int threads);
// One drive of the layout slow against its peers (Model::peer_slow_*), at
// `position` in the week's run order (0 first, 1 middle, 2 last), from its
// first run (from_start) or from a week drawn in 10-19, for `weeks` weekly
// cycles after that: every drive runs its tests each week, 30 minutes
// apart, then its re-tests, judged and carried out as the daemon does
// (JudgeRun, JudgeDuePeers, ApplyJudgement).
PeerFigures RunPeerSlow(const Model& m, const DetectionConfig& cfg, const PeerLayout& layout,
                        int position, bool from_start, int trials, int weeks, std::uint64_t seed,
                        int threads);
DelayFigures RunDelay(const Model& m, const DetectionConfig& cfg, Change change, int trials,
                      std::uint64_t seed, int threads);

}  // namespace dp::field
