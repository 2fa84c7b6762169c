#include "alert/alert_words.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace dp {
namespace {

std::string Plural(std::int64_t n, const char* unit) {
  return std::to_string(n) + " " + unit + (n == 1 ? "" : "s");
}

std::string Count(double v) {
  return std::to_string(static_cast<std::int64_t>(std::llround(v)));
}

std::string Percent(double v) {
  const double a = std::fabs(v);
  char buf[32];
  std::snprintf(buf, sizeof buf, a < 10 ? "%.1f" : "%.0f", a);
  std::string s = buf;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s + "%";
}

std::string NameOf(const Verdict& v) { return v.drive_name.empty() ? v.drive_id : v.drive_name; }

// "reads" for throughput, what a lower-is-better figure means otherwise.
std::string SlowerPhrase(const std::string& metric, double change_percent) {
  const std::string p = Percent(change_percent);
  if (metric == "iops") return "does " + p + " fewer operations a second";
  if (metric == "access_ms" || metric == "p99_us" || metric == "p50_us")
    return "takes " + p + " longer to answer";
  return "reads " + p + " slower";
}

// How long the alert has stood, for the confidence.
std::string Stood(const Alert& a, std::int64_t now) {
  return HumanDuration(std::max<std::int64_t>(0, now - (a.opened_at ? a.opened_at : now)));
}

std::string Measured(int rules, std::int64_t stood_seconds) {
  const int score = rules + (stood_seconds >= 28 * 86400 ? 1 : 0);
  const char* level = score >= 3 ? "Sure" : score == 2 ? "Likely" : "Possible";
  return std::string(level) + " (" + Plural(rules, "rule") + ", " +
         HumanDuration(stood_seconds) + ")";
}

std::string ReadFrom(ConditionKind kind) {
  switch (kind) {
    case ConditionKind::kSmart:
    case ConditionKind::kWear:
    case ConditionKind::kSelfTest: return "read from SMART";
    case ConditionKind::kMissing: return "seen by discovery";
    default: return "read from ZFS";
  }
}

struct Noun {
  const char* metric;
  const char* noun;
};
// SMART counters: what the drive's SMART table counts, in words.
constexpr Noun kSmartNouns[] = {
    {"reallocated_sectors", "reallocated (spare) sectors"},
    {"pending_sectors", "sectors it could not read (pending)"},
    {"offline_uncorrectable", "sectors it could not read back (offline uncorrectable)"},
    {"reported_uncorrectable", "reported uncorrectable errors"},
    {"command_timeouts", "command timeouts"},
    {"udma_crc_errors", "cable errors (UDMA CRC)"},
    {"nvme_media_errors", "media errors"},
};

std::string SmartHeadline(const Verdict& v, const std::string& who) {
  for (const Noun& n : kSmartNouns) {
    if (v.metric != n.metric) continue;
    std::string h = who + " has " + (v.current ? Count(*v.current) : "some") + " " + n.noun;
    if (v.current && v.previous && *v.current > *v.previous)
      h += ", " + Count(*v.current - *v.previous) + " more than at the check before";
    return h;
  }
  if (v.metric == "health") return who + " says its own health check failed";
  if (v.metric == "self_test") return who + "'s newest SMART self-test failed";
  if (v.metric == "temperature" && v.current)
    return who + " runs hot: " + Count(*v.current) + " °C";
  if (v.metric == "nvme_critical_warning") return who + " raised an NVMe critical warning";
  if (v.metric == "nvme_spare" && v.current)
    return who + " is running out of spare blocks: " + Count(*v.current) + "% left";
  return v.summary;
}

std::string Headline(const Verdict& v) {
  const std::string who = NameOf(v);
  const ConditionPlace place = ConditionPlaceOf(v.condition);
  switch (ConditionKindOf(v.condition)) {
    case ConditionKind::kSlowdown:
      return who + " " + SlowerPhrase(v.metric, v.change_percent.value_or(0)) +
             " than it used to";
    case ConditionKind::kTrend:
      return who + " gets slower each month (about " +
             Percent(v.slope_percent_per_month.value_or(0)) + " a month)";
    case ConditionKind::kPeer:
      return who + " " + SlowerPhrase(v.metric, v.change_percent.value_or(0)) +
             " than its siblings";
    case ConditionKind::kEnvironment:
      return "Every drive of " + (place.vdev.empty() ? std::string("the box") : place.vdev) +
             " got slower at once";
    case ConditionKind::kSmart:
      return SmartHeadline(v, who);
    case ConditionKind::kZfs:
      if (v.metric == "read" || v.metric == "write" || v.metric == "cksum")
        return "ZFS counts " + (v.current ? Count(*v.current) : std::string("new")) + " " +
               (v.metric == "cksum" ? std::string("checksum") : v.metric) + " errors on " + who +
               " in pool " + place.pool;
      if (v.metric == "state") return who + " is not ONLINE in pool " + place.pool;
      // ZFS's own latency view: its line already says it in figures
      // ("ZFS disk wait 40.0 ms, 4.9x its siblings' median").
      return v.summary;
    case ConditionKind::kMissing:
      return who + " has been missing for " +
             HumanDuration(static_cast<std::int64_t>(v.current.value_or(0) * 60));
    case ConditionKind::kPool:
      if (v.metric == "used_percent" && v.current)
        return "Pool " + place.pool + " is " + Count(*v.current) + "% full";
      if (v.metric == "data_errors") return "Pool " + place.pool + " has damaged files";
      return "Pool " + place.pool + " has lost redundancy: a part of it is not ONLINE";
    case ConditionKind::kScrub:
      if (v.metric == "scrub_age")
        return v.current ? "Pool " + place.pool + " was last scrubbed " +
                               Plural(std::llround(*v.current), "day") + " ago"
                         : "Pool " + place.pool + " has never been scrubbed";
      return "The last scrub of pool " + place.pool + " found or repaired errors";
    case ConditionKind::kWear:
      return who + " has used " + (v.current ? Count(*v.current) : std::string("most")) +
             "% of its rated write endurance";
    case ConditionKind::kSelfTest:
      if (v.metric == "self_test_age" && v.current)
        return who + " has had no SMART self-test for " +
               Plural(std::llround(*v.current / 24), "day") + " of running time";
      return who + "'s newest SMART self-test did not finish";
    case ConditionKind::kOther: break;
  }
  return v.summary;
}

}  // namespace

