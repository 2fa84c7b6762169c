// EvaluateZfsLatencyPeers: a member far above its vdev siblings in each of
// the last three samplings is "watch" evidence; one noisy sampling, two
// siblings too few, or a load that slows every member alike are not; a rise
// of ZFS's own slow I/O counter is, and so is a member OpenZFS 2.4 sits out
// of reads (sit_out), whose disk wait is then not judged.
#include "detect/zfs_latency_peers.h"

#include <gtest/gtest.h>

namespace dp::detect {
namespace {

// One sampling of a six-member raidz2: siblings near 8 ms (a few percent
// apart), member "m3" at `m3` seconds.
std::vector<ZfsLatencySample> Sampling(std::int64_t at, double m3, double load = 1.0,
                                       std::optional<std::uint64_t> m3_slow = std::nullopt) {
  const double base[] = {0.0081, 0.0079, 0.0, 0.0084, 0.0077, 0.0080};
  std::vector<ZfsLatencySample> out;
  for (int i = 0; i < 6; ++i) {
    ZfsLatencySample s;
    s.at = at;
    s.pool = "tank";
    s.vdev = "raidz2-0";
    s.member = "m" + std::to_string(i + 1);
    s.drive_id = "wwn-" + std::to_string(i + 1);
    s.read_ops = 40;
    s.write_ops = 10;
    double r = (i == 2 ? m3 : base[i]) * load;
    s.disk_wait_read = r;
    s.disk_wait_write = r;  // same, so the weighted figure is r
    s.slow_ios = i == 2 ? m3_slow : std::optional<std::uint64_t>(0);
    out.push_back(s);
  }
  return out;
}

std::vector<ZfsLatencySample> Join(std::initializer_list<std::vector<ZfsLatencySample>> parts) {
  std::vector<ZfsLatencySample> all;
  for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

const Verdict* Find(const std::vector<Verdict>& vs, const std::string& drive,
                    const std::string& what) {
  for (const auto& v : vs)
    if (v.drive_id == drive && v.condition == "zfs:tank:" + what) return &v;
  return nullptr;
}

TEST(ZfsLatencyPeersTest, FarAboveInThreeSamplingsIsWatchEvidence) {
  auto vs = EvaluateZfsLatencyPeers(
      Join({Sampling(3600, 0.041), Sampling(7200, 0.046), Sampling(10800, 0.044)}));
  const Verdict* v = Find(vs, "wwn-3", "latency");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->kind, VerdictKind::kPoolErrors);
  EXPECT_EQ(v->severity, Severity::kWarning);
  EXPECT_TRUE(v->Firing());
  EXPECT_DOUBLE_EQ(*v->current, 0.044);
  EXPECT_NEAR(*v->peer_median, 0.0080, 1e-12);
  EXPECT_EQ(v->at, 10800);
  EXPECT_NE(v->summary.find("5.5x its 5 vdev siblings' median 8.00 ms"), std::string::npos)
      << v->summary;
  EXPECT_EQ(v->details["samplings"].size(), 3u);
  EXPECT_EQ(v->details["vdev"], "raidz2-0");
  // The siblings are fine.
  for (const char* d : {"wwn-1", "wwn-2", "wwn-4", "wwn-5", "wwn-6"}) {
    const Verdict* s = Find(vs, d, "latency");
    ASSERT_TRUE(s) << d;
    EXPECT_EQ(s->kind, VerdictKind::kClear) << d << ": " << s->summary;
  }
}

TEST(ZfsLatencyPeersTest, OneOrTwoNoisySamplingsNeverFire) {
  // Far above only in the newest sampling, then in the two newest.
  for (auto samples : {Join({Sampling(3600, 0.0082), Sampling(7200, 0.0079), Sampling(10800, 0.09)}),
                       Join({Sampling(3600, 0.0082), Sampling(7200, 0.07), Sampling(10800, 0.09)}),
                       Join({Sampling(7200, 0.07), Sampling(10800, 0.09)})}) {
    auto vs = EvaluateZfsLatencyPeers(samples);
    const Verdict* v = Find(vs, "wwn-3", "latency");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->kind, VerdictKind::kInconclusive) << v->summary;
    EXPECT_FALSE(v->Firing());
  }
  // Far above, then back among its siblings: clear.
  auto back = EvaluateZfsLatencyPeers(
      Join({Sampling(3600, 0.05), Sampling(7200, 0.05), Sampling(10800, 0.0083)}));
  EXPECT_EQ(Find(back, "wwn-3", "latency")->kind, VerdictKind::kClear);
}

TEST(ZfsLatencyPeersTest, LoadOnTheWholeVdevIsNoOutlier) {
  // Every member 6x slower (a scrub, a busy pool): nobody stands out.
  auto vs = EvaluateZfsLatencyPeers(Join({Sampling(3600, 0.0081, 6), Sampling(7200, 0.0080, 6),
                                          Sampling(10800, 0.0082, 6)}));
  for (const auto& v : vs) EXPECT_FALSE(v.Firing()) << v.summary;
}

TEST(ZfsLatencyPeersTest, SmallAbsoluteExcessOnFlashIsNoise) {
  // SSD-like: siblings 40 us, member 200 us (5x, but 0.16 ms).
  auto ssd = [](std::int64_t at) {
    auto s = Sampling(at, 0.0);
    for (auto& x : s) {
      double v = x.member == "m3" ? 200e-6 : 40e-6 + 1e-6 * (x.member.back() - '0');
      x.disk_wait_read = x.disk_wait_write = v;
    }
    return s;
  };
  auto vs = EvaluateZfsLatencyPeers(Join({ssd(1), ssd(2), ssd(3)}));
  EXPECT_EQ(Find(vs, "wwn-3", "latency")->kind, VerdictKind::kClear);
}

TEST(ZfsLatencyPeersTest, TooFewSiblingsOrIdleIsInconclusive) {
  // A two-way mirror: one sibling is too few to tell which one is slow.
  std::vector<ZfsLatencySample> mirror;
  for (std::int64_t at : {1, 2, 3}) {
    auto s = Sampling(at, 0.05);
    mirror.push_back(s[1]);
    mirror.push_back(s[2]);
  }
  auto vs = EvaluateZfsLatencyPeers(mirror);
  EXPECT_EQ(Find(vs, "wwn-3", "latency")->kind, VerdictKind::kInconclusive);
  // Idle in the newest sampling ("-" in every wait column).
  auto idle = Sampling(3, 0.05);
  for (auto& s : idle) s.disk_wait_read = s.disk_wait_write = std::nullopt;
  auto vi = EvaluateZfsLatencyPeers(Join({Sampling(1, 0.05), Sampling(2, 0.05), idle}));
  const Verdict* v = Find(vi, "wwn-3", "latency");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->kind, VerdictKind::kInconclusive);
  EXPECT_NE(v->summary.find("no I/O"), std::string::npos);
}

