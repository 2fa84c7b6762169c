#include "detect/zfs_latency_peers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "detect/robust_stats.h"

namespace dp::detect {
namespace {

std::string Ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, seconds < 0.01 ? "%.2f ms" : "%.1f ms", seconds * 1e3);
  return buf;
}

struct Judged {
  std::int64_t at = 0;
  std::optional<double> value;   // the member's figure
  std::optional<double> median;  // its siblings'
  std::optional<double> sigma;
  int siblings = 0;
  bool far = false;
};

}  // namespace

std::optional<double> ZfsDiskWait(const ZfsLatencySample& s) {
  double ro = s.read_ops.value_or(0), wo = s.write_ops.value_or(0);
  bool r = s.disk_wait_read.has_value() && (!s.read_ops || ro > 0);
  bool w = s.disk_wait_write.has_value() && (!s.write_ops || wo > 0);
  if (r && w) {
    if (ro + wo > 0) return (*s.disk_wait_read * ro + *s.disk_wait_write * wo) / (ro + wo);
    return (*s.disk_wait_read + *s.disk_wait_write) / 2;
  }
  if (r) return s.disk_wait_read;
  if (w) return s.disk_wait_write;
  return std::nullopt;
}

namespace {

// Samplings by time, oldest first; in each, member -> its sample.
using Samplings = std::map<std::int64_t, std::map<std::string, const ZfsLatencySample*>>;

Verdict ZfsVerdict(const ZfsLatencySample& latest, std::int64_t newest, const std::string& what) {
  Verdict v;
  v.drive_id = latest.drive_id;
  v.condition = "zfs:" + latest.pool + ":" + what;
  v.test = "pool";
  v.series = latest.pool;
  v.metric = what;
  v.at = newest;
  v.details["pool"] = latest.pool;
  v.details["vdev"] = latest.vdev;
  v.details["member"] = latest.member;
  v.details["source"] = what == "latency"    ? "zpool iostat -v -l"
                        : what == "slow_ios" ? "zpool status -s"
                                             : "zpool get sit_out";
  return v;
}

// The member's disk wait against its siblings' in each of the newest
// `rule.samplings` samplings, oldest first.
std::vector<Judged> JudgeAgainstSiblings(const Samplings& by_time, const std::string& member,
                                         const ZfsPeerRule& rule) {
  std::vector<Judged> judged;
  for (auto it = by_time.rbegin();
       it != by_time.rend() && static_cast<int>(judged.size()) < rule.samplings; ++it) {
    Judged j;
    j.at = it->first;
    auto self = it->second.find(member);
    if (self != it->second.end()) j.value = ZfsDiskWait(*self->second);
    std::vector<double> sib;
    for (const auto& [other, s] : it->second) {
      if (other == member) continue;
      if (auto x = ZfsDiskWait(*s); x && *x > 0) sib.push_back(*x);
    }
    j.siblings = static_cast<int>(sib.size());
    if (j.value && j.siblings >= rule.min_siblings) {
      j.median = Median(sib);
      j.sigma = kMadToSigma * MadSmallSampleFactor(j.siblings) * Mad(sib);
      double excess = *j.value - *j.median;
      j.far = *j.value >= rule.min_ratio * *j.median && excess > rule.sigmas * *j.sigma &&
              excess >= rule.min_excess_seconds;
    }
    judged.push_back(j);
  }
  std::reverse(judged.begin(), judged.end());
  return judged;
}

Verdict LatencyVerdict(const ZfsLatencySample& latest, std::int64_t newest,
                       const std::vector<Judged>& judged, const ZfsPeerRule& rule) {
  Verdict lat = ZfsVerdict(latest, newest, "latency");
  const Judged& now = judged.back();
  lat.current = now.value;
  lat.peer_median = now.median;
  lat.details["siblings"] = now.siblings;
  lat.details["samplings_needed"] = rule.samplings;
  lat.details["min_ratio"] = rule.min_ratio;
  nlohmann::json hist = nlohmann::json::array();
  for (const auto& j : judged) {
    hist.push_back({{"at", j.at},
                    {"disk_wait_seconds", j.value ? nlohmann::json(*j.value) : nlohmann::json()},
                    {"siblings_median_seconds",
                     j.median ? nlohmann::json(*j.median) : nlohmann::json()},
                    {"far_above", j.far}});
  }
  lat.details["samplings"] = std::move(hist);
  bool all_far = static_cast<int>(judged.size()) == rule.samplings &&
                 std::all_of(judged.begin(), judged.end(), [](const Judged& j) { return j.far; });
  std::string where = latest.pool + " member " + latest.member;
  if (all_far) {
    lat.kind = VerdictKind::kPoolErrors;
    lat.severity = Severity::kWarning;
    lat.change_percent = 100.0 * (*now.value / *now.median - 1.0);
    char ratio[16];
    std::snprintf(ratio, sizeof ratio, "%.1f", *now.value / *now.median);
    lat.summary = where + ": ZFS disk wait " + Ms(*now.value) + ", " + ratio + "x its " +
                  std::to_string(now.siblings) + " vdev siblings' median " + Ms(*now.median) +
                  ", in each of the last " + std::to_string(rule.samplings) + " samplings";
  } else if (latest.sit_out.value_or(false)) {
    // ZFS reads around a member it sits out, so its waits are no longer
    // comparable with its siblings': neither evidence nor all-clear.
    lat.kind = VerdictKind::kInconclusive;
    lat.summary = where + ": ZFS sits it out of reads; its disk wait is not judged meanwhile";
  } else if (now.median && !now.far) {
    lat.kind = VerdictKind::kClear;
    lat.summary = where + ": ZFS disk wait " + Ms(*now.value) + " beside its siblings' median " +
                  Ms(*now.median);
  } else {
    lat.kind = VerdictKind::kInconclusive;
    if (!now.value) lat.summary = where + ": no I/O in ZFS's last sampling";
    else if (!now.median)
      lat.summary = where + ": too few siblings with I/O in ZFS's last sampling (" +
                    std::to_string(now.siblings) + ")";
    else
      lat.summary = where + ": ZFS disk wait " + Ms(*now.value) + " far above its siblings' " +
                    Ms(*now.median) + "; waiting for " + std::to_string(rule.samplings) +
                    " samplings in a row";
  }
  return lat;
}

// ZFS's own slow I/O counter: a rise since the member's previous sampling.
Verdict SlowIosVerdict(const ZfsLatencySample& latest, std::int64_t newest,
                       const Samplings& by_time) {
  const ZfsLatencySample* before = nullptr;
  for (auto it = by_time.rbegin(); it != by_time.rend(); ++it) {
    if (it->first >= latest.at) continue;
    auto p = it->second.find(latest.member);
    if (p != it->second.end() && p->second->slow_ios) {
      before = p->second;
      break;
    }
  }
  std::string where = latest.pool + " member " + latest.member;
  Verdict slow = ZfsVerdict(latest, newest, "slow_ios");
  slow.current = static_cast<double>(*latest.slow_ios);
  if (before) slow.previous = static_cast<double>(*before->slow_ios);
  if (before && *latest.slow_ios > *before->slow_ios) {
    slow.kind = VerdictKind::kPoolErrors;
    slow.severity = Severity::kWarning;
    slow.summary = where + ": " + std::to_string(*latest.slow_ios - *before->slow_ios) +
                   " new ZFS slow I/Os (each over zio_slow_io_ms, 30 s by default; " +
                   std::to_string(*latest.slow_ios) + " since import or clear)";
  } else if (before) {
    slow.kind = VerdictKind::kClear;
    slow.summary = where + ": no new ZFS slow I/Os";
  } else {
    slow.kind = VerdictKind::kInconclusive;
    slow.summary = where + ": " + std::to_string(*latest.slow_ios) +
                   " ZFS slow I/Os so far; a rise is judged from the next sampling";
  }
  return slow;
}

// OpenZFS 2.4's own verdict: a raidz/draid child it found to be a persistent
// slow outlier among its siblings sits out of reads.
Verdict SitOutVerdict(const ZfsLatencySample& latest, std::int64_t newest) {
  std::string where = latest.pool + " member " + latest.member;
  Verdict sit = ZfsVerdict(latest, newest, "sit_out");
  sit.current = *latest.sit_out ? 1.0 : 0.0;
  if (*latest.sit_out) {
    sit.kind = VerdictKind::kPoolErrors;
    sit.severity = Severity::kWarning;
    sit.summary = where + ": ZFS itself found it slower than its " + latest.vdev +
                  " siblings and sits it out of reads (sit_out=on), rebuilding its data "
                  "from parity";
  } else {
    sit.kind = VerdictKind::kClear;
    sit.summary = where + ": ZFS does not sit it out of reads (sit_out=off)";
  }
  return sit;
}

}  // namespace

std::vector<Verdict> EvaluateZfsLatencyPeers(const std::vector<ZfsLatencySample>& samples,
                                             const ZfsPeerRule& rule) {
  std::vector<Verdict> out;
  if (samples.empty()) return out;
  Samplings by_time;
  std::map<std::string, const ZfsLatencySample*> members;  // the newest sample of each
  for (const auto& s : samples) {
    by_time[s.at][s.member] = &s;
    auto& m = members[s.member];
    if (!m || m->at <= s.at) m = &s;
  }
  const std::int64_t newest = by_time.rbegin()->first;
  for (const auto& [member, latest] : members) {
    // Unmapped members, and members gone from the newest sampling, get no verdict.
    if (latest->drive_id.empty() || latest->at != newest) continue;
    auto judged = JudgeAgainstSiblings(by_time, member, rule);
    out.push_back(LatencyVerdict(*latest, newest, judged, rule));
    if (latest->slow_ios) out.push_back(SlowIosVerdict(*latest, newest, by_time));
    if (latest->sit_out) out.push_back(SitOutVerdict(*latest, newest));
  }
  return out;
}

}  // namespace dp::detect
