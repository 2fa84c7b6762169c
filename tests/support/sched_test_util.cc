#include "support/sched_test_util.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>

namespace dp::testing {

ScopedTz::ScopedTz(const char* tz) {
  if (const char* o = std::getenv("TZ")) {
    old_ = o;
    had_old_ = true;
  }
  setenv("TZ", tz, 1);
  tzset();
}

ScopedTz::~ScopedTz() {
  if (had_old_)
    setenv("TZ", old_.c_str(), 1);
  else
    unsetenv("TZ");
  tzset();
}

bool ScopedTz::Available(const char* tz) {
  return std::filesystem::exists(std::string("/usr/share/zoneinfo/") + tz);
}

SysTime Utc(int year, int month, int day, int hour, int minute, int second) {
  using namespace std::chrono;
  sys_days d =
      year_month_day{std::chrono::year{year}, std::chrono::month(month), std::chrono::day(day)};
  return SysTime(d) + hours(hour) + minutes(minute) + seconds(second);
}

ScheduleConfig MakeSchedule(const std::string& name, std::vector<std::string> tests,
                            const std::string& when, std::int64_t jitter_seconds) {
  ScheduleConfig s;
  s.name = name;
  s.tests = std::move(tests);
  s.when = ParseScheduleWhen(when).value();
  s.jitter_seconds = jitter_seconds;
  return s;
}

Drive MakeDrive(const std::string& id, const std::string& name, const std::string& controller) {
  Drive d;
  d.id = id;
  d.name = name;
  d.dev_path = "/dev/" + name;
  d.model = "WDC WD80EFAX-68KNBN0";
  d.controller = controller;
  return d;
}

Pool MakePool(const std::string& name, const std::vector<std::vector<std::string>>& vdevs) {
  Pool p;
  p.name = name;
  p.state = "ONLINE";
  p.scan.function = "none";
  p.scan.state = "none";
  int i = 0;
  for (const auto& members : vdevs) {
    Vdev v;
    v.name = "mirror-" + std::to_string(i++);
    v.type = "mirror";
    v.role = "data";
    v.state = "ONLINE";
    for (const auto& id : members) {
      PoolMember m;
      m.path = id;
      m.state = "ONLINE";
      m.drive_id = id;
      v.members.push_back(m);
    }
    p.vdevs.push_back(v);
  }
  return p;
}

Result<JobResult> FakeExecutor::Execute(const Job& job, JobCancel& cancel, ProgressFn progress) {
  std::unique_lock lock(mu_);
  running_[job.run_id] = job;
  executed_.push_back(job);
  cv_.notify_all();
  if (hold_) {
    if (report_ >= 0) {
      lock.unlock();
      progress(report_);
      lock.lock();
    }
    int gen = release_generation_;
    while (gen == release_generation_ && !cancel.cancelled())
      cv_.wait_for(lock, std::chrono::milliseconds(2));
  }
  running_.erase(job.run_id);
  cv_.notify_all();
  if (cancel.cancelled()) return Cancelled("stopped");
  auto f = fail_.find(job.drive_id);
  if (f != fail_.end()) return f->second;
  lock.unlock();
  progress(1.0);
  JobResult r;
  r.engine = "fake";
  return r;
}

void FakeExecutor::set_hold(bool hold) {
  std::lock_guard lock(mu_);
  hold_ = hold;
}

void FakeExecutor::ReleaseAll() {
  std::lock_guard lock(mu_);
  ++release_generation_;
  cv_.notify_all();
}

bool FakeExecutor::WaitRunning(std::size_t n) {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, std::chrono::seconds(10), [&] { return running_.size() >= n; });
}

std::vector<Job> FakeExecutor::Running() const {
  std::lock_guard lock(mu_);
  std::vector<Job> out;
  for (const auto& [id, j] : running_) out.push_back(j);
  return out;
}

std::vector<Job> FakeExecutor::Executed() const {
  std::lock_guard lock(mu_);
  return executed_;
}

void FakeExecutor::set_fail(const std::string& drive_id, Status status) {
  std::lock_guard lock(mu_);
  fail_[drive_id] = std::move(status);
}

void FakeExecutor::set_progress_then_wait(double p) {
  std::lock_guard lock(mu_);
  report_ = p;
}

Result<DriveState> FakeProbe::Probe(const std::string& drive_id) {
  std::lock_guard lock(mu_);
  auto e = errors_.find(drive_id);
  if (e != errors_.end()) return e->second;
  auto it = states_.find(drive_id);
  return it == states_.end() ? DriveState{} : it->second;
}

void FakeProbe::Set(const std::string& drive_id, DriveState s) {
  std::lock_guard lock(mu_);
  states_[drive_id] = std::move(s);
}

void FakeProbe::SetError(const std::string& drive_id, Status s) {
  std::lock_guard lock(mu_);
  errors_[drive_id] = std::move(s);
}

}  // namespace dp::testing