std::string HumanDuration(std::int64_t s) {
  if (s < 3600) return "under an hour";
  if (s < 2 * 86400) return Plural(s / 3600, "hour");
  if (s < 14 * 86400) return Plural(s / 86400, "day");
  if (s < 61 * 86400) return Plural(s / (7 * 86400), "week");
  if (s < 730 * 86400) return Plural(s / (30 * 86400), "month");
  return Plural(s / (365 * 86400), "year");
}

std::string AdviceText(std::string_view condition) {
  const ConditionKind kind = ConditionKindOf(condition);
  switch (kind) {
    case ConditionKind::kSlowdown:
    case ConditionKind::kTrend:
    case ConditionKind::kPeer:
      return "Check the drive's cable and connector and its SMART page, and run a long "
             "self-test (smartctl -t long). If it keeps getting slower, plan a replacement. If "
             "you changed the box on purpose (controller, firmware), re-baseline the drive on "
             "its page.";
    case ConditionKind::kEnvironment:
      return "Every drive moved together, so no drive is to blame: look at the controller, the "
             "enclosure's fans and temperature, and what else loads the pool at test time.";
    case ConditionKind::kSmart:
      if (condition == "smart:udma_crc_errors" || condition == "smart:command_timeouts")
        return "Reseat or replace the data cable, or move the drive to another bay or port; "
               "the disk itself is usually fine. Watch whether the count keeps rising.";
      if (condition == "smart:temperature")
        return "Check the fans, the airflow and the dust around the drive.";
      return "Make sure your backups are current, run a long self-test (smartctl -t long) and "
             "a scrub of its pool, and order a replacement: a drive that loses sectors tends to "
             "lose more.";
    case ConditionKind::kZfs:
      return "Run zpool status -v on the pool to see which files or devices are hit, check "
             "the drive's cable, then zpool clear and scrub; if errors come back, replace the "
             "drive.";
    case ConditionKind::kMissing:
      return "Check that the drive is seated, powered and cabled, and look at zpool status. "
             "If it was taken out for good, Forget it on its page.";
    case ConditionKind::kPool:
      if (condition.size() > 9 && condition.substr(condition.size() - 9) == ":capacity")
        return "Free space or add capacity: ZFS slows down and fragments as a pool fills.";
      return "Run zpool status -v on the pool: replace or reattach the member that is not "
             "ONLINE and let it resilver; restore damaged files from backup.";
    case ConditionKind::kScrub:
      if (condition.size() > 8 && condition.substr(condition.size() - 8) == ":overdue")
        return "Start a scrub (zpool scrub POOL) and check that scrubs are scheduled.";
      return "Look at zpool status -v for damaged files and restore them from backup; check "
             "the SMART pages of the pool's drives.";
    case ConditionKind::kWear:
      return "Plan to replace this SSD before it reaches 100%, and keep your backups current.";
    case ConditionKind::kSelfTest:
      return "Run a long self-test (smartctl -t long) and check that self-tests are "
             "scheduled; a test that keeps aborting points at a failing drive.";
    case ConditionKind::kOther: break;
  }
  return "Open the alert's details on the page and check the drive.";
}

