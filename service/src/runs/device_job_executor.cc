#include "runs/device_job_executor.h"

#include "base/mounts.h"
#include "bench/bench_options.h"
#include "bench/bench_runner.h"
#include "runs/smart_jobs.h"
#include "store/store.h"

namespace dp {
namespace {

// The drive as the store knows it, with the node the job was planned for.
Result<Drive> JobDrive(Store& store, const Job& job) {
  DP_ASSIGN_OR_RETURN(std::optional<Drive> d, store.GetDrive(job.drive_id));
  if (!d) return NotFound("drive " + job.drive_id + " is not in the database");
  if (!job.dev_path.empty()) d->dev_path = job.dev_path;
  return *d;
}

}  // namespace

DeviceJobExecutor::DeviceJobExecutor(Config config, CommandRunner& runner, Store& store,
                                     Clock& clock, DeviceOpener& opener)
    : config_(std::move(config)), runner_(runner), store_(store), clock_(clock), opener_(opener) {}

Result<JobResult> DeviceJobExecutor::Execute(const Job& job, JobCancel& cancel,
                                             ProgressFn progress) {
  const std::optional<TestKind> kind = KindOfTest(job.test);
  if (!kind) return InvalidArgument("unknown test '" + job.test + "'");
  switch (*kind) {
    case TestKind::kRead:
    case TestKind::kPoolWrite:
      return RunBenchJob(job, cancel, progress);
    case TestKind::kSmart:
      return RunSmartJob(job);
    case TestKind::kSelfTest:
      return RunSelfTestJob(job);
  }
  return InvalidArgument("unknown test '" + job.test + "'");
}

Result<JobResult> DeviceJobExecutor::RunBenchJob(const Job& job, JobCancel& cancel,
                                                 const ProgressFn& progress) {
  DP_ASSIGN_OR_RETURN(BenchTest test, ParseBenchTest(job.test));
  BenchRequest request;
  request.options = BenchOptionsFromConfig(config_.bench);
  request.options.tests = {test};
  if (test == BenchTest::kPoolWrite) {
    // Each pool's own directory, checked again now (a dataset may have been
    // mounted elsewhere since the configuration was read).
    auto dir = config_.bench.scratch_dir.find(job.pool);
    if (dir == config_.bench.scratch_dir.end())
      return FailedPrecondition("pool-write on " + job.pool +
                                " needs a directory on it in bench.scratch_dir (\"" + job.pool +
                                "\": \"/" + job.pool + "/diskpulse\")");
    if (std::string why = ScratchDirMismatch(job.pool, dir->second); !why.empty())
      return FailedPrecondition("pool-write on " + job.pool + ": " + why);
    request.targets = {dir->second};
  } else if (test == BenchTest::kParallel) {
    for (const auto& id : job.member_ids) {
      DP_ASSIGN_OR_RETURN(std::optional<Drive> d, store_.GetDrive(id));
      if (!d || !d->present) return NotFound("member " + id + " of " + job.Describe() + " is gone");
      request.targets.push_back(d->dev_path);
    }
  } else {
    if (job.dev_path.empty()) return NotFound(job.Describe() + ": no device node known");
    request.targets = {job.dev_path};
  }

  BenchEnvironment env{&clock_, &opener_};
  DP_ASSIGN_OR_RETURN(std::vector<BenchReport> reports,
                      RunBench(request, env, &cancel.flag(), progress));
  if (cancel.cancelled()) return Cancelled("cancelled");

  JobResult result;
  std::vector<BenchPoint> points;
  std::string error;
  bool busy_before = false;
  for (const auto& r : reports) {
    result.engine = r.engine;
    result.partial = result.partial || r.partial;
    busy_before = busy_before || r.contended_before;
    if (!r.error.empty()) error = r.error;
    for (const auto& p : r.results) {
      result.contended = result.contended || p.contended;
      result.partial = result.partial || p.partial;
      points.push_back(p);
    }
  }
  result.contended = result.contended || busy_before;
  if (points.empty())
    return IoError(job.Describe() + ": nothing measured" + (error.empty() ? "" : ": " + error));
  DP_RETURN_IF_ERROR(store_.AddMeasurements(job.run_id, points));
  if (!error.empty()) result.note = "stopped early: " + error;
  else if (busy_before) result.note = "contended: foreign I/O on the device just before the run";
  else if (result.contended) result.note = "contended: foreign I/O during the run";
  return result;
}

Result<JobResult> DeviceJobExecutor::RunSmartJob(const Job& job) {
  DP_ASSIGN_OR_RETURN(Drive drive, JobDrive(store_, job));
  DP_ASSIGN_OR_RETURN(SmartReading reading, ReadDriveSmart(config_, runner_, drive));
  JobResult result;
  result.engine = "smartctl";
  if (reading.asleep) {
    result.note = reading.skip_reason.empty() ? "asleep: not woken" : reading.skip_reason;
    return result;
  }
  DP_RETURN_IF_ERROR(SaveDriveSmart(store_, drive, reading, ToUnixSeconds(clock_.Now())));
  return result;
}

Result<JobResult> DeviceJobExecutor::RunSelfTestJob(const Job& job) {
  DP_ASSIGN_OR_RETURN(Drive drive, JobDrive(store_, job));
  SelfTestKind kind = job.test == "smart-long" ? SelfTestKind::kLong : SelfTestKind::kShort;
  DP_ASSIGN_OR_RETURN(SelfTestStart start, StartDriveSelfTest(config_, runner_, store_, drive, kind));
  JobResult result;
  result.engine = "smartctl";
  result.note = start.message;
  return result;
}

}  // namespace dp
