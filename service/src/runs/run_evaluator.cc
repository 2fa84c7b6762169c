#include "runs/run_evaluator.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>

#include "base/log.h"
#include "detect/change_detector.h"
#include "detect/environment_detector.h"
#include "detect/peer_detector.h"
#include "detect/series.h"
#include "detect/smart_detector.h"
#include "model/test_catalog.h"
#include "runs/noise_family.h"
#include "runs/rebaseline.h"
#include "store/detection_history.h"
#include "store/store.h"

namespace dp {
namespace {

// A drive's vdev: "POOL/VDEV", the smallest member id (the one drive a
// vdev-level alert is filed under) and the siblings: present members of the
// same model.
struct VdevPeers {
  std::string group;
  std::string owner;
  std::vector<Drive> siblings;
};

VdevPeers VdevOf(Store& store, const Drive& self) {
  VdevPeers out;
  auto pools = store.LatestPools();
  if (!pools.ok()) return out;
  for (const auto& pool : *pools)
    for (const auto& vdev : pool.vdevs) {
      bool in = false;
      for (const auto& m : vdev.members) in = in || m.drive_id == self.id;
      if (!in) continue;
      out.group = pool.name + "/" + vdev.name;
      out.owner = self.id;
      for (const auto& m : vdev.members) {
        if (m.drive_id.empty()) continue;
        out.owner = std::min(out.owner, m.drive_id);
        if (m.drive_id == self.id) continue;
        auto d = store.GetDrive(m.drive_id);
        if (d.ok() && *d && (*d)->present && (*d)->model == self.model) out.siblings.push_back(**d);
      }
      return out;
    }
  return out;
}

// A doubt or slowdown that another verdict accounts for (the vdev's
// environment, the zones' combined series): evidence of that one, not an
// alert of its own; the alert lifecycle leaves inconclusive verdicts alone.
// `field` names, in the details, the verdict `by` that accounts for it.
void NotJudgedAlone(Verdict& v, const char* reason, const char* field, const std::string& by,
                    std::string summary) {
  v.kind = VerdictKind::kInconclusive;
  v.severity = Severity::kInfo;
  v.details["reason"] = reason;
  v.details[field] = by;
  v.summary = std::move(summary);
}

}  // namespace

RunEvaluator::RunEvaluator(Store& store, AlertService* alerts, DetectionConfig config,
                           ConfirmFn confirm)
    : store_(store), alerts_(alerts), config_(config), confirm_(std::move(confirm)) {}

Result<std::vector<Verdict>> RunEvaluator::Evaluate(const Run& run) {
  // Contended, partial, failed, cancelled, skipped runs: never evidence.
  if (run.outcome != RunOutcome::kOk || run.contended || run.partial || run.drive_id.empty())
    return std::vector<Verdict>{};
  Result<std::vector<Verdict>> verdicts = std::vector<Verdict>{};
  if (run.test == "smart") {
    verdicts = EvaluateSmartRun(run);
  } else if (IsJudgedTest(run.test)) {
    verdicts = EvaluateBench(run);
  }
  if (!verdicts.ok()) return verdicts;

  bool confirm = false;
  for (const auto& v : *verdicts) {
    if (v.kind == VerdictKind::kNeedsConfirmation) confirm = true;
    if (v.kind != VerdictKind::kClear && v.kind != VerdictKind::kBaselining &&
        v.kind != VerdictKind::kInconclusive)
      LogInfo("detect: run " + std::to_string(run.id) + ": " +
              std::string(VerdictKindName(v.kind)) + ": " + v.summary);
  }
  if (alerts_) {
    Status s = alerts_->OnVerdicts(*verdicts);
    if (!s.ok()) LogError("alerts: run " + std::to_string(run.id) + ": " + s.ToString());
  }
  // One confirmation per doubt: a confirmation run that doubts again is
  // judged by the next scheduled run.
  if (confirm && confirm_ && !run.trigger.starts_with("confirm"))
    confirm_(run.drive_id, run.test, run.id);
  return verdicts;
}

Result<std::vector<Verdict>> RunEvaluator::EvaluateBench(const Run& run) {
  std::vector<Verdict> out;
  DP_ASSIGN_OR_RETURN(std::optional<Drive> drive, store_.GetDrive(run.drive_id));
  if (!drive) return out;
  DP_ASSIGN_OR_RETURN(std::vector<BenchPoint> points, store_.RunPoints(run.id));
  const VdevPeers vdev = VdevOf(store_, *drive);
  const std::vector<Drive>& siblings = vdev.siblings;
  // The latest re-baseline of this drive x test: baselines form anew after it.
  DP_ASSIGN_OR_RETURN(const std::int64_t baseline_since,
                      BaselineSince(store_, drive->id, run.test));
  std::map<std::int64_t, std::vector<detect::TestRunScore>> other_scores;  // by excursion start
  // The series that share a noise source with this test's: their spread is
  // pooled into each series' baseline (detect/baseline.h).
  DP_ASSIGN_OR_RETURN(const std::vector<NoiseFamilyMember> family,
                      NoiseFamilyMembers(store_, drive->id, run.test, config_));
  // A slowdown or peer-outlier verdict held while every other test of the
  // drive was worse in its window (unseen interference), or until its re-test.
  // A slowdown whose evidence holds interference that has passed is judged
  // again without it (detect/drive_shift.h, PassedInterference); `again`
  // judges the series without the runs named.
  using Again = std::function<Verdict(const std::vector<std::int64_t>&)>;
  auto hold = [&](Verdict& v, const Again& again = {}) -> Status {
    if (again && v.kind == VerdictKind::kSlowdown && v.condition.starts_with("slowdown:")) {
      DP_ASSIGN_OR_RETURN(auto scores,
                          OtherTestScores(*drive, run.test, detect::EvidenceStart(v), v.at));
      const std::vector<std::int64_t> passed =
          detect::PassedInterference(v, run.test, scores, config_);
      if (!passed.empty()) {
        v = again(passed);
        v.details["interference_left_out"] = passed;
        v.summary += "; " + std::to_string(passed.size()) +
                     " earlier run(s) left out: every test of the drive was worse then "
                     "(interference that has passed)";
      }
    }
    if (!detect::IsHeldKind(v)) return Status::Ok();
    // The excursion's window, and its last two runs' (a CUSUM verdict's
    // last run may be back inside, its pair then starts earlier).
    const std::int64_t from = std::min(detect::ExcursionStart(v), detect::PairStart(v));
    // The zones' three series usually share one excursion: read the
    // drive's other tests once for it.
    auto known = other_scores.find(from);
    if (known == other_scores.end()) {
      DP_ASSIGN_OR_RETURN(auto scores, OtherTestScores(*drive, run.test, from, v.at));
      known = other_scores.emplace(from, std::move(scores)).first;
    }
    const bool wide = detect::DriveWideExplains(v, run.test, detect::ExcursionStart(v), v.at,
                                                known->second, config_);
    const bool pair_wide = detect::DriveWideExplains(v, run.test, detect::PairStart(v), v.at,
                                                     known->second, config_);
    // Without re-tests (no confirm function) every run stands on its own.
    const bool confirmation = run.trigger.starts_with("confirm") || !confirm_;
    v = detect::HoldSlowdown(std::move(v), confirmation, wide, config_, pair_wide);
    return Status::Ok();
  };
  // The members of the test's joint series (detect/series.h), and the
  // vdev environment any of them was found in.
  std::vector<std::vector<detect::Sample>> joint_members;
  std::vector<std::string> joint_names;
  std::optional<Verdict> joint_environment;
  bool joint_whole = true;  // every point of the test judged
  for (const auto& point : points) {
    if (point.test == run.test && (point.contended || point.partial)) joint_whole = false;
    if (point.test != run.test || point.contended || point.partial) continue;
    for (const auto& spec : detect::SeriesOf(drive->id, drive->name, point)) {
      DP_ASSIGN_OR_RETURN(
          std::vector<MeasurementSample> hist,
          DetectionHistory(store_, SeriesQuery(drive->id, spec), baseline_since,
                           config_.baseline_max_runs));
      std::vector<detect::Sample> samples = detect::ToSamples(hist);
      const detect::SpreadPrior prior = FamilyPriorOf(spec.key, family);
      std::vector<Verdict> own =
          detect::EvaluateSeries(spec.key, samples, config_, baseline_since, prior);
      for (auto& v : own)
        DP_RETURN_IF_ERROR(hold(v, [&](const std::vector<std::int64_t>& passed) {
          return detect::EvaluateChange(spec.key, detect::WithoutRuns(samples, passed), config_,
                                        baseline_since, prior);
        }));
      if (detect::HasJointSeries(run.test) && spec.key.metric == "mb_per_s") {
        joint_members.push_back(samples);
        joint_names.push_back(spec.key.series);
      }
      std::vector<detect::PeerHistory> peers;
      for (const auto& s : siblings) {
        auto h = store_.History(SeriesQuery(s.id, spec));
        if (h.ok() && !h->empty()) peers.push_back({s.id, s.name, detect::ToSamples(*h)});
      }
      // A drop every measured sibling shares in the same window is the
      // vdev's environment: one verdict for the vdev, not one alert per drive.
      for (auto& v : own) {
        if (v.condition.rfind("slowdown:", 0) != 0 || peers.empty()) continue;
        const bool doubtful =
            v.kind == VerdictKind::kSlowdown || v.kind == VerdictKind::kNeedsConfirmation;
        if (!doubtful && v.kind != VerdictKind::kClear) continue;
        Verdict env = detect::EvaluateEnvironment(spec.key, samples, peers, vdev.group, vdev.owner,
                                                  config_, baseline_since);
        if (env.kind == VerdictKind::kEnvironment && doubtful) {
          joint_environment = env;
          NotJudgedAlone(v, "environment", "environment", env.condition,
                         drive->name + " " + spec.key.Label() + ": not judged alone: " +
                             env.summary);
        }
        // The siblings have not run in this window yet: a scheduled run's
        // drop waits for their runs (its re-test) before it is a slowdown.
        if (env.kind == VerdictKind::kInconclusive && v.kind == VerdictKind::kSlowdown &&
            !run.trigger.starts_with("confirm") && env.details.contains("siblings_measured")) {
          v.kind = VerdictKind::kNeedsConfirmation;
          v.severity = Severity::kInfo;
          v.details["waiting_for"] = "vdev siblings measured in the same window";
          v.summary += "; re-testing after its vdev siblings' runs (" + env.summary + ")";
        }
        if (env.kind == VerdictKind::kEnvironment || env.kind == VerdictKind::kClear)
          out.push_back(std::move(env));
      }
      for (auto& v : own) out.push_back(std::move(v));
      if (!peers.empty()) {
        Verdict peer = detect::EvaluatePeers(spec.key, samples, peers, config_);
        DP_RETURN_IF_ERROR(hold(peer));
        out.push_back(std::move(peer));
      }
    }
  }
  // The joint series, judged on its own spread, never below what its
  // members' noise implies (JointSpreadFloor; it is not pooled: its noise
  // is below each member's by design) and held like its members.
  if (joint_whole && joint_members.size() >= 2) {
    const detect::SeriesKey key{drive->id, drive->name, run.test, detect::kJointSeries,
                                "mb_per_s"};
    const std::vector<detect::Sample> joint = detect::JointSamples(joint_members);
    const detect::SpreadPrior floor = JointFloorOf(run.test, family);
    Verdict v = detect::EvaluateChange(key, joint, config_, baseline_since, floor);
    DP_RETURN_IF_ERROR(hold(v, [&](const std::vector<std::int64_t>& passed) {
      return detect::EvaluateChange(key, detect::WithoutRuns(joint, passed), config_,
                                    baseline_since, floor);
    }));
    v.details["joint_of"] = joint_names;
    if (joint_environment &&
        (v.kind == VerdictKind::kSlowdown || v.kind == VerdictKind::kNeedsConfirmation))
      NotJudgedAlone(v, "environment", "environment", joint_environment->condition,
                     drive->name + " " + key.Label() + ": not judged alone: " +
                         joint_environment->summary);
    // One event, one alert: the zones' own slowdowns of this run are the
    // combined one's evidence, not alerts of their own.
    if (v.kind == VerdictKind::kSlowdown) {
      std::string parts;
      for (Verdict& o : out) {
        if (o.test != run.test || o.metric != key.metric || o.kind != VerdictKind::kSlowdown ||
            o.condition.rfind("slowdown:", 0) != 0)
          continue;
        char part[96];
        std::snprintf(part, sizeof part, "%s%s %.0f%%", parts.empty() ? "" : ", ",
                      o.series.c_str(), o.change_percent.value_or(0));
        parts += part;
        v.details["members"].push_back(
            {{"series", o.series}, {"change_percent", o.change_percent.value_or(0)}});
        NotJudgedAlone(o, "combined", "covered_by", v.condition,
                       drive->name + " " + key.test + " " + o.series +
                           " throughput: part of the zones' combined slowdown, alerted once");
      }
      if (!parts.empty()) v.summary += "; the zones: " + parts + " worse";
    }
    out.push_back(std::move(v));
  }
  return out;
}

Result<std::vector<detect::TestRunScore>> RunEvaluator::OtherTestScores(const Drive& drive,
                                                                         const std::string& test,
                                                                         std::int64_t from,
                                                                         std::int64_t to) {
  std::vector<detect::TestRunScore> out;
  RunFilter filter;
  filter.drive_id = drive.id;
  filter.outcome = RunOutcome::kOk;
  filter.since = from - 86400;
  filter.limit = 64;
  DP_ASSIGN_OR_RETURN(std::vector<Run> runs, store_.ListRuns(filter));
  std::map<std::string, std::vector<NoiseFamilyMember>> families;  // by test
  for (const Run& other : runs) {
    if (other.test == test || !IsJudgedTest(other.test) || other.contended || other.partial ||
        other.started_at > to)
      continue;
    DP_ASSIGN_OR_RETURN(const std::int64_t since, BaselineSince(store_, drive.id, other.test));
    DP_ASSIGN_OR_RETURN(std::vector<BenchPoint> points, store_.RunPoints(other.id));
    auto family = families.find(other.test);
    if (family == families.end()) {
      DP_ASSIGN_OR_RETURN(auto members, NoiseFamilyMembers(store_, drive.id, other.test, config_));
      family = families.emplace(other.test, std::move(members)).first;
    }
    std::vector<double> series_scores, series_logs;
    for (const auto& point : points) {
      if (point.test != other.test || point.contended || point.partial) continue;
      for (const auto& spec : detect::SeriesOf(drive.id, drive.name, point)) {
        DP_ASSIGN_OR_RETURN(std::vector<MeasurementSample> hist,
                            DetectionHistory(store_, SeriesQuery(drive.id, spec), since,
                                             config_.baseline_max_runs));
        std::vector<detect::Sample> samples = detect::ToSamples(hist);
        // That run judged as it was judged then: its history up to it.
        std::erase_if(samples, [&](const detect::Sample& s) {
          return s.at > other.started_at && s.run_id != other.id;
        });
        auto at_run = std::find_if(samples.begin(), samples.end(),
                                   [&](const detect::Sample& s) { return s.run_id == other.id; });
        if (at_run == samples.end()) continue;
        samples.erase(at_run + 1, samples.end());
        Verdict v = detect::EvaluateChange(spec.key, samples, config_, since,
                                           FamilyPriorOf(spec.key, family->second));
        if (v.details.contains("score")) series_scores.push_back(v.details["score"].get<double>());
        if (auto d = detect::WorseLogOf(v)) series_logs.push_back(*d);
      }
    }
    out.push_back({other.test, other.started_at, detect::TestScore(std::move(series_scores)),
                   detect::TestWorseLog(std::move(series_logs))});
  }
  return out;
}

Result<std::vector<Verdict>> RunEvaluator::EvaluateSmartRun(const Run& run) {
  std::vector<Verdict> out;
  DP_ASSIGN_OR_RETURN(std::optional<Drive> drive, store_.GetDrive(run.drive_id));
  if (!drive) return out;
  DP_ASSIGN_OR_RETURN(auto history, store_.SmartHistory(run.drive_id, 0, 2));
  if (history.empty()) return out;  // asleep: no snapshot taken
  const SmartSnapshot* previous = history.size() > 1 ? &history[1].second : nullptr;
  return detect::EvaluateSmart(drive->id, drive->name, previous, history[0].second,
                               history[0].first, config_);
}

}  // namespace dp
