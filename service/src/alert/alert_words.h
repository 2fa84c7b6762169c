// What an alert says to its owner, in three parts (model/alert.h AlertWords),
// rendered here and nowhere else from typed fields: the verdict an alert of
// one verdict was refreshed with, or an event's typed members. The API, the
// page, the notifications (mail, webhook, MQTT) all show these words; the
// statistics stay in the evidence.
//
//  - headline: what happened, in an owner's words and units ("sdb reads 11%
//    slower than it used to, and slower each month"; "sdh has been missing
//    for 2 days"); SMART counts are the raw counts the drive's SMART table
//    shows.
//  - confidence: a level and what it rests on, with one number:
//      "Certain (read from SMART, 3 days)": a state read from the drive, the
//        pool or the kernel (SMART, missing, pool, scrub, ZFS, wear,
//        self-test); the duration is how long the alert has stood.
//      "Possible | Likely | Sure (N rules, DURATION)": a measured change.
//        N is how many rules saw it (slowdown against its own baseline, trend
//        over months, against its siblings; for a box, every drive at once
//        counts once); the level is N, plus one when it has stood 4 weeks
//        or more: 1 Possible, 2 Likely, 3 or more Sure.
//  - advice: what to do next, one text per kind (AdviceText), listed in
//    docs/alerts.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/alert.h"
#include "model/condition.h"
#include "model/verdict.h"

namespace dp {

// An alert of one verdict: `a` is the alert as it stands with this verdict
// (opened_at set). `now` in unix seconds.
AlertWords WordsOf(const Verdict& v, const Alert& a, std::int64_t now);
// An event alert (a drive's speed, the box's environment) from its typed
// members; `name` is the drive's name for people ("" = its id, or the box).
AlertWords WordsOf(const Alert& event, std::string_view name, std::int64_t now);

// The advice for a condition: one per kind, a few kinds by their condition
// (a cable's CRC errors are no failing disk; an overdue scrub is no damage).
std::string AdviceText(std::string_view condition);

// Seconds as people say them: "under an hour", "5 hours", "2 days",
// "6 weeks", "4 months".
std::string HumanDuration(std::int64_t seconds);

}  // namespace dp
