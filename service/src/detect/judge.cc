#include "detect/judge.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <utility>

#include "detect/baseline_internal.h"
#include "detect/change_detector.h"
#include "detect/environment_detector.h"
#include "detect/peer_detector.h"
#include "detect/series.h"
#include "detect/verdict_text.h"
#include "model/condition.h"
#include "model/test_catalog.h"

namespace dp::detect {
namespace {

// A doubt or slowdown that another verdict accounts for (the vdev's
// environment, the zones' combined series): evidence of that one, not an
// alert of its own; the alert lifecycle leaves inconclusive verdicts alone.
// `field` names, in the details, the verdict `by` that accounts for it.
void NotJudgedAlone(Verdict& v, const char* reason, const char* field, const std::string& by,
                    std::string summary) {
  v.kind = VerdictKind::kInconclusive;
  v.severity = Severity::kInfo;
  v.covered_by = by;
  v.details["reason"] = reason;
  v.details[field] = by;
  v.summary = std::move(summary);
}

// A series' runs from its re-baseline mark on: the runs a young run is
// judged against (Samples reaches back before the mark; a box step's old
// level made every run after it look worse).
std::vector<Sample> SinceMark(const std::vector<Sample>& samples, std::int64_t since) {
  std::vector<Sample> out;
  for (const Sample& s : samples)
    if (s.at >= since) out.push_back(s);
  return out;
}

// A shift the vdev shares and crept into rather than stepped into
// (EnvironmentOverWindow's kDrift).
bool IsDrift(const Verdict& env) {
  return env.kind == VerdictKind::kInconclusive && env.drift;
}

bool IsSlowdownCondition(const Verdict& v) {
  return ConditionKindOf(v.condition) == ConditionKind::kSlowdown;
}

// One run's judgement: the run, what it reads, and what it has found so far.
class Judge {
 public:
  Judge(const RunToJudge& run, SeriesHistory& history, const DetectionConfig& cfg)
      : run_(run), history_(history), cfg_(cfg) {}

  Result<std::vector<Verdict>> Run();
  // The run's peer verdicts, one per series: the drive against its group's
  // runs in the run's window.
  Result<std::vector<Verdict>> Peers(const std::vector<SeriesSpec>& series);

 private:
  // Judges a series again without the runs named (passed interference).
  using Again = std::function<Verdict(const std::vector<std::int64_t>&)>;

  Status Prepare();
  Status JudgeSeries(const SeriesSpec& spec);
  Status ConsultEnvironment(const SeriesSpec& spec, const std::vector<Sample>& samples,
                            const std::vector<PeerHistory>& peers, std::vector<Verdict>& own);
  // True when the drive's own change stands apart (ApartAt).
  bool Absorb(const Verdict& own, Verdict& env, const SeriesKey& key,
              const std::vector<Sample>& samples, const std::vector<PeerHistory>& peers);
  std::vector<std::string> ApartAt(const SeriesKey& key, const std::vector<Sample>& samples,
                                   const Verdict& own, const std::vector<PeerHistory>& peers,
                                   Verdict& env);
  const std::vector<ShiftSeries>& ShiftSeriesOfTest();
  std::optional<PeerHistory> PeerOf(const DriveRef& sibling, const SeriesSpec& spec);
  Verdict PeerVerdict(const SeriesSpec& spec, std::vector<Sample> samples,
                      std::vector<PeerHistory> peers, PeerStanding& standing);
  void JointPeers(std::vector<Verdict>& verdicts, const std::vector<PeerStanding>& standings);
  double OwnScore(const SeriesKey& key, const std::vector<Sample>& samples) const;
  std::vector<PeerHistory> SiblingJoints();
  Status JudgeJoint();
  void FoldIntoJoint(Verdict& joint);
  Status Hold(Verdict& v, const Again& again = {});
  Status LeaveOutPassed(Verdict& v, const Again& again);
  Status RecogniseInterference(const std::vector<Sample>& samples, Verdict& v);
  Status RecogniseYoungInterference();
  Result<std::vector<TestRunScore>> NeighbourShiftsNear(std::int64_t at);
  Result<const std::vector<TestRunScore>*> ScoresFrom(std::int64_t from, std::int64_t to);
  Result<std::vector<TestRunScore>> OtherTestScores(std::int64_t from, std::int64_t to);
  Result<double> RunScore(const StoredRun& other, std::vector<double>& logs,
                          std::map<std::string, std::vector<NoiseFamilyMember>>& families);

