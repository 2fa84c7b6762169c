#include "alert/alert_events.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

#include "alert/alert_words.h"
#include "model/condition.h"

namespace dp {
namespace {

// A member as the ordinary lifecycle sees it: an alert of its own condition.
// Its notifications are the event's, so it never waits or reminds.
Alert MemberAlert(const AlertMember& m, const std::string& drive_id) {
  Alert a;
  a.drive_id = drive_id;
  a.condition = m.condition;
  a.severity = m.severity;
  a.state = m.state;
  a.clear_streak = m.clear_streak;
  a.opened_at = m.opened_at;
  a.notify_count = 1;
  a.summary = m.summary;
  a.band_low = m.band_low;
  a.band_high = m.band_high;
  return a;
}

// The member a lifecycle decision leaves, with the facts of the verdict
// that fired it last (a clear or a doubt keeps those it had).
AlertMember MemberRecord(const Alert& a, const Verdict& v, const AlertMember* before) {
  AlertMember m;
  if (before) m = *before;
  m.condition = a.condition;
  m.state = a.state;
  m.severity = a.severity;
  m.clear_streak = a.clear_streak;
  m.opened_at = a.opened_at;
  if (v.Firing() || !before) {
    m.test = v.test;
    m.series = v.series;
    m.metric = v.metric;
    m.unit = v.unit;
    m.summary = v.summary;
    m.current = v.current;
    m.reference = v.peer_median ? v.peer_median : v.baseline_median;
    m.change_percent = v.change_percent;
    m.slope_percent_per_month = v.slope_percent_per_month;
    m.band_low = v.band_low;
    m.band_high = v.band_high;
    m.baseline_runs = v.baseline_runs.value_or(0);
    m.at = v.at;
    m.verdict_json = VerdictToJson(v).dump(-1, ' ', false,
                                           nlohmann::json::error_handler_t::replace);
  }
  return m;
}

int Rank(const std::string& severity) {
  auto s = ParseSeverity(severity);
  return s ? static_cast<int>(*s) : 0;
}

bool Active(const AlertMember& m) { return m.state != "resolved"; }

double Change(const AlertMember& m) { return std::fabs(m.change_percent.value_or(0)); }

// The worst active member: highest severity, then largest change.
const AlertMember* Primary(const std::vector<AlertMember>& members) {
  const AlertMember* best = nullptr;
  for (const AlertMember& m : members) {
    if (!Active(m)) continue;
    if (!best || Rank(m.severity) > Rank(best->severity) ||
        (Rank(m.severity) == Rank(best->severity) && Change(m) > Change(*best)))
      best = &m;
  }
  return best;
}

std::string MemberLabel(const AlertMember& m) {
  std::string label = m.test;
  for (const std::string& s : {m.series, m.metric})
    if (!s.empty()) label += (label.empty() ? "" : " ") + s;
  const ConditionKind kind = ConditionKindOf(m.condition);
  if (kind == ConditionKind::kPeer) label += " (vs siblings)";
  if (kind == ConditionKind::kTrend) label += " (trend)";
  return label.empty() ? m.condition : label;
}

// What one run's verdicts did to an event's members.
struct MemberPass {
  const Verdict* fired = nullptr;  // this run's worst firing member verdict
  // A held doubt whose confirmation re-test still stands out beside the
  // drive's calm read paths (detect's Verdict::stands_out, at the severity
  // detect gave it): the change persists, though unseen interference made
  // it a doubt again. It keeps a watch going, as a firing verdict would.
  const Verdict* persists = nullptr;
  std::string cleared;  // the last clear verdict's summary
  bool changed = false;
  bool trend_fired = false;
};

MemberPass UpdateMembers(std::vector<AlertMember>& members,
                         const std::vector<const Verdict*>& verdicts, SysTime now,
                         const AlertPolicy& member_policy, bool active) {
  MemberPass pass;
  for (const Verdict* v : verdicts) {
    auto it = std::find_if(members.begin(), members.end(),
                           [&](const AlertMember& m) { return m.condition == v->condition; });
    std::optional<Alert> member;
    if (it != members.end() && Active(*it)) member = MemberAlert(*it, v->drive_id);
    if (member && v->kind == VerdictKind::kNeedsConfirmation && v->stands_out) pass.persists = v;
    if (!member && !v->Firing()) {
      // A clear of a member gone already can still end a quiet event.
      if (active && v->kind == VerdictKind::kClear) {
        pass.cleared = v->summary;
        pass.changed = true;
      }
      continue;
    }
    AlertDecision d = Update(member, *v, now, member_policy);
    if (d.write == AlertDecision::Write::kNothing) continue;
    pass.changed = true;
    if (it != members.end()) *it = MemberRecord(d.alert, *v, &*it);
    else members.push_back(MemberRecord(d.alert, *v, nullptr));
    if (v->Firing() && (!pass.fired || v->severity > pass.fired->severity)) pass.fired = v;
    if (v->Firing() && ConditionKindOf(v->condition) == ConditionKind::kTrend)
      pass.trend_fired = true;
    if (v->kind == VerdictKind::kClear) pass.cleared = v->summary;
  }
  return pass;
}

// The lead member's sentence, with the other active members named.
std::string EventSummary(const std::vector<AlertMember>& members, const AlertMember& lead) {
  std::vector<std::string> others;
  for (const AlertMember& m : members)
    if (Active(m) && &m != &lead) others.push_back(MemberLabel(m));
  std::string summary = lead.summary;
  if (!others.empty()) {
    summary += "; with " + std::to_string(others.size()) + " more series:";
    for (std::size_t i = 0; i < others.size(); ++i) summary += (i ? ", " : " ") + others[i];
  }
  return summary;
}

// A new box event for the step told already (resolved within the join
// horizon) is kept for the record, not told again.
void JoinToldBoxStep(AlertDecision& d, const std::optional<Alert>& told_before, std::int64_t t,
                     const std::string& summary) {
  if (d.write != AlertDecision::Write::kInsert || d.alert.condition != kBoxEnvironmentEvent ||
      !told_before || told_before->notify_count == 0 || !told_before->resolved_at ||
      t - *told_before->resolved_at >= kBoxStepJoinSeconds)
    return;
  d.notify = NotifyKind::kNone;
  d.alert.notify_count = told_before->notify_count;
  d.alert.last_notified_at = told_before->last_notified_at;
  AddHistory(d.alert, t, "joined",
             "the box's step told on alert " + std::to_string(told_before->id) + ", resolved " +
                 std::to_string((t - *told_before->resolved_at) / 86400) + " days ago: " + summary);
}


}  // namespace

AlertKey AlertKeyOf(const Verdict& v) {
  switch (ConditionKindOf(v.condition)) {
    case ConditionKind::kSlowdown:
    case ConditionKind::kPeer:
    case ConditionKind::kTrend:
      return {v.drive_id, kDriveSpeedEvent, true};
    case ConditionKind::kEnvironment:
      return {"", kBoxEnvironmentEvent, true};
    default:
      return {v.drive_id, v.condition, false};
  }
}

bool EventHasMember(const Alert& event,
                    const std::function<bool(const std::string& condition,
                                             const std::string& test)>& match) {
  for (const AlertMember& m : event.event.members)
    if (Active(m) && match(m.condition, m.test)) return true;
  return false;
}

bool SlowingBefore(const Alert& a, std::int64_t at) {
  // A watch (never notified) is no event of its own yet: housekeeping open
  // when the box stepped was left out of the absorption and told weeks later
  // with its stale figure as the box's step. Absorbed, it closes with the
  // rest and comes back if it is real.
  return a.state != "resolved" && a.opened_at < at && a.notify_count > 0 &&
         a.condition == kDriveSpeedEvent;
}

AlertDecision UpdateEvent(const std::optional<Alert>& existing,
                          const std::vector<const Verdict*>& verdicts, SysTime now,
                          const AlertPolicy& policy, bool urgent,
                          const std::optional<Alert>& told_before) {
  const bool active = existing && existing->state != "resolved";
  AlertEventState state = active ? existing->event : AlertEventState{};
  std::vector<AlertMember>& members = state.members;
  AlertPolicy member_policy = policy;
  member_policy.persist_before_notify = std::chrono::seconds(0);
  member_policy.max_reminder = std::chrono::seconds(0);
  const std::int64_t t = ToUnixSeconds(now);
  std::string name;  // the drive's, for people
  for (const Verdict* v : verdicts)
    if (name.empty() && !v->drive_name.empty()) name = v->drive_name;
  MemberPass pass = UpdateMembers(members, verdicts, now, member_policy, active);
  const Verdict* fired = pass.fired;
  const std::string& cleared = pass.cleared;
  bool changed = pass.changed;
  AlertDecision d;
  Verdict persisting;
  if (!fired && pass.persists && active && existing->notify_count == 0 &&
      !state.cleared_since_fired) {
    persisting = *pass.persists;
    persisting.kind = VerdictKind::kSlowdown;  // the lifecycle's form of "still firing"
    fired = &persisting;
    changed = true;
  }
  if (!changed) return d;
  if (!fired) {
    bool all_clear = true;
    for (const AlertMember& m : members)
      if (Active(m) && m.clear_streak == 0) all_clear = false;
    state.cleared_since_fired = state.cleared_since_fired || all_clear;
  } else {
    state.last_fired_at = t;
    state.cleared_since_fired = false;
  }
  const AlertMember* primary = Primary(members);
  if (!primary) {
    if (!active) return d;
    Alert a = *existing;
    a.event = state;
    // A box's event waits kEventQuietSeconds first: its drives absorb a
    // shift a week or two apart, and closed by the first drives' clears it
    // was opened again by the next drive's environment verdict.
    if (a.condition == kBoxEnvironmentEvent &&
        t - state.last_fired_at.value_or(a.opened_at) < kEventQuietSeconds) {
      a.updated_at = t;
      d.write = AlertDecision::Write::kUpdate;
      d.alert = std::move(a);
      return d;
    }
    return Resolve(a, now, "cleared: every series is back" +
                               (cleared.empty() ? std::string() : " (last: " + cleared + ")"));
  }
  // The event as one verdict: the worst member's, its severity the worst.
  // A watch that fires is told by the evidence that fired now: its worst
  // member may be a figure from when it opened (housekeeping weeks ago).
  const AlertMember* lead = primary;
  if (fired && (!active || existing->notify_count == 0))
    for (const AlertMember& m : members)
      if (Active(m) && m.condition == fired->condition) lead = &m;
  const std::string summary = EventSummary(members, *lead);
  const std::string evidence = primary->verdict_json;
  if (!fired) {
    // Clears and doubts only: the event stands as it was, with its members
    // brought up to date.
    Alert a = *existing;
    a.event = std::move(state);
    a.evidence_json = evidence;
    a.summary = summary;
    a.updated_at = t;
    a.words = WordsOf(a, name, t);
    d.write = AlertDecision::Write::kUpdate;
    d.alert = std::move(a);
    return d;
  }
  Verdict event = *fired;
  event.drive_id = existing ? existing->drive_id : AlertKeyOf(*fired).drive_id;
  event.condition = AlertKeyOf(*fired).condition;
  event.severity = Severity::kInfo;
  for (const AlertMember& m : members)
    if (Active(m))
      event.severity = std::max(event.severity, ParseSeverity(m.severity).value_or(Severity::kInfo));
  event.summary = summary;
  AlertPolicy event_policy = policy;
  // A trend rests on months of runs: no housekeeping lasts that long.
  if (urgent || pass.trend_fired) event_policy.persist_before_notify = std::chrono::seconds(0);
  std::optional<Alert> prior = active ? existing : std::nullopt;
  const bool came_back = prior && prior->notify_count == 0 && existing->event.cleared_since_fired;
  if (came_back) AddHistory(*prior, t, "watching", "fired again after clearing: " + summary);
  d = Update(prior, event, now, event_policy);
  d.alert.evidence_json = evidence;
  d.alert.event = std::move(state);
  d.alert.band_low.reset();
  d.alert.band_high.reset();
  if (d.write == AlertDecision::Write::kInsert) d.alert.opened_evidence_json = d.alert.evidence_json;
  JoinToldBoxStep(d, told_before, t, summary);
  d.alert.words = WordsOf(d.alert, name, t);
  return d;
}

Status ApplyVerdicts(const std::vector<Verdict>& verdicts, const AlertLookup& lookup, SysTime now,
                     const AlertPolicy& policy,
                     const std::function<Status(AlertDecision)>& apply) {
  Status first;
  auto note = [&first](const Status& s) {
    if (!s.ok() && first.ok()) first = s;
  };
  std::vector<AlertKey> order;
  std::map<AlertKey, std::vector<const Verdict*>> events;
  for (const Verdict& v : verdicts) {
    // Only verdicts that can change an alert.
    if (!v.Firing() && v.kind != VerdictKind::kClear &&
        v.kind != VerdictKind::kNeedsConfirmation)
      continue;
    const AlertKey key = AlertKeyOf(v);
    if (key.event) {
      auto [it, fresh] = events.try_emplace(key);
      if (fresh) order.push_back(key);
      it->second.push_back(&v);
      continue;
    }
    auto existing = lookup.find(key.drive_id, key.condition);
    if (!existing.ok()) {
      note(existing.status());
      continue;
    }
    if (!*existing && !v.Firing()) continue;
    note(apply(Update(*existing, v, now, policy)));
  }
  for (const AlertKey& key : order) {
    auto existing = lookup.find(key.drive_id, key.condition);
    if (!existing.ok()) {
      note(existing.status());
      continue;
    }
    // A shift the vdev shared over the whole of its window, long enough to
    // be absorbed (Verdict::rebaseline_from), has persisted past any
    // housekeeping: the box's notice goes out now, once, saying its
    // baselines re-formed.
    // A drive absorbing it alone, its siblings re-formed already, is that
    // event's tail, not news.
    bool urgent = std::any_of(events[key].begin(), events[key].end(), [](const Verdict* v) {
      return v->rebaseline_from.has_value() && !v->rebaseline_siblings.empty();
    });
    if (!urgent && !key.drive_id.empty() && lookup.urgent) {
      auto u = lookup.urgent(key.drive_id);
      if (u.ok()) urgent = *u;
      else note(u.status());
    }
    std::optional<Alert> told_before;
    if (!*existing && key.condition == kBoxEnvironmentEvent && lookup.last_resolved) {
      auto last = lookup.last_resolved(key.drive_id, key.condition);
      if (last.ok()) told_before = std::move(*last);
      else note(last.status());
    }
    note(apply(UpdateEvent(*existing, events[key], now, policy, urgent, told_before)));
  }
  return first;
}

}  // namespace dp