TEST(ZfsLatencyPeersTest, UnmappedMembersCountAsSiblingsButGetNoVerdict) {
  auto all = Join({Sampling(1, 0.05), Sampling(2, 0.05), Sampling(3, 0.05)});
  for (auto& s : all)
    if (s.member != "m3") s.drive_id.clear();
  auto vs = EvaluateZfsLatencyPeers(all);
  ASSERT_EQ(vs.size(), 1u);  // m3's latency; its slow_ios is unknown
  EXPECT_EQ(vs[0].kind, VerdictKind::kPoolErrors);
}

TEST(ZfsLatencyPeersTest, RiseOfZfsSlowCounterFires) {
  auto vs = EvaluateZfsLatencyPeers(
      Join({Sampling(1, 0.008, 1, 96u), Sampling(2, 0.008, 1, 113u)}));
  const Verdict* v = Find(vs, "wwn-3", "slow_ios");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->kind, VerdictKind::kPoolErrors);
  EXPECT_EQ(v->severity, Severity::kWarning);
  EXPECT_DOUBLE_EQ(*v->current, 113);
  EXPECT_DOUBLE_EQ(*v->previous, 96);
  EXPECT_NE(v->summary.find("17 new ZFS slow I/Os"), std::string::npos) << v->summary;
  // Unchanged: clear; the first sampling alone: inconclusive; cleared
  // (`zpool clear` resets it): clear.
  auto same = EvaluateZfsLatencyPeers(Join({Sampling(1, 0.008, 1, 5u), Sampling(2, 0.008, 1, 5u)}));
  EXPECT_EQ(Find(same, "wwn-3", "slow_ios")->kind, VerdictKind::kClear);
  auto first = EvaluateZfsLatencyPeers(Sampling(1, 0.008, 1, 113u));
  EXPECT_EQ(Find(first, "wwn-3", "slow_ios")->kind, VerdictKind::kInconclusive);
  auto reset = EvaluateZfsLatencyPeers(Join({Sampling(1, 0.008, 1, 50u), Sampling(2, 0.008, 1, 0u)}));
  EXPECT_EQ(Find(reset, "wwn-3", "slow_ios")->kind, VerdictKind::kClear);
}

