// The three-part words of every alert kind (alert/alert_words.h): a
// headline in an owner's words and units, how sure, what to do; and
// docs/alerts.md listing each kind's advice as the code gives it.
#include "alert/alert_words.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace dp {
namespace {

constexpr std::int64_t kNow = 1780000000;

// One firing verdict of each kind, as its detector makes it.
Verdict Sample(ConditionKind kind) {
  Verdict v;
  v.drive_id = "wwn-1";
  v.drive_name = "sdc";
  v.severity = Severity::kWarning;
  v.at = kNow;
  switch (kind) {
    case ConditionKind::kSlowdown:
      v.condition = "slowdown:seq:qd8-1m:mb_per_s";
      v.kind = VerdictKind::kSlowdown;
      v.metric = "mb_per_s";
      v.change_percent = 11.2;
      break;
    case ConditionKind::kTrend:
      v.condition = "trend:seq:qd8-1m:mb_per_s";
      v.kind = VerdictKind::kTrend;
      v.metric = "mb_per_s";
      v.slope_percent_per_month = 2.5;
      break;
    case ConditionKind::kPeer:
      v.condition = "peer:seek:full:access_ms";
      v.kind = VerdictKind::kPeerOutlier;
      v.metric = "access_ms";
      v.change_percent = 20;
      break;
    case ConditionKind::kEnvironment:
      v.condition = "environment:raidz2-0:seq:qd8-1m:mb_per_s";
      v.kind = VerdictKind::kEnvironment;
      break;
    case ConditionKind::kSmart:
      v.condition = "smart:pending_sectors";
      v.kind = VerdictKind::kSmart;
      v.metric = "pending_sectors";
      v.current = 128;
      v.previous = 107;
      break;
    case ConditionKind::kZfs:
      v.condition = "zfs:tank:cksum";
      v.kind = VerdictKind::kPoolErrors;
      v.metric = "cksum";
      v.current = 4;
      break;
    case ConditionKind::kMissing:
      v.condition = "missing";
      v.kind = VerdictKind::kHealth;
      v.metric = "present";
      v.current = 2880;  // minutes, as the health detector counts them
      v.unit = "min";
      break;
    case ConditionKind::kPool:
      v.condition = "pool:tank:state";
      v.kind = VerdictKind::kHealth;
      v.metric = "state";
      break;
    case ConditionKind::kScrub:
      v.condition = "scrub:tank:overdue";
      v.kind = VerdictKind::kHealth;
      v.metric = "scrub_age";
      v.current = 50;
      v.unit = "days";
      break;
    case ConditionKind::kWear:
      v.condition = "wear:endurance";
      v.kind = VerdictKind::kHealth;
      v.metric = "wear_used_percent";
      v.current = 93;
      break;
    case ConditionKind::kSelfTest:
      v.condition = "selftest:overdue";
      v.kind = VerdictKind::kHealth;
      v.metric = "self_test_age";
      v.current = 528;
      v.unit = "h";
      break;
    case ConditionKind::kOther:
      break;
  }
  v.summary = "the detector's summary of " + v.condition;
  return v;
}

Alert OpenedAgo(std::int64_t seconds) {
  Alert a;
  a.opened_at = kNow - seconds;
  return a;
}

// A new kind without words fails here: its headline would be the
// detector's summary and its advice the generic fallback.
TEST(AlertWords, EveryKindHasAHeadlineConfidenceAndItsOwnAdvice) {
  const std::string fallback = AdviceText("no-such-kind");
  for (ConditionKind kind : kConditionKinds) {
    const Verdict v = Sample(kind);
    const AlertWords w = WordsOf(v, OpenedAgo(3 * 86400), kNow);
    SCOPED_TRACE(std::string(ConditionKindName(kind)));
    EXPECT_FALSE(w.headline.empty());
    EXPECT_NE(w.headline, v.summary) << "no words of its own";
    EXPECT_FALSE(w.confidence.empty());
    EXPECT_NE(w.confidence.find("("), std::string::npos) << w.confidence;
    EXPECT_NE(w.advice, fallback) << "no advice of its own";
    EXPECT_FALSE(w.advice.empty());
  }
}

TEST(AlertWords, HeadlinesInAnOwnersUnits) {
  EXPECT_EQ(WordsOf(Sample(ConditionKind::kMissing), OpenedAgo(3600), kNow).headline,
            "sdc has been missing for 2 days");
  // The raw count the drive's SMART table shows, and what is new.
  EXPECT_EQ(WordsOf(Sample(ConditionKind::kSmart), OpenedAgo(3600), kNow).headline,
            "sdc has 128 sectors it could not read (pending), 21 more than at the check before");
  EXPECT_EQ(WordsOf(Sample(ConditionKind::kSlowdown), OpenedAgo(3600), kNow).headline,
            "sdc reads 11% slower than it used to");
  EXPECT_EQ(WordsOf(Sample(ConditionKind::kPeer), OpenedAgo(3600), kNow).headline,
            "sdc takes 20% longer to answer than its siblings");
  EXPECT_EQ(WordsOf(Sample(ConditionKind::kScrub), OpenedAgo(3600), kNow).headline,
            "Pool tank was last scrubbed 50 days ago");
  EXPECT_EQ(WordsOf(Sample(ConditionKind::kSelfTest), OpenedAgo(3600), kNow).headline,
            "sdc has had no SMART self-test for 22 days of running time");
  for (ConditionKind kind : kConditionKinds) {
    const std::string h = WordsOf(Sample(kind), OpenedAgo(3600), kNow).headline;
    EXPECT_EQ(h.find(" min"), std::string::npos) << h;
    EXPECT_EQ(h.find("p="), std::string::npos) << h;
  }
}

TEST(AlertWords, ConfidenceSaysWhatItRestsOn) {
  EXPECT_EQ(WordsOf(Sample(ConditionKind::kSmart), OpenedAgo(3 * 86400), kNow).confidence,
            "Certain (read from SMART, 3 days)");
  EXPECT_EQ(WordsOf(Sample(ConditionKind::kMissing), OpenedAgo(600), kNow).confidence,
            "Certain (seen by discovery, under an hour)");
  // One rule: possible at first, likely once it has stood four weeks.
  EXPECT_EQ(WordsOf(Sample(ConditionKind::kSlowdown), OpenedAgo(5 * 3600), kNow).confidence,
            "Possible (1 rule, 5 hours)");
  EXPECT_EQ(WordsOf(Sample(ConditionKind::kSlowdown), OpenedAgo(42 * 86400), kNow).confidence,
            "Likely (1 rule, 6 weeks)");
}

TEST(AlertWords, HumanDurations) {
  EXPECT_EQ(HumanDuration(59), "under an hour");
  EXPECT_EQ(HumanDuration(3600), "1 hour");
  EXPECT_EQ(HumanDuration(2880 * 60), "2 days");
  EXPECT_EQ(HumanDuration(13 * 86400), "13 days");
  EXPECT_EQ(HumanDuration(42 * 86400), "6 weeks");
  EXPECT_EQ(HumanDuration(200 * 86400), "6 months");
  EXPECT_EQ(HumanDuration(800 * 86400), "2 years");
}

// docs/alerts.md gives every advice as the daemon sends it.
TEST(AlertWords, TheAlertsDocListsEveryAdvice) {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/docs/alerts.md");
  ASSERT_TRUE(in) << "docs/alerts.md";
  std::stringstream doc;
  doc << in.rdbuf();
  std::string text = doc.str();
  // The table may wrap a cell's text over lines: compare with single spaces.
  std::string flat;
  for (char c : text) {
    if (c == '\n') c = ' ';
    if (c == ' ' && !flat.empty() && flat.back() == ' ') continue;
    flat += c;
  }
  for (const char* condition :
       {"slowdown:drive", "environment:box", "smart:pending_sectors", "smart:udma_crc_errors",
        "smart:temperature", "zfs:tank:cksum", "missing", "pool:tank:state", "pool:tank:capacity",
        "scrub:tank:overdue", "scrub:tank:findings", "wear:endurance", "selftest:overdue"}) {
    const std::string advice = AdviceText(condition);
    EXPECT_NE(flat.find(advice), std::string::npos) << condition << ": " << advice;
  }
}

}  // namespace
}  // namespace dp
