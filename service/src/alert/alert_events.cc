#include "alert/alert_events.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

#include "model/condition.h"

namespace dp {
namespace {

using nlohmann::json;

std::string Dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

json Parse(const std::string& text) {
  json j = json::parse(text.empty() ? "{}" : text, nullptr, false);
  return j.is_discarded() ? json::object() : j;
}

// A member as the ordinary lifecycle sees it: an alert of its own condition.
// Its notifications are the event's, so it never waits or reminds.
Alert MemberAlert(const json& m, const std::string& drive_id) {
  Alert a;
  a.drive_id = drive_id;
  a.condition = m.value("condition", "");
  a.severity = m.value("severity", "warning");
  a.state = m.value("state", "open");
  a.clear_streak = m.value("clear_streak", 0);
  a.opened_at = m.value("opened_at", std::int64_t{0});
  a.notify_count = 1;
  a.evidence_json = Dump(m.value("verdict", json::object()));
  return a;
}

json MemberRecord(const Alert& a) {
  return {{"condition", a.condition},   {"state", a.state},
          {"severity", a.severity},     {"clear_streak", a.clear_streak},
          {"opened_at", a.opened_at},   {"verdict", Parse(a.evidence_json)}};
}

int Rank(const std::string& severity) {
  auto s = ParseSeverity(severity);
  return s ? static_cast<int>(*s) : 0;
}

bool Active(const json& m) { return m.value("state", "") != "resolved"; }

double Change(const json& m) {
  const json& v = m["verdict"];
  auto c = v.find("change_percent");
  return c != v.end() && c->is_number() ? std::fabs(c->get<double>()) : 0;
}

// The worst active member: highest severity, then largest change.
const json* Primary(const json& members) {
  const json* best = nullptr;
  for (const json& m : members) {
    if (!Active(m)) continue;
    if (!best || Rank(m.value("severity", "")) > Rank(best->value("severity", "")) ||
        (Rank(m.value("severity", "")) == Rank(best->value("severity", "")) &&
         Change(m) > Change(*best)))
      best = &m;
  }
  return best;
}

std::string MemberLabel(const json& m) {
  const json& v = m["verdict"];
  std::string label = v.value("test", "");
  for (const char* part : {"series", "metric"}) {
    const std::string s = v.value(part, "");
    if (!s.empty()) label += (label.empty() ? "" : " ") + s;
  }
  if (ConditionKindOf(m.value("condition", "")) == ConditionKind::kPeer) label += " (vs siblings)";
  return label.empty() ? m.value("condition", "") : label;
}

}  // namespace

AlertKey AlertKeyOf(const Verdict& v) {
  switch (ConditionKindOf(v.condition)) {
    case ConditionKind::kSlowdown:
    case ConditionKind::kPeer:
      return {v.drive_id, kDriveSlowdownEvent, true};
    case ConditionKind::kTrend:
      return {v.drive_id, kDriveTrendEvent, true};
    case ConditionKind::kEnvironment:
      return {"", kBoxEnvironmentEvent, true};
    default:
      return {v.drive_id, v.condition, false};
  }
}

bool EventHasMember(const Alert& event,
                    const std::function<bool(const std::string& condition,
                                             const std::string& test)>& match) {
  const json evidence = Parse(event.evidence_json);
  const auto members = evidence.find("members");
  if (members == evidence.end() || !members->is_array()) return false;
  for (const json& m : *members)
    if (Active(m) && match(m.value("condition", ""),
                           m.value("verdict", json::object()).value("test", "")))
      return true;
  return false;
}

bool SlowingBefore(const Alert& a, std::int64_t at) {
  // A watch (never notified) is no event of its own yet: housekeeping open
  // when the box stepped was left out of the absorption and told weeks later
  // with its stale figure as the box's step. Absorbed, it closes with the
  // rest and comes back if it is real.
  return a.state != "resolved" && a.opened_at < at && a.notify_count > 0 &&
         (a.condition == kDriveSlowdownEvent || a.condition == kDriveTrendEvent);
}

AlertDecision UpdateEvent(const std::optional<Alert>& existing,
                          const std::vector<const Verdict*>& verdicts, SysTime now,
                          const AlertPolicy& policy, bool urgent,
                          const std::optional<Alert>& told_before) {
  const bool active = existing && existing->state != "resolved";
  json evidence = active ? Parse(existing->evidence_json) : json::object();
  json members = evidence.contains("members") && evidence["members"].is_array()
                     ? evidence["members"]
                     : json::array();
  AlertPolicy member_policy = policy;
  member_policy.persist_before_notify = std::chrono::seconds(0);
  member_policy.max_reminder = std::chrono::seconds(0);
  const Verdict* fired = nullptr;  // this run's worst firing member verdict
  // A held doubt whose own run still stands out (Verdict details
  // "stands_out"): the change persists, though unseen interference made it
  // a doubt again. It keeps a watch going, as a firing verdict would.
  const Verdict* persists = nullptr;
  std::string cleared;             // the last clear verdict's summary
  bool changed = false;
  const std::int64_t t = ToUnixSeconds(now);
  for (const Verdict* v : verdicts) {
    auto it = std::find_if(members.begin(), members.end(), [&](const json& m) {
      return m.value("condition", "") == v->condition;
    });
    std::optional<Alert> member;
    if (it != members.end() && Active(*it)) member = MemberAlert(*it, v->drive_id);
    if (member && v->kind == VerdictKind::kNeedsConfirmation &&
        v->stands_out)
      persists = v;
    if (!member && !v->Firing()) {
      // A clear of a member gone already can still end a quiet event.
      if (active && v->kind == VerdictKind::kClear) {
        cleared = v->summary;
        changed = true;
      }
      continue;
    }
    AlertDecision d = Update(member, *v, now, member_policy);
    if (d.write == AlertDecision::Write::kNothing) continue;
    changed = true;
    if (it != members.end()) *it = MemberRecord(d.alert);
    else members.push_back(MemberRecord(d.alert));
    if (v->Firing() && (!fired || v->severity > fired->severity)) fired = v;
    if (v->kind == VerdictKind::kClear) cleared = v->summary;
  }
  AlertDecision d;
  Verdict persisting;
  if (!fired && persists && active && existing->notify_count == 0 &&
      !evidence.value("cleared_since_fired", false)) {
    persisting = *persists;
    persisting.kind = VerdictKind::kSlowdown;
    persisting.severity = Severity::kWarning;
    fired = &persisting;
    changed = true;
  }
  if (!changed) return d;
  // Whether every member has cleared since the event last fired (a doubt
  // since does not undo it): a watch that fires after that is housekeeping
  // come back, or a new event, and waits persist_before_notify again.
  bool cleared_since_fired = evidence.value("cleared_since_fired", false);
  if (!fired) {
    bool all_clear = true;
    for (const json& m : members)
      if (Active(m) && m.value("clear_streak", 0) == 0) all_clear = false;
    cleared_since_fired = cleared_since_fired || all_clear;
  }
  if (fired) evidence["last_fired_at"] = t;
  const json* primary = Primary(members);
  if (!primary) {
    if (!active) return d;
    Alert a = *existing;
    evidence["members"] = members;
    a.evidence_json = Dump(evidence);
    // A box's event waits kEventQuietSeconds first: its drives absorb a
    // shift a week or two apart, and closed by the first drives' clears it
    // was opened again by the next drive's environment verdict.
    if (a.condition == kBoxEnvironmentEvent &&
        t - evidence.value("last_fired_at", a.opened_at) < kEventQuietSeconds) {
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
  const json* lead = primary;
  if (fired && (!active || existing->notify_count == 0))
    for (const json& m : members)
      if (Active(m) && m.value("condition", "") == fired->condition) lead = &m;
  std::vector<std::string> others;
  for (const json& m : members)
    if (Active(m) && &m != lead) others.push_back(MemberLabel(m));
  json out = (*primary)["verdict"];
  out["members"] = members;
  out["last_fired_at"] = evidence.value("last_fired_at", t);
  out["cleared_since_fired"] = fired ? false : cleared_since_fired;
  std::string summary = lead->value("verdict", json::object()).value("summary", "");
  if (!others.empty()) {
    summary += "; with " + std::to_string(others.size()) + " more series:";
    for (std::size_t i = 0; i < others.size(); ++i) summary += (i ? ", " : " ") + others[i];
  }
  if (!fired) {
    // Clears and doubts only: the event stands as it was, with its members
    // brought up to date.
    Alert a = *existing;
    a.evidence_json = Dump(out);
    a.summary = summary;
    a.updated_at = ToUnixSeconds(now);
    d.write = AlertDecision::Write::kUpdate;
    d.alert = std::move(a);
    return d;
  }
  Verdict event = *fired;
  event.drive_id = existing ? existing->drive_id : AlertKeyOf(*fired).drive_id;
  event.condition = AlertKeyOf(*fired).condition;
  event.severity = Severity::kInfo;
  for (const json& m : members)
    if (Active(m))
      event.severity = std::max(event.severity,
                                ParseSeverity(m.value("severity", "")).value_or(Severity::kInfo));
  event.summary = summary;
  AlertPolicy event_policy = policy;
  if (urgent) event_policy.persist_before_notify = std::chrono::seconds(0);
  std::optional<Alert> prior = active ? existing : std::nullopt;
  if (prior && prior->notify_count == 0 && cleared_since_fired)
    AddHistory(*prior, t, "watching", "fired again after clearing: " + summary);
  d = Update(prior, event, now, event_policy);
  d.alert.evidence_json = Dump(out);
  if (d.write == AlertDecision::Write::kInsert) d.alert.opened_evidence_json = d.alert.evidence_json;
  if (d.write == AlertDecision::Write::kInsert && d.alert.condition == kBoxEnvironmentEvent &&
      told_before && told_before->notify_count > 0 && told_before->resolved_at &&
      t - *told_before->resolved_at < kBoxStepJoinSeconds) {
    // The same step, told already: kept for the record, not told again.
    d.notify = NotifyKind::kNone;
    d.alert.notify_count = told_before->notify_count;
    d.alert.last_notified_at = told_before->last_notified_at;
    AddHistory(d.alert, t, "joined",
               "the box's step told on alert " + std::to_string(told_before->id) +
                   ", resolved " + std::to_string((t - *told_before->resolved_at) / 86400) +
                   " days ago: " + summary);
  }
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