  const RunToJudge& run_;
  SeriesHistory& history_;
  const DetectionConfig& cfg_;
  std::int64_t since_ = 0;
  std::vector<NoiseFamilyMember> family_;
  VdevOfDrive vdev_;
  std::map<std::int64_t, std::vector<TestRunScore>> other_scores_;  // by excursion start
  std::vector<std::int64_t> interference_;  // runs recognised as interference by this judgement
  std::vector<SeriesRuns> own_series_;      // every series of the run's test
  std::map<std::string, std::vector<SeriesRuns>> other_series_;  // by test, read when young
  // The members of the test's joint series and the vdev environment any of
  // them was found in.
  std::vector<std::vector<Sample>> joint_members_;
  std::vector<std::string> joint_names_;
  std::vector<SeriesSpec> joint_specs_;  // read again for the siblings' joint series
  std::optional<Verdict> joint_environment_;
  // Every series of the run's test with its siblings' runs, read at the
  // first shift absorbed (ShiftSeriesOfTest) and kept for the others: each
  // series of a test that shifts reaches absorption.
  std::optional<std::vector<ShiftSeries>> shift_series_;
  std::vector<Verdict> out_;
};

Result<std::vector<Verdict>> Judge::Run() {
  DP_RETURN_IF_ERROR(Prepare());
  bool whole = true;  // every point of the test judged
  for (const BenchPoint& point : run_.points) {
    if (point.test != run_.test) continue;
    if (point.contended || point.partial) {
      whole = false;
      continue;
    }
    for (const SeriesSpec& spec : SeriesOf(run_.drive.id, run_.drive.name, point))
      DP_RETURN_IF_ERROR(JudgeSeries(spec));
  }
  if (whole && joint_members_.size() >= 2) DP_RETURN_IF_ERROR(JudgeJoint());
  if (whole) DP_RETURN_IF_ERROR(RecogniseYoungInterference());
  return std::move(out_);
}

// What every series of the run is judged with: the drive's re-baseline mark
// for the test, its noise family, its vdev.
Status Judge::Prepare() {
  DP_ASSIGN_OR_RETURN(since_, history_.BaselineSince(run_.drive.id, run_.test));
  DP_ASSIGN_OR_RETURN(family_, NoiseFamily(history_, run_.drive.id, run_.test, cfg_));
  auto group = history_.Group(run_.drive);
  if (group.ok()) vdev_ = std::move(*group);  // no group known: judged alone
  return Status::Ok();
}

// One series: its own history, the environment, its siblings.
Status Judge::JudgeSeries(const SeriesSpec& spec) {
  DP_ASSIGN_OR_RETURN(std::vector<Sample> samples,
                      history_.Samples(run_.drive.id, spec, since_, cfg_.baseline_max_runs));
  const SpreadPrior prior = FamilyPriorOf(spec.key, family_);
  std::vector<Verdict> own = EvaluateSeries(spec.key, samples, cfg_, since_, prior);
  for (Verdict& v : own)
    DP_RETURN_IF_ERROR(Hold(v, [&](const std::vector<std::int64_t>& passed) {
      return EvaluateChange(spec.key, WithoutRuns(samples, passed), cfg_, since_, prior);
    }));
  for (Verdict& v : own) DP_RETURN_IF_ERROR(RecogniseInterference(samples, v));
  own_series_.push_back({SinceMark(samples, since_), DirectionOf(spec.key.metric)});
  if (HasJointSeries(run_.test) && spec.key.metric == "mb_per_s") {
    joint_members_.push_back(samples);
    joint_names_.push_back(spec.key.series);
    joint_specs_.push_back(spec);
  }
  std::vector<PeerHistory> peers;
  for (const DriveRef& s : vdev_.siblings)
    if (auto p = PeerOf(s, spec)) peers.push_back(std::move(*p));
  DP_RETURN_IF_ERROR(ConsultEnvironment(spec, samples, peers, own));
  for (Verdict& v : own) out_.push_back(std::move(v));
  // The peer verdict waits for the group's runs of the cycle (JudgeDuePeers).
  return Status::Ok();
}

Result<std::vector<Verdict>> Judge::Peers(const std::vector<SeriesSpec>& series) {
  DP_RETURN_IF_ERROR(Prepare());
  if (vdev_.siblings.empty()) return std::vector<Verdict>{};
  std::vector<Verdict> verdicts;
  std::vector<PeerStanding> standings;
  for (SeriesSpec spec : series) {
    spec.key.drive_id = run_.drive.id;
    spec.key.drive_name = run_.drive.name;
    DP_ASSIGN_OR_RETURN(std::vector<Sample> samples,
                        history_.Samples(run_.drive.id, spec, since_, cfg_.baseline_max_runs));
    // As of the run: the verdict is the run's, whenever it is made.
    std::erase_if(samples, [&](const Sample& s) { return s.at > run_.started_at; });
    if (samples.empty() || samples.back().run_id != run_.id) continue;
    std::vector<PeerHistory> peers;
    for (const DriveRef& s : vdev_.siblings)
      if (auto p = PeerOf(s, spec)) peers.push_back(std::move(*p));
    if (peers.empty()) continue;
    PeerStanding standing;
    verdicts.push_back(PeerVerdict(spec, std::move(samples), std::move(peers), standing));
    standings.push_back(std::move(standing));
  }
  JointPeers(verdicts, standings);
  for (Verdict& v : verdicts) {
    DP_RETURN_IF_ERROR(Hold(v));
    out_.push_back(std::move(v));
  }
  return std::move(out_);
}

// The test's series judged together (JointPeerRule): when the drive is worse
// than its siblings on all of them at once, in two windows, the series that
// were worse in both are peer outliers even where each alone stayed inside
// its band. A lone pair also asks it of the drive's own change, jointly.
void Judge::JointPeers(std::vector<Verdict>& verdicts, const std::vector<PeerStanding>& standings) {
  const bool pair = vdev_.siblings.size() == 1;
  const JointPeerResult joint = JointPeerRule(standings, cfg_, pair ? cfg_.band_sigmas : 0);
  if (!joint.outlier) return;
  const nlohmann::json figures = {{"series", joint.series},
                                  {"sigmas", joint.t},
                                  {"previous_sigmas", joint.before_t},
                                  {"mean_excess_percent", 100 * std::expm1(joint.excess)},
                                  {"usual_windows", joint.usual_windows}};
  char text[160];
  std::snprintf(text, sizeof text,
                "; on its %d %s series together it stood %.1f and %.1f sigmas worse than its "
                "siblings in two windows (%.0f%% on average)",
                joint.series, run_.test.c_str(), joint.before_t, joint.t,
                100 * std::expm1(joint.excess));
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    Verdict& v = verdicts[i];
    const PeerStanding& s = standings[i];
    if (!s.judged || !(s.excess > 0 && s.before_excess > 0)) continue;
    v.details["joint"] = figures;
    if (v.kind == VerdictKind::kPeerOutlier) continue;
    v.kind = VerdictKind::kPeerOutlier;
    v.severity = Severity::kWarning;
    v.details["rule"] = "the test's series together";
    v.summary = run_.drive.name + " " + v.test + (v.series.empty() ? "" : " " + v.series) + " " +
                MetricNoun(v.metric) + text;
  }
}

// A series' runs as ratios to its own baseline's centre (1 = where the drive
// usually is): drives of different models compared by their change.
std::vector<Sample> RelativeToOwn(std::vector<Sample> samples, std::int64_t since,
                                  const std::string& metric, const DetectionConfig& cfg) {
  const Baseline own = ComputeBaseline(samples, samples.size(), cfg, since, DirectionOf(metric),
                                       TailDfOf(metric));
  if (!own.ready || !(own.center > 0)) return {};
  for (Sample& s : samples) s.value /= own.center;
  return samples;
}

// The peer rule, with what the group's shape asks: drives of several
// models compared by their change against their own baselines; two drives
// alone (a two-way mirror) diverge only when the worse one has also left
// its own baseline, since either could be the one that moved.
Verdict Judge::PeerVerdict(const SeriesSpec& spec, std::vector<Sample> samples,
                           std::vector<PeerHistory> peers, PeerStanding& standing) {
  const std::vector<Sample> own_samples = samples;
  if (vdev_.relative) {
    samples = RelativeToOwn(std::move(samples), since_, spec.key.metric, cfg_);
    for (PeerHistory& p : peers)
      p.samples = RelativeToOwn(std::move(p.samples), p.baseline_since, spec.key.metric, cfg_);
    std::erase_if(peers, [](const PeerHistory& p) { return p.samples.empty(); });
    if (samples.empty() || peers.empty()) {
      Verdict v;
      v.drive_id = run_.drive.id;
      v.drive_name = run_.drive.name;
      v.condition = JoinCondition({"peer", spec.key.test, spec.key.series, spec.key.metric});
      v.test = spec.key.test;
      v.series = spec.key.series;
      v.metric = spec.key.metric;
      v.kind = VerdictKind::kInconclusive;
      v.at = run_.started_at;
      v.summary = spec.key.Who() + " " + spec.key.Label() +
                  ": compared by change, and its or its peers' baselines are still forming";
      return v;
    }
  }
  const bool pair = vdev_.siblings.size() == 1;
  DetectionConfig c = cfg_;
  if (pair) c.peer_min_siblings = 1;
  Verdict v = EvaluatePeers(spec.key, std::move(samples), peers, c, &standing);
  if (pair) standing.own_z = OwnScore(spec.key, own_samples);
  v.details["peer_group"] = vdev_.group;
  if (vdev_.relative) {
    v.details["compared_by"] = "change against each drive's own baseline";
    // The figures are ratios to the baselines: say them as percents of each
    // drive's own usual level, and state the drive's own figure.
    if (v.current && v.peer_median && v.kind != VerdictKind::kInconclusive) {
      char text[200];
      std::snprintf(text, sizeof text,
                    ": at %.0f%% of its own baseline, its %zu siblings (other models) at %.0f%% "
                    "of theirs",
                    100 * *v.current, peers.size(), 100 * *v.peer_median);
      const std::string verdict_word =
          v.kind == VerdictKind::kClear ? "in line" : v.kind == VerdictKind::kPeerOutlier
                                                          ? "changed unlike its siblings"
                                                          : "re-test to confirm";
      v.summary = spec.key.Who() + " " + spec.key.Label() + text + ": " + verdict_word;
    }
    v.current = own_samples.back().value;
    v.peer_median.reset();
    v.band_low.reset();
    v.band_high.reset();
  }
  if (pair && (v.kind == VerdictKind::kNeedsConfirmation || v.kind == VerdictKind::kPeerOutlier)) {
    const Verdict own = EvaluateChange(spec.key, own_samples, cfg_, since_,
                                       FamilyPriorOf(spec.key, family_));
    if (own.runs.empty() || !own.runs.back().outside) {
      v.kind = VerdictKind::kClear;
      v.severity = Severity::kInfo;
      v.summary += "; but it is inside its own band: with two drives either could have moved";
    }
  }
  return v;
}

// The latest run against the drive's own baseline (the runs before it), in
// sds of a prediction for one run, + = worse; 0 while no baseline has formed.
double Judge::OwnScore(const SeriesKey& key, const std::vector<Sample>& samples) const {
  if (samples.size() < 2) return 0;
  const Direction dir = DirectionOf(key.metric);
  const Baseline b = ComputeBaseline(samples, samples.size() - 1, cfg_, since_, dir,
                                     TailDfOf(key.metric), FamilyPriorOf(key, family_));
  const double latest = samples.back().value;
  if (!b.ready || !(b.center > 0) || !(b.log_sigma > 0) || !(latest > 0)) return 0;
  const double deviation = dir == Direction::kHigherIsBetter ? std::log(b.center / latest)
                                                             : std::log(latest / b.center);
  return deviation / (b.log_sigma * std::sqrt(1 + 1.0 / std::max(1, b.runs)));
}

// A sibling's runs of the series and its re-baseline mark; nullopt when it
// has none (or they cannot be read: judged without it).
std::optional<PeerHistory> Judge::PeerOf(const DriveRef& sibling, const SeriesSpec& spec) {
  auto h = history_.PeerSamples(sibling.id, spec);
  if (!h.ok() || h->empty()) return std::nullopt;
  auto since = history_.BaselineSince(sibling.id, run_.test);
  return PeerHistory{sibling.id, sibling.name, std::move(*h), since.ok() ? *since : 0};
}

// Each sibling's joint series, from every member the drive's has; read only
// when a sustained slowdown of the joint series asks (rare), not per run.
std::vector<PeerHistory> Judge::SiblingJoints() {
  std::vector<PeerHistory> out;
  for (const DriveRef& s : vdev_.siblings) {
    std::vector<std::vector<Sample>> members;
    std::optional<PeerHistory> joint;
    for (const SeriesSpec& spec : joint_specs_) {
      auto p = PeerOf(s, spec);
      if (!p) break;
      members.push_back(std::move(p->samples));
      joint = std::move(p);
    }
    if (!joint || members.size() != joint_specs_.size()) continue;
    joint->samples = JointSamples(members);
    out.push_back(std::move(*joint));
  }
  return out;
}

// A drop every measured sibling shares in the same window is the vdev's
// environment: one verdict for the vdev, not one alert per drive.
Status Judge::ConsultEnvironment(const SeriesSpec& spec, const std::vector<Sample>& samples,
                                 const std::vector<PeerHistory>& peers,
                                 std::vector<Verdict>& own) {
  for (Verdict& v : own) {
    if (peers.empty()) continue;
    // A trend that every sibling shares is the box's step seen as a slope.
    const bool trend = ConditionKindOf(v.condition) == ConditionKind::kTrend &&
                       v.kind == VerdictKind::kTrend;
    if (!IsSlowdownCondition(v) && !trend) continue;
    const bool doubtful = trend || v.kind == VerdictKind::kSlowdown ||
                          v.kind == VerdictKind::kNeedsConfirmation;
    if (!doubtful && v.kind != VerdictKind::kClear) continue;
    Verdict env = EvaluateEnvironment(spec.key, samples, peers, vdev_.group, vdev_.owner, cfg_,
                                      since_, &v);
    bool apart = false;
    if (env.kind == VerdictKind::kEnvironment && doubtful) {
      if (!trend) apart = Absorb(v, env, spec.key, samples, peers);  // or finds it a drift
      if (env.kind == VerdictKind::kEnvironment) joint_environment_ = env;
    }
    if ((env.kind == VerdictKind::kEnvironment && doubtful) || IsDrift(env))
      NotJudgedAlone(v, "environment", "environment", env.condition,
                     run_.drive.name + " " + spec.key.Label() + ": not judged alone: " +
                         env.summary);
    if (trend) {
      if (env.kind == VerdictKind::kEnvironment) out_.push_back(std::move(env));
      continue;
    }
    // The siblings have not run in this window yet: a scheduled run's drop
    // waits for their runs (its re-test) before it is a slowdown.
    if (env.kind == VerdictKind::kInconclusive && v.kind == VerdictKind::kSlowdown &&
        !run_.confirmation && env.siblings_measured && !apart) {
      v.kind = VerdictKind::kNeedsConfirmation;
      v.severity = Severity::kInfo;
      v.details["waiting_for"] = "vdev siblings measured in the same window";
      v.summary += "; re-testing after its vdev siblings' runs (" + env.summary + ")";
    }
    if (env.kind == VerdictKind::kEnvironment || env.kind == VerdictKind::kClear || IsDrift(env))
      out_.push_back(std::move(env));
  }
  return Status::Ok();
}

// A shift the siblings share that has lasted (it was there a scheduled run
// ago: the series' open CUSUM segment, the runs that have not been where the
// baseline puts them since, began environment_absorb_days before this run)
// is the box's new level, not an event: the drive's baselines re-form from
// the segment's first run (every test: runs/run_evaluator.h, AbsorbedShift). The segment, not the run of
// consecutive runs outside the band: a step little beyond the band's floor
// leaves every fourth run inside it, and a drive that waited for a week of
// runs all outside went on being re-tested for months (an 8% step at 3%
// noise does that). Change-point on the siblings'
// common component: the siblings outside their own bands in the same window
// are the evidence that the change is common, and its persistence across
// scheduled runs what tells a new driver or controller from a hot week.
bool Judge::Absorb(const Verdict& own, Verdict& env, const SeriesKey& key,
                   const std::vector<Sample>& samples, const std::vector<PeerHistory>& peers) {
  if (cfg_.environment_absorb_days <= 0) return false;
  const std::int64_t from = EvidenceStart(own);
  if (from <= since_) return false;  // absorbed already
  if (own.at - from < static_cast<std::int64_t>(cfg_.environment_absorb_days * 86400)) return false;
  // The siblings must have shared it over the whole of it, not only in this
  // window: a drive's own segment open for weeks and its siblings worse in
  // one week by chance is not the box's new level (taken for one, healthy
  // vdevs would re-form every few months, each told as a box event).
  if (!env.over_window) {
    Verdict over = env;
    switch (EnvironmentOverWindow(key, own, peers, vdev_.group, cfg_, over)) {
      case SharedOverWindow::kNo:
        env.details["absorb"] = "not yet: the siblings did not share it over the whole window";
        return false;
      case SharedOverWindow::kDrift:
        // Worse together in this window, but over the segment the vdev
        // crept there: no event to tell, no level to re-form on.
        env = std::move(over);
        return false;
      case SharedOverWindow::kStep:
        break;
    }
    env.over_window = true;
    env.details["window"] = over.details["window"];
  }
  // A member whose change over the shift stands apart from the others', on
  // this series or on the test's series together, is not re-formed with
  // them: a slow drive whose siblings happened to be worse with it learned
  // its slowdown as its new normal. This drive apart:
  // its slowdown is its own, judged alone; the siblings absorb their shift
  // on their own doubts.
  const std::vector<std::string> apart = ApartAt(key, samples, own, peers, env);
  auto is_apart = [&](const std::string& id) {
    return std::find(apart.begin(), apart.end(), id) != apart.end();
  };
  if (is_apart(run_.drive.id)) {
    env.kind = VerdictKind::kInconclusive;
    env.severity = Severity::kInfo;
    env.details["apart"] = apart;
    env.summary += "; but " + run_.drive.name + " changed far more than its siblings: judged alone";
    return true;
  }
  env.rebaseline_from = from;
  env.details["rebaseline_from"] = from;
  // The siblings moved too (that is what made it shared). Those whose
  // baselines were not re-formed around this shift re-form with this drive:
  // left to absorb it one by one, a sibling whose runs stayed inside their
  // wider band at the start (an 8% step at 5% noise) was never absorbed and
  // months later its CUSUM or trend called the box's shift its own failing,
  // when the siblings it would be compared with had already
  // moved their baselines. A sibling re-formed after kSiblingAbsorbedSeconds
  // before the drive's open segment began has absorbed it already (a drive
  // alerted before the shift, left out when its vdev absorbed it, absorbs
  // it late and alone).
  constexpr std::int64_t kSiblingAbsorbedSeconds = 28 * 86400;
  const std::int64_t began = std::min(from, own.segment_from.value_or(from));
  nlohmann::json with = nlohmann::json::array();
  // A sibling already alerted as slowing before the shift is its own
  // event: its baselines stay (re-forming them would close it).
  for (const auto& sib : env.siblings_since) {
    if (sib.since >= began - kSiblingAbsorbedSeconds || is_apart(sib.drive_id)) continue;
    auto slowing = history_.SlowingBefore(sib.drive_id, from);
    if (!slowing.ok() || *slowing) continue;
    env.rebaseline_siblings.push_back(sib.drive_id);
    with.push_back(sib.drive_id);
  }
  env.details["rebaseline_siblings"] = with;
  if (!apart.empty()) env.details["apart"] = apart;
  env.summary += "; it has lasted " + std::to_string((own.at - from) / 86400) +
                 " days: the baselines re-form on the new level";
  return false;
}

// The members whose change over a shift stands apart: on the test's series
// together (JointlyApartAtShift, every series of the run's test read only
// here: a lasting shared shift is rare) for each member read so, which is
// the stronger evidence either way (one stroke of a healthy member 7% worse
// than its siblings' in a one-run window is no change of its own); on this
// series alone (ApartAtShift) for the rest (a test of one series, a member
// too young to be read jointly). The joint ones go in env's details.
std::vector<std::string> Judge::ApartAt(const SeriesKey& key, const std::vector<Sample>& samples,
                                        const Verdict& own, const std::vector<PeerHistory>& peers,
                                        Verdict& env) {
  std::vector<std::string> apart = ApartAtShift(key, samples, since_, own, peers, cfg_);
  nlohmann::json joint = nlohmann::json::array();
  for (const JointApart& a : JointlyApartAtShift(own, ShiftSeriesOfTest(), cfg_)) {
    // Read on the test's series together, that reading decides.
    std::erase(apart, a.drive_id);
    if (!a.apart) continue;
    apart.push_back(a.drive_id);
    joint.push_back({{"drive_id", a.drive_id},
                     {"series", a.series},
                     {"sigmas", a.t},
                     {"mean_excess_percent", 100 * std::expm1(a.excess)}});
  }
  if (!joint.empty()) env.details["apart_jointly"] = joint;
  return apart;
}

const std::vector<ShiftSeries>& Judge::ShiftSeriesOfTest() {
  if (shift_series_) return *shift_series_;
  shift_series_.emplace();
  for (const BenchPoint& point : run_.points) {
    if (point.test != run_.test || point.contended || point.partial) continue;
    for (const SeriesSpec& spec : SeriesOf(run_.drive.id, run_.drive.name, point)) {
      auto own_samples = history_.Samples(run_.drive.id, spec, since_, cfg_.baseline_max_runs);
      if (!own_samples.ok()) continue;  // judged without it
      ShiftSeries s{spec.key, std::move(*own_samples), since_, {}};
      for (const DriveRef& sib : vdev_.siblings)
        if (auto p = PeerOf(sib, spec)) s.siblings.push_back(std::move(*p));
      shift_series_->push_back(std::move(s));
    }
  }
  return *shift_series_;
}

// The joint series, judged on its own spread, never below what its members'
// noise implies (JointSpreadFloor; it is not pooled: its noise is below each
// member's by design) and held like its members.
Status Judge::JudgeJoint() {
  const SeriesKey key{run_.drive.id, run_.drive.name, run_.test, kJointSeries, "mb_per_s"};
  const std::vector<Sample> joint = JointSamples(joint_members_);
  const SpreadPrior floor = JointFloorOf(run_.test, family_);
  Verdict v = EvaluateChange(key, joint, cfg_, since_, floor);
  DP_RETURN_IF_ERROR(Hold(v, [&](const std::vector<std::int64_t>& passed) {
    return EvaluateChange(key, WithoutRuns(joint, passed), cfg_, since_, floor);
  }));
  v.details["joint_of"] = joint_names_;
  // A sustained slowdown of the whole surface no member showed alone:
  // against the siblings' joint series over its weeks.
  if (!joint_environment_ && IsSustainedSlowdown(v) && !vdev_.group.empty()) {
    const std::vector<PeerHistory> peers = SiblingJoints();
    Verdict env;
    env.drive_id = vdev_.owner;
    env.condition = JoinCondition({"environment", vdev_.group, key.test, key.series, key.metric});
    env.test = key.test;
    env.series = key.series;
    env.metric = key.metric;
    env.unit = v.unit;
    env.at = v.at;
    for (const PeerHistory& p : peers) env.siblings_since.push_back({p.drive_id, p.baseline_since});
    const SharedOverWindow shared = EnvironmentOverWindow(key, v, peers, vdev_.group, cfg_, env);
    if (shared == SharedOverWindow::kStep) {
      Absorb(v, env, key, joint, peers);
      if (env.kind == VerdictKind::kEnvironment) {
        joint_environment_ = env;
        out_.push_back(env);
      }
    } else if (shared == SharedOverWindow::kDrift) {
      NotJudgedAlone(v, "environment", "environment", env.condition,
                     run_.drive.name + " " + key.Label() + ": not judged alone: " + env.summary);
      out_.push_back(env);
    }
  }
  if (joint_environment_ &&
      (v.kind == VerdictKind::kSlowdown || v.kind == VerdictKind::kNeedsConfirmation))
    NotJudgedAlone(v, "environment", "environment", joint_environment_->condition,
                   run_.drive.name + " " + key.Label() + ": not judged alone: " +
                       joint_environment_->summary);
  if (v.kind == VerdictKind::kSlowdown) FoldIntoJoint(v);
  out_.push_back(std::move(v));
  return Status::Ok();
}

// One event, one alert: the zones' own slowdowns of this run are the
// combined one's evidence, not alerts of their own.
void Judge::FoldIntoJoint(Verdict& joint) {
  std::string parts;
  for (Verdict& o : out_) {
    if (o.test != run_.test || o.metric != joint.metric || o.kind != VerdictKind::kSlowdown ||
        !IsSlowdownCondition(o))
      continue;
    char part[96];
    std::snprintf(part, sizeof part, "%s%s %.0f%%", parts.empty() ? "" : ", ", o.series.c_str(),
                  o.change_percent.value_or(0));
    parts += part;
    joint.details["members"].push_back(
        {{"series", o.series}, {"change_percent", o.change_percent.value_or(0)}});
    NotJudgedAlone(o, "combined", "covered_by", joint.condition,
                   run_.drive.name + " " + run_.test + " " + o.series +
                       " throughput: part of the zones' combined slowdown, alerted once");
  }
  if (!parts.empty()) joint.summary += "; the zones: " + parts + " worse";
}

// A slowdown or peer-outlier verdict held while every other test of the
// drive was worse in its window (unseen interference), or until its re-test.
Status Judge::Hold(Verdict& v, const Again& again) {
  if (again) DP_RETURN_IF_ERROR(LeaveOutPassed(v, again));
  if (!IsHeldKind(v)) return Status::Ok();
  // The excursion's window, and its last two runs' (a CUSUM verdict's last
  // run may be back inside, its pair then starts earlier).
  const std::int64_t from = std::min(ExcursionStart(v), PairStart(v));
  DP_ASSIGN_OR_RETURN(const std::vector<TestRunScore>* scores, ScoresFrom(from, v.at));
  const bool wide = DriveWideExplains(v, run_.test, ExcursionStart(v), v.at, *scores, cfg_);
  const bool pair_wide = DriveWideExplains(v, run_.test, PairStart(v), v.at, *scores, cfg_);
  // Without re-tests every run stands on its own.
  const bool confirmation = run_.confirmation || !run_.retests;
  v = HoldSlowdown(std::move(v), confirmation, wide, cfg_, pair_wide, vdev_.siblings.empty());
  if (v.kind == VerdictKind::kNeedsConfirmation && (wide || pair_wide) && confirmation &&
      IsSlowdownCondition(v) && LatestStandsOut(v, run_.test, *scores))
  {
    v.stands_out = true;
    // It keeps an open watch going, as a warning (the alert module takes
    // the severity from here rather than deciding one of its own).
    v.severity = Severity::kWarning;
    v.details["stands_out"] = true;
  }
  return Status::Ok();
}

// A slowdown whose evidence holds interference that has passed is judged
// again without it (PassedInterference).
Status Judge::LeaveOutPassed(Verdict& v, const Again& again) {
  if (v.kind != VerdictKind::kSlowdown || !IsSlowdownCondition(v)) return Status::Ok();
  DP_ASSIGN_OR_RETURN(std::vector<TestRunScore> scores, OtherTestScores(EvidenceStart(v), v.at));
  const std::vector<std::int64_t> passed = PassedInterference(v, run_.test, scores, cfg_);
  if (passed.empty()) return Status::Ok();
  v = again(passed);
  v.interference_left_out = passed;
  v.details["interference_left_out"] = passed;
  v.summary += "; " + std::to_string(passed.size()) +
               " earlier run(s) left out: every test of the drive was worse then "
               "(interference that has passed)";
  return Status::Ok();
}

// The series' runs just before this one, judged now that they have passed
// (this run back within half the band): unseen interference when each lay
// beyond the band and every other read path of the drive was worse beside
// it (WasInterference). At most the last kPassedRuns (a scheduled
// run and its re-test, when the interference outlasted the re-test), each
// in its own window: from its start until the series' next run, at most a
// day, so the window holds what ran after it (a scheduled run's other
// tests, a re-test's).
Status Judge::RecogniseInterference(const std::vector<Sample>& samples, Verdict& v) {
  constexpr int kPassedRuns = 2;
  if (!IsSlowdownCondition(v) || v.kind == VerdictKind::kBaselining || !v.current ||
      BeyondBand(v, *v.current, 0.5))
    return Status::Ok();
  std::int64_t next_at = run_.started_at;
  int walked = 0;
  for (auto it = samples.rbegin(); it != samples.rend() && walked < kPassedRuns; ++it) {
    if (it->run_id == run_.id || it->at > run_.started_at || !it->Good()) continue;
    if (it->at < since_ || !BeyondBand(v, it->value)) break;
    ++walked;
    const Sample& run = *it;
    const std::int64_t to = std::max(run.at, std::min(run.at + 86400, next_at - 1));
    next_at = run.at;
    if (run.interfered || std::find(interference_.begin(), interference_.end(), run.run_id) !=
                              interference_.end())
      continue;
    DP_ASSIGN_OR_RETURN(const std::vector<TestRunScore>* scores,
                        ScoresFrom(run.at, run_.started_at));
    if (!WasInterference(v, run_.test, run, to, *scores, cfg_)) continue;
    interference_.push_back(run.run_id);
    v.interference_runs.push_back(run.run_id);
  }
  if (!v.interference_runs.empty()) v.details["interference_runs"] = v.interference_runs;
  return Status::Ok();
}

// While the test's baseline is young (its first baseline_runs + 5 good runs
// since its mark), each of its runs that has passed (a scheduled run a day
// or more after it) is judged against its neighbours, with every other read
// path's run at its moment (WasYoungInterference). The verdict of the
// test's first series carries what is found, as RecogniseInterference's do;
// the baseline replays without it from the next judgement on.
Status Judge::RecogniseYoungInterference() {
  if (own_series_.empty() || out_.empty()) return Status::Ok();
  std::vector<const Sample*> good;  // the test's good runs since its mark, the lead series'
  for (const Sample& s : own_series_.front().samples)
    if (s.at >= since_ && s.at <= run_.started_at && s.Good()) good.push_back(&s);
  if (good.size() > static_cast<std::size_t>(std::max(cfg_.baseline_runs, 1) + 5))
    return Status::Ok();
  const double floor = LowFloor(cfg_.confirm_min_percent);
  std::vector<std::int64_t> found;
  for (std::size_t i = 0; i < good.size(); ++i) {
    const Sample& run = *good[i];
    if (run.interfered || run.run_id == run_.id ||
        std::find(interference_.begin(), interference_.end(), run.run_id) != interference_.end())
      continue;
    const auto later = std::find_if(good.begin() + static_cast<std::ptrdiff_t>(i), good.end(),
                                    [&](const Sample* s) { return s->at >= run.at + 86400; });
    if (later == good.end()) continue;  // not passed yet
    const std::optional<double> own = NeighbourShift(own_series_, run.run_id, run.at);
    const std::optional<double> back = NeighbourShift(own_series_, (*later)->run_id, run.at);
    if (!own || !back || *own < floor) continue;  // the other tests are read only for a doubt
    DP_ASSIGN_OR_RETURN(const std::vector<TestRunScore> others, NeighbourShiftsNear(run.at));
    if (!WasYoungInterference(run_.test, *own, *back, others, cfg_)) continue;
    interference_.push_back(run.run_id);
    found.push_back(run.run_id);
  }
  if (found.empty()) return Status::Ok();
  Verdict& v = out_.front();
  v.interference_runs.insert(v.interference_runs.end(), found.begin(), found.end());
  v.details["interference_runs"] = v.interference_runs;
  return Status::Ok();
}

// Every other read path's test that ran within kNearSeconds of `at`, its
// run there judged against its neighbours (NeighbourShift; score unused).
Result<std::vector<TestRunScore>> Judge::NeighbourShiftsNear(std::int64_t at) {
  std::vector<TestRunScore> out;
  for (const TestInfo& info : TestCatalog()) {
    if (!info.judged || SameReadPath(run_.test, info.name)) continue;
    auto known = other_series_.find(info.name);
    if (known == other_series_.end()) {
      std::vector<SeriesRuns> series;
      // The newest good, whole run of the test names its series.
      DP_ASSIGN_OR_RETURN(std::vector<StoredRun> runs,
                          history_.GoodRuns(run_.drive.id, info.name, 0, 8));
      const StoredRun* newest = nullptr;
      for (const StoredRun& r : runs)
        if (r.Whole() && (!newest || r.started_at > newest->started_at)) newest = &r;
      if (newest) {
        DP_ASSIGN_OR_RETURN(const std::int64_t since,
                            history_.BaselineSince(run_.drive.id, info.name));
        for (const SeriesSpec& spec : newest->series) {
          DP_ASSIGN_OR_RETURN(std::vector<Sample> samples,
                              history_.Samples(run_.drive.id, spec, since, cfg_.baseline_max_runs));
          series.push_back({SinceMark(samples, since), DirectionOf(spec.key.metric)});
        }
      }
      known = other_series_.emplace(info.name, std::move(series)).first;
    }
    if (known->second.empty()) continue;
    // Its run nearest to `at` within kNearSeconds.
    const Sample* nearest = nullptr;
    for (const Sample& s : known->second.front().samples)
      if (s.Good() && std::llabs(s.at - at) <= kNearSeconds &&
          (!nearest || std::llabs(s.at - at) < std::llabs(nearest->at - at)))
        nearest = &s;
    if (!nearest) continue;
    if (auto shift = NeighbourShift(known->second, nearest->run_id, nearest->at))
      out.push_back({info.name, nearest->at, 0, *shift});
  }
  return out;
}

// The zones' three series usually share one excursion: the drive's other
// tests are read once for it.
Result<const std::vector<TestRunScore>*> Judge::ScoresFrom(std::int64_t from, std::int64_t to) {
  auto known = other_scores_.find(from);
  if (known == other_scores_.end()) {
    DP_ASSIGN_OR_RETURN(auto scores, OtherTestScores(from, to));
    known = other_scores_.emplace(from, std::move(scores)).first;
  }
  return &known->second;
}

// The drive's other judged tests' good runs in [from - 1 day, to], each with
// the worst worse-side score of its series: a drive-wide shift's evidence.
Result<std::vector<TestRunScore>> Judge::OtherTestScores(std::int64_t from, std::int64_t to) {
  std::vector<TestRunScore> out;
  DP_ASSIGN_OR_RETURN(std::vector<StoredRun> runs,
                      history_.GoodRuns(run_.drive.id, "", from - 86400, 64));
  std::map<std::string, std::vector<NoiseFamilyMember>> families;  // by test
  for (const StoredRun& other : runs) {
    if (other.test == run_.test || !IsJudgedTest(other.test) || !other.Whole() ||
        other.started_at > to)
      continue;
    std::vector<double> logs;
    DP_ASSIGN_OR_RETURN(const double score, RunScore(other, logs, families));
    out.push_back({other.test, other.started_at, score, TestWorseLog(std::move(logs))});
  }
  return out;
}

// How much worse another test's run was (TestScore of its series), each
// series judged as it was judged then: its history up to that run.
Result<double> Judge::RunScore(const StoredRun& other, std::vector<double>& logs,
                               std::map<std::string, std::vector<NoiseFamilyMember>>& families) {
  DP_ASSIGN_OR_RETURN(const std::int64_t since, history_.BaselineSince(run_.drive.id, other.test));
  auto family = families.find(other.test);
  if (family == families.end()) {
    DP_ASSIGN_OR_RETURN(auto members, NoiseFamily(history_, run_.drive.id, other.test, cfg_));
    family = families.emplace(other.test, std::move(members)).first;
  }
  std::vector<double> scores;
  for (const SeriesSpec& spec : other.series) {
    DP_ASSIGN_OR_RETURN(std::vector<Sample> samples,
                        history_.Samples(run_.drive.id, spec, since, cfg_.baseline_max_runs));
    std::erase_if(samples, [&](const Sample& s) {
      return s.at > other.started_at && s.run_id != other.id;
    });
    auto at_run = std::find_if(samples.begin(), samples.end(),
                               [&](const Sample& s) { return s.run_id == other.id; });
    if (at_run == samples.end()) continue;
    samples.erase(at_run + 1, samples.end());
    SeriesKey key = spec.key;
    key.drive_name = run_.drive.name;
    Verdict v = EvaluateChange(key, samples, cfg_, since, FamilyPriorOf(key, family->second));
    if (v.score) scores.push_back(*v.score);
    if (auto d = WorseLogOf(v)) logs.push_back(*d);
  }
  return TestScore(std::move(scores));
}

}  // namespace