AlertWords WordsOf(const Verdict& v, const Alert& a, std::int64_t now) {
  AlertWords w;
  w.headline = Headline(v);
  const ConditionKind kind = ConditionKindOf(v.condition);
  const std::int64_t stood = std::max<std::int64_t>(0, now - (a.opened_at ? a.opened_at : now));
  const bool measured = kind == ConditionKind::kSlowdown || kind == ConditionKind::kTrend ||
                        kind == ConditionKind::kPeer || kind == ConditionKind::kEnvironment ||
                        (kind == ConditionKind::kZfs && v.metric != "read" && v.metric != "write" &&
                         v.metric != "cksum" && v.metric != "state");
  w.confidence = measured ? Measured(1, stood) : "Certain (" + ReadFrom(kind) + ", " + Stood(a, now) + ")";
  w.advice = AdviceText(v.condition);
  return w;
}

AlertWords WordsOf(const Alert& event, std::string_view name, std::int64_t now) {
  AlertWords w;
  const std::string who = name.empty() ? event.drive_id : std::string(name);
  // The worst active member of each rule.
  const AlertMember* slow = nullptr;
  const AlertMember* trend = nullptr;
  const AlertMember* peer = nullptr;
  const AlertMember* env = nullptr;
  std::int64_t since = now;
  for (const AlertMember& m : event.event.members) {
    if (m.state == "resolved") continue;
    since = std::min(since, m.opened_at ? m.opened_at : now);
    const AlertMember** slot = nullptr;
    switch (ConditionKindOf(m.condition)) {
      case ConditionKind::kSlowdown: slot = &slow; break;
      case ConditionKind::kTrend: slot = &trend; break;
      case ConditionKind::kPeer: slot = &peer; break;
      case ConditionKind::kEnvironment: slot = &env; break;
      default: break;
    }
    if (!slot) continue;
    const double size = std::fabs(m.change_percent.value_or(m.slope_percent_per_month.value_or(0)));
    if (!*slot || size > std::fabs((*slot)->change_percent.value_or(
                             (*slot)->slope_percent_per_month.value_or(0))))
      *slot = &m;
  }
  const int rules = (slow ? 1 : 0) + (trend ? 1 : 0) + (peer ? 1 : 0) + (env ? 1 : 0);
  std::vector<std::string> parts;
  if (slow) parts.push_back(SlowerPhrase(slow->metric, slow->change_percent.value_or(0)) +
                            " than it used to");
  if (peer && slow)
    parts.back() += " (" + Percent(peer->change_percent.value_or(0)) + " behind its siblings)";
  else if (peer)
    parts.push_back(SlowerPhrase(peer->metric, peer->change_percent.value_or(0)) +
                    " than its siblings");
  if (env) {
    const ConditionPlace place = ConditionPlaceOf(env->condition);
    w.headline = "Every drive of " +
                 (place.vdev.empty() || place.vdev == "box" ? std::string("the box") : place.vdev) +
                 " got slower at once";
  } else if (parts.empty() && trend) {
    w.headline = who + " gets slower each month (about " +
                 Percent(trend->slope_percent_per_month.value_or(0)) + " a month)";
  } else if (!parts.empty()) {
    w.headline = who;
    for (const std::string& p : parts) w.headline += " " + p;
    if (trend) w.headline += ", and slower each month";
  } else {
    w.headline = event.summary;
  }
  const std::int64_t stood = std::max<std::int64_t>(0, now - std::min(since, event.opened_at ? event.opened_at : now));
  w.confidence = Measured(std::max(rules, 1), stood);
  w.advice = AdviceText(env ? env->condition : event.condition);
  return w;
}

}  // namespace dp