TEST(ZfsLatencyPeersTest, DiskWaitWeighsReadsAndWritesByTheirOperations) {
  ZfsLatencySample s;
  s.read_ops = 30;
  s.write_ops = 10;
  s.disk_wait_read = 0.010;
  s.disk_wait_write = 0.002;
  EXPECT_DOUBLE_EQ(*ZfsDiskWait(s), (0.010 * 30 + 0.002 * 10) / 40);
  s.read_ops = 0;  // no reads: the read wait is no evidence
  EXPECT_DOUBLE_EQ(*ZfsDiskWait(s), 0.002);
  s.disk_wait_write.reset();
  EXPECT_FALSE(ZfsDiskWait(s));
  EXPECT_TRUE(EvaluateZfsLatencyPeers({}).empty());
}

TEST(ZfsLatencyPeersTest, SitOutIsThePoolSayingTheMemberIsSlow) {
  // ZFS moved reads off m3: its waits look ordinary, yet it sits out.
  auto newest = Sampling(7200, 0.0080);
  for (auto& s : newest) s.sit_out = s.member == "m3";
  auto vs = EvaluateZfsLatencyPeers(Join({Sampling(3600, 0.0080), newest}));
  const Verdict* sit = Find(vs, "wwn-3", "sit_out");
  ASSERT_TRUE(sit);
  EXPECT_EQ(sit->kind, VerdictKind::kPoolErrors);
  EXPECT_EQ(sit->severity, Severity::kWarning);
  EXPECT_TRUE(sit->Firing());
  EXPECT_EQ(sit->details["source"], "zpool get sit_out");
  EXPECT_NE(sit->summary.find("sits it out of reads (sit_out=on)"), std::string::npos)
      << sit->summary;
  // Not an all-clear for its latency meanwhile.
  const Verdict* lat = Find(vs, "wwn-3", "latency");
  ASSERT_TRUE(lat);
  EXPECT_EQ(lat->kind, VerdictKind::kInconclusive);
  // The siblings are off: clear, which resolves an alert after enough samplings.
  const Verdict* other = Find(vs, "wwn-1", "sit_out");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->kind, VerdictKind::kClear);
  EXPECT_FALSE(other->Firing());
}

TEST(ZfsLatencyPeersTest, UnknownSitOutGivesNoVerdict) {
  // Older zpools and mirrors: no sit_out at all, never an error or a clear.
  auto vs = EvaluateZfsLatencyPeers(Join({Sampling(3600, 0.0080), Sampling(7200, 0.0080)}));
  for (const auto& v : vs) EXPECT_NE(v.metric, "sit_out") << v.summary;
  EXPECT_TRUE(Find(vs, "wwn-3", "latency"));
}

}  // namespace
}  // namespace dp::detect
