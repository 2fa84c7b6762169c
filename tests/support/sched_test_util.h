// Helpers shared by the sched tests: a scoped TZ, UTC instants, a fake
// executor and a fake drive-state probe.
#pragma once

#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "base/clock.h"
#include "config/schedule_config.h"
#include "model/drive.h"
#include "model/pool.h"
#include "sched/deferral.h"
#include "sched/job.h"

namespace dp::testing {

// Sets TZ for the scope (and tzset), restoring the previous value after.
class ScopedTz {
 public:
  explicit ScopedTz(const char* tz);
  ~ScopedTz();
  // Whether the zone's rules are installed (tzdata).
  static bool Available(const char* tz);

 private:
  std::string old_;
  bool had_old_ = false;
};

// An instant given in UTC.
SysTime Utc(int year, int month, int day, int hour = 0, int minute = 0, int second = 0);

ScheduleConfig MakeSchedule(const std::string& name, std::vector<std::string> tests,
                            const std::string& when, std::int64_t jitter_seconds = 0);

Drive MakeDrive(const std::string& id, const std::string& name, const std::string& controller = "");
// A pool with one vdev per group of drive ids.
Pool MakePool(const std::string& name, const std::vector<std::vector<std::string>>& vdevs);

// Records every job; either completes at once or holds jobs until released.
class FakeExecutor final : public JobExecutor {
 public:
  Result<JobResult> Execute(const Job& job, JobCancel& cancel, ProgressFn progress) override;

  void set_hold(bool hold);
  // Lets every held job finish (ok unless cancelled).
  void ReleaseAll();
  // Waits (real time, bounded) until n jobs are being executed.
  bool WaitRunning(std::size_t n);
  std::vector<Job> Running() const;
  std::vector<Job> Executed() const;  // in start order
  void set_fail(const std::string& drive_id, Status status);
  void set_progress_then_wait(double p);  // held jobs report p first

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool hold_ = false;
  int release_generation_ = 0;
  double report_ = -1;
  std::map<std::int64_t, Job> running_;
  std::vector<Job> executed_;
  std::map<std::string, Status> fail_;
};

class FakeProbe final : public DriveStateProbe {
 public:
  Result<DriveState> Probe(const std::string& drive_id) override;
  void Set(const std::string& drive_id, DriveState s);
  void SetError(const std::string& drive_id, Status s);

 private:
  std::mutex mu_;
  std::map<std::string, DriveState> states_;
  std::map<std::string, Status> errors_;
};

}  // namespace dp::testing
