#include "demo/demo_executor.h"

#include <thread>

#include "store/store.h"

namespace dp {

DemoJobExecutor::DemoJobExecutor(std::shared_ptr<const DemoWorld> world, Store& store,
                                 const Clock& clock, std::chrono::milliseconds run_time)
    : world_(std::move(world)), store_(store), clock_(clock), run_time_(run_time) {}

Result<JobResult> DemoJobExecutor::Execute(const Job& job, JobCancel& cancel,
                                           ProgressFn progress) {
  const std::int64_t now = ToUnixSeconds(clock_.Now());
  JobResult result;
  result.engine = "simulated";
  const std::optional<TestKind> kind = KindOfTest(job.test);
  if (!kind) return InvalidArgument("unknown test '" + job.test + "'");
  switch (*kind) {
    case TestKind::kSmart: {
      DP_ASSIGN_OR_RETURN(SmartSnapshot s, world_->Smart(job.drive_id, now));
      DP_RETURN_IF_ERROR(store_.InsertSmartSnapshot(job.drive_id, now, s).status());
      result.engine = "smartctl (replayed capture)";
      return result;
    }
    case TestKind::kSelfTest:
      return FailedPrecondition("demo drives are simulated: they have no self-test to start");
    case TestKind::kPoolWrite:
      return FailedPrecondition("the demo does not simulate " + job.test);
    case TestKind::kRead:
      break;
  }
  if (job.drive_id.empty()) return FailedPrecondition("the demo does not simulate " + job.test);
  DP_ASSIGN_OR_RETURN(std::vector<BenchPoint> points, world_->Measure(job.drive_id, job.test, now));
  // The measurement is instant in simulated time; spread it over run_time
  // of wall time so the page can show the run going.
  constexpr int kSteps = 10;
  for (int i = 1; i <= kSteps; ++i) {
    std::this_thread::sleep_for(run_time_ / kSteps);
    if (cancel.cancelled()) return Cancelled("cancelled");
    if (progress) progress(static_cast<double>(i) / kSteps);
  }
  DP_RETURN_IF_ERROR(store_.AddMeasurements(job.run_id, points));
  return result;
}

Result<DriveState> DemoStateProbe::Probe(const std::string& drive_id) {
  for (const Drive& d : world_->drives())
    if (d.id == drive_id) return DriveState{};
  return NotFound("the demo has no drive " + drive_id);
}

}  // namespace dp
