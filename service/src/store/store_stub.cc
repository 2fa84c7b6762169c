// Temporary: declarations of store.h answered with Unsupported until the real
// implementation lands (keeps HEAD linking for code written against store.h).
#include "store/store.h"

namespace dp {

class SqliteDb {};

namespace {
Status NotYet() { return Unsupported("store: not implemented yet"); }
}  // namespace

int Store::LatestSchemaVersion() { return 0; }
Result<std::unique_ptr<Store>> Store::Open(const std::string&) { return NotYet(); }
Store::Store(std::string path, std::unique_ptr<SqliteDb> db)
    : path_(std::move(path)), db_(std::move(db)) {}
Store::~Store() = default;
Result<std::string> Store::QuickCheck() { return NotYet(); }
int Store::SchemaVersion() { return 0; }
Status Store::UpsertDrive(const Drive&, std::int64_t) { return NotYet(); }
Status Store::MarkMissingExcept(const std::vector<std::string>&, std::int64_t) { return NotYet(); }
Result<std::vector<Drive>> Store::ListDrives() { return NotYet(); }
Result<std::optional<Drive>> Store::GetDrive(const std::string&) { return NotYet(); }
Status Store::RecordPools(const std::vector<Pool>&, std::int64_t) { return NotYet(); }
Result<std::vector<Pool>> Store::LatestPools() { return NotYet(); }
Result<std::int64_t> Store::InsertSmartSnapshot(const std::string&, std::int64_t,
                                                const SmartSnapshot&) {
  return NotYet();
}
Result<std::optional<SmartSnapshot>> Store::LatestSmart(const std::string&) { return NotYet(); }
Result<std::vector<std::pair<std::int64_t, SmartSnapshot>>> Store::SmartHistory(
    const std::string&, std::int64_t, int) {
  return NotYet();
}
Result<std::int64_t> Store::InsertRun(const Run&) { return NotYet(); }
Status Store::UpdateRun(const Run&) { return NotYet(); }
Result<std::optional<Run>> Store::GetRun(std::int64_t) { return NotYet(); }
Result<std::vector<Run>> Store::ListRuns(const RunFilter&) { return NotYet(); }
Status Store::AddMeasurements(std::int64_t, const std::vector<BenchPoint>&) { return NotYet(); }
Result<std::vector<BenchPoint>> Store::RunPoints(std::int64_t) { return NotYet(); }
Result<std::vector<MeasurementSample>> Store::History(const HistoryQuery&) { return NotYet(); }
Result<std::int64_t> Store::InsertAlert(const Alert&) { return NotYet(); }
Status Store::UpdateAlert(const Alert&) { return NotYet(); }
Result<std::optional<Alert>> Store::OpenAlertFor(const std::string&, const std::string&) {
  return NotYet();
}
Result<std::vector<Alert>> Store::ListAlerts(const AlertFilter&) { return NotYet(); }
Result<std::optional<Alert>> Store::GetAlert(std::int64_t) { return NotYet(); }
Status Store::SetSchedulerState(const std::string&, const std::string&) { return NotYet(); }
Result<std::optional<std::string>> Store::GetSchedulerState(const std::string&) {
  return NotYet();
}
Status Store::PruneBefore(std::int64_t) { return NotYet(); }

}  // namespace dp
