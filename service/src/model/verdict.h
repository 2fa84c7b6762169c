// Verdict: what the detect module concluded about one condition of one drive
// after one evaluation (a run, a SMART snapshot, a pool status), with the
// evidence that justifies it: baseline, band, the runs and their numbers.
// The alert module turns firing verdicts into alerts and clear verdicts into
// resolutions; the web page and alert text show the evidence. Plain value type
// (owner: detect; shared contract).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dp {

enum class VerdictKind {
  kClear,              // evaluated, nothing wrong (counts towards auto-resolve)
  kBaselining,         // not enough good runs yet to judge; neither clear nor firing
  kInconclusive,       // the evaluated run is no evidence (contended, partial, failed)
                       // or there is nothing to compare with (no peers measured)
  kNeedsConfirmation,  // one run outside the band: re-test soon, no alert yet
  kSlowdown,           // confirmed: two consecutive good runs outside the band
  kTrend,              // significant Theil-Sen slope in the bad direction
  kPeerOutlier,        // slower than its vdev siblings of the same model
  kSmart,              // a SMART problem (counter increase, health, self-test, ...)
  kPoolErrors,         // ZFS READ/WRITE/CKSUM errors or a bad member state
  kEnvironment,        // every measured member of a vdev got worse in the same window:
                       // controller, enclosure temperature or pool load, not one drive
  kHealth,             // a state read from the system: a drive missing, a pool not
                       // ONLINE, a scrub or self-test overdue, an SSD worn
};

enum class Severity { kInfo = 0, kWarning = 1, kCritical = 2 };

std::string_view VerdictKindName(VerdictKind k);  // "clear", "slowdown", ...
std::string_view SeverityName(Severity s);        // "info" | "warning" | "critical"
std::optional<Severity> ParseSeverity(std::string_view s);

// One run (or snapshot) that the verdict rests on.
struct EvidenceRun {
  std::int64_t run_id = 0;
  std::int64_t at = 0;  // unix seconds
  double value = 0;
  bool outside = false;  // outside the band (in the bad direction)
};

struct Verdict {
  std::string drive_id;
  std::string drive_name;  // for people ("sda", a target name); may be ""
  // Dedupe key within the drive, stable across evaluations: one open alert
  // per (drive_id, condition). E.g. "slowdown:seq:qd8-1m:mb_per_s",
  // "trend:zones:outer:mb_per_s", "peer:seq:qd8-1m:mb_per_s",
  // "smart:pending_sectors", "zfs:tank:cksum".
  std::string condition;
  VerdictKind kind = VerdictKind::kClear;
  Severity severity = Severity::kInfo;
  std::string test;     // seq, zones, seek, random, ..., "smart", "pool"
  std::string series;   // zone / workload / stroke key; "" when not applicable
  std::string metric;   // mb_per_s, iops, access_ms, p99_us, or a SMART field
  std::string unit;     // "MB/s", "IOPS", "ms", "us", "" for counts
  std::int64_t at = 0;  // when the evaluated sample was taken (unix seconds)
  std::string summary;  // one line for people, numbers included

  // Evidence (each filled where it applies to the kind).
  std::optional<double> current;   // the judged value (latest good run / counter)
  std::optional<double> previous;  // the value it is compared with (counters)
  std::optional<double> baseline_median;
  std::optional<double> baseline_mad;  // raw MAD (not scaled)
  std::optional<int> baseline_runs;
  std::optional<double> band_low, band_high;
  std::optional<double> change_percent;               // + = worse, relative to the reference
  std::optional<double> slope_percent_per_month;      // trend, + = worse
  std::optional<double> p_value;                      // trend significance
  std::optional<double> peer_median;                  // peers
  std::vector<EvidenceRun> runs;                      // the runs behind the verdict, oldest first
  nlohmann::json details = nlohmann::json::object();  // kind-specific extras, for people

  // What judging reads back of a verdict (detect/judge.h); details carries a
  // copy of each for people, and is never read as logic input.
  std::optional<double> baseline_center;  // the baseline's centre (value units; change)
  std::optional<double> score;            // the judged run's worse-side normal score (change)
  std::optional<int> siblings_measured;   // siblings measured in the window (environment)
  std::vector<std::int64_t> interference_left_out;  // runs judged without: passed interference
  // Earlier runs recognised at this judgement as unseen interference
  // (detect::WasInterference; a young test's first runs by
  // WasYoungInterference, on its first series' verdict): the evaluator
  // keeps the mark, and no baseline takes them in from then on.
  std::vector<std::int64_t> interference_runs;
  // An environment verdict whose shift has lasted (environment_absorb_days):
  // the judged drive's baselines re-form from this time (an
  // automatic re-baseline mark), so the box's new level becomes its normal.
  std::optional<std::int64_t> rebaseline_from;
  // Environment: the siblings measured in the window, each with the time
  // its baselines were last re-formed (0 = never). With rebaseline_from: the
  // siblings whose baselines still stand on the old level, to be re-formed
  // from the same time (the shift is the vdev's, not this drive's alone).
  struct SiblingSince {
    std::string drive_id;
    std::int64_t since = 0;
  };
  std::vector<SiblingSince> siblings_since;
  std::vector<std::string> rebaseline_siblings;

  // Facts the judge decides on, typed (details carries a copy for people).
  enum class Rule {
    kNone,     // no firing rule (clear, baselining, a doubt of one run)
    kPair,     // two consecutive runs outside the band
    kCusum,    // the runs' scores summed by a one-sided CUSUM
  };
  Rule rule = Rule::kNone;
  // A change verdict: when the series' open CUSUM segment began.
  std::optional<std::int64_t> segment_from;
  // An environment verdict judged over the drive's window
  // (EnvironmentOverWindow), and whether that window showed a drift: a
  // shift the group crept into, not one it stepped into.
  bool over_window = false;
  bool drift = false;
  // A held doubt whose confirmation re-test still stands out beside the
  // drive's calm other read paths: the change has persisted.
  bool stands_out = false;
  // A verdict standing for another (environment, the zones' joint series):
  // the condition of the one that accounts for it.
  std::string covered_by;

  // True for the kinds that open or keep an alert.
  bool Firing() const;
  // A time (ms, us: lower is better) rather than a rate.
  bool LowerIsBetter() const;
};

// The stable JSON form (web page, API, alert "evidence_json").
nlohmann::json VerdictToJson(const Verdict& v);

}  // namespace dp