// What a run's verdicts ask for: the interference they recognised, the
// automatic re-baseline of a lasting shift the group shares, a re-test of a
// doubt (one per doubt: a confirmation that doubts again is judged by the
// next scheduled run).
Judgement Consequences(const RunToJudge& run, std::vector<Verdict> verdicts) {
  Judgement j;
  for (const Verdict& v : verdicts)
    for (std::int64_t id : v.interference_runs) j.interference.push_back({run.drive.id, id, v.condition});
  for (const Verdict& v : verdicts) {
    if (!v.rebaseline_from) continue;
    RebaselineMark mark;
    mark.drive_id = run.drive.id;
    // Every test: a box-wide change moves the drive's other read paths too,
    // and absorbed test by test (each when its own run next doubts) the
    // box's one event went on for months.
    mark.test = "";
    mark.at = *v.rebaseline_from;
    mark.reason = "automatic: " + v.summary;
    mark.who = "diskpulse (shift shared by the vdev)";
    j.rebaselines.push_back(mark);
    for (const std::string& sibling : v.rebaseline_siblings) {
      RebaselineMark m = mark;
      m.drive_id = sibling;
      m.reason = "automatic, with " + (run.drive.name.empty() ? run.drive.id : run.drive.name) +
                 ": " + v.summary;
      j.rebaselines.push_back(std::move(m));
    }
    break;
  }
  const bool doubt = std::any_of(verdicts.begin(), verdicts.end(), [](const Verdict& v) {
    return v.kind == VerdictKind::kNeedsConfirmation;
  });
  if (doubt && run.retests && !run.confirmation) j.retests.push_back({run.drive.id, run.test, run.id});
  j.verdicts = std::move(verdicts);
  return j;
}

Result<Judgement> JudgeRun(const RunToJudge& run, SeriesHistory& history,
                           const DetectionConfig& cfg) {
  DP_ASSIGN_OR_RETURN(std::vector<Verdict> verdicts, Judge(run, history, cfg).Run());
  return Consequences(run, std::move(verdicts));
}

Result<Judgement> JudgeDuePeers(const std::string& test, std::int64_t now,
                                SeriesHistory& history, const DetectionConfig& cfg,
                                bool retests, const std::string& ran) {
  Judgement out;
  DP_ASSIGN_OR_RETURN(const BoxLayout box, history.Box());
  const std::int64_t window = cfg.peer_window_seconds;
  // Each drive's newest good run of the test, read once for the call.
  std::map<std::string, std::optional<StoredRun>> newest;
  auto newest_of = [&](const std::string& id) -> Result<const std::optional<StoredRun>*> {
    auto it = newest.find(id);
    if (it == newest.end()) {
      DP_ASSIGN_OR_RETURN(std::vector<StoredRun> runs,
                          history.GoodRuns(id, test, now - kPeerPendingSeconds, 1));
      std::optional<StoredRun> run;
      if (!runs.empty()) run = std::move(runs.front());
      it = newest.emplace(id, std::move(run)).first;
    }
    return &it->second;
  };
  for (const DriveRef& drive : box.drives) {
    const PeerGroup group = PeerGroupOf(drive, box);
    if (group.siblings.empty()) continue;
    // Only a run of the drive or of one of its siblings can make it due.
    if (!ran.empty() && drive.id != ran &&
        std::none_of(group.siblings.begin(), group.siblings.end(),
                     [&](const DriveRef& s) { return s.id == ran; }))
      continue;
    DP_ASSIGN_OR_RETURN(const std::optional<StoredRun>* mine, newest_of(drive.id));
    if (!*mine) continue;
    const StoredRun& run = **mine;
    if (run.peer_judged || !run.Whole() || run.started_at > now) continue;
    // Due once every sibling has run in the run's window, or the window
    // has closed with those that did: then no later run can change it, so
    // the verdict does not depend on the order the group ran in. A
    // sibling's newest run tells: one after the window means the window
    // has closed already.
    bool due = now >= run.started_at + window;
    for (std::size_t i = 0; !due && i < group.siblings.size(); ++i) {
      DP_ASSIGN_OR_RETURN(const std::optional<StoredRun>* theirs,
                          newest_of(group.siblings[i].id));
      if (!*theirs || std::llabs((*theirs)->started_at - run.started_at) > window) break;
      due = i + 1 == group.siblings.size();
    }
    if (!due) continue;
    RunToJudge judged;
    judged.id = run.id;
    judged.test = test;
    judged.started_at = run.started_at;
    judged.drive = drive;
    judged.confirmation = run.confirmation;
    judged.retests = retests;
    DP_ASSIGN_OR_RETURN(std::vector<Verdict> verdicts,
                        Judge(judged, history, cfg).Peers(run.series));
    Judgement j = Consequences(judged, std::move(verdicts));
    j.peer_judged.push_back(run.id);
    out.Add(std::move(j));
  }
  return out;
}

Result<std::vector<NoiseFamilyMember>> NoiseFamily(SeriesHistory& history,
                                                   const std::string& drive_id,
                                                   const std::string& test,
                                                   const DetectionConfig& cfg) {
  std::vector<NoiseFamilyMember> out;
  for (const TestInfo& info : TestCatalog()) {
    const std::string& other = info.name;
    if (!info.judged || !SameReadPath(test, other)) continue;
    // The newest good, whole run of the test names its series.
    DP_ASSIGN_OR_RETURN(std::vector<StoredRun> runs, history.GoodRuns(drive_id, other, 0, 8));
    const StoredRun* newest = nullptr;
    for (const StoredRun& r : runs)
      if (r.Whole() && (!newest || r.started_at > newest->started_at)) newest = &r;
    if (!newest) continue;
    DP_ASSIGN_OR_RETURN(const std::int64_t since, history.BaselineSince(drive_id, other));
    for (const SeriesSpec& spec : newest->series) {
      DP_ASSIGN_OR_RETURN(std::vector<Sample> samples,
                          history.Samples(drive_id, spec, since, cfg.baseline_max_runs));
      out.push_back({spec.key, ComputeBaseline(samples, samples.size(), cfg, since,
                                               DirectionOf(spec.key.metric),
                                               TailDfOf(spec.key.metric))});
    }
  }
  return out;
}

SpreadPrior FamilyPriorOf(const SeriesKey& key, const std::vector<NoiseFamilyMember>& members) {
  std::vector<Baseline> family;
  for (const NoiseFamilyMember& m : members)
    if (SameNoiseFamily(key, m.key)) family.push_back(m.own);
  return PoolSpread(family);
}

SpreadPrior JointFloorOf(const std::string& test, const std::vector<NoiseFamilyMember>& members) {
  std::vector<Baseline> own;
  for (const NoiseFamilyMember& m : members)
    if (m.key.test == test && m.key.metric == "mb_per_s") own.push_back(m.own);
  return JointSpreadFloor(own);
}

Result<TestBaselines> SeriesBands(SeriesHistory& history, const std::string& drive_id,
                                  const std::string& test, const std::vector<SeriesSpec>& specs,
                                  const DetectionConfig& cfg) {
  TestBaselines out;
  DP_ASSIGN_OR_RETURN(const std::int64_t since, history.BaselineSince(drive_id, test));
  DP_ASSIGN_OR_RETURN(const auto family, NoiseFamily(history, drive_id, test, cfg));
  auto form = [&](std::vector<Sample> samples, const std::string& metric,
                  const SpreadPrior& prior) {
    SeriesBaseline s;
    s.baseline = ComputeBaseline(samples, samples.size(), cfg, since, DirectionOf(metric),
                                 TailDfOf(metric), prior);
    s.band = BandOf(s.baseline, cfg);
    s.samples = std::move(samples);
    return s;
  };
  std::vector<std::vector<Sample>> members;
  for (const SeriesSpec& spec : specs) {
    DP_ASSIGN_OR_RETURN(std::vector<Sample> samples,
                        history.Samples(drive_id, spec, since, cfg.baseline_max_runs));
    if (HasJointSeries(test) && spec.key.metric == "mb_per_s") members.push_back(samples);
    out.series.push_back(
        form(std::move(samples), spec.key.metric, FamilyPriorOf(spec.key, family)));
  }
  if (members.size() >= 2)
    out.joint = form(JointSamples(members), "mb_per_s", JointFloorOf(test, family));
  return out;
}

}  // namespace dp::detect
