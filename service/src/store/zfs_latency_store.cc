// Store: ZFS latency samples (model/zfs_latency.h).
#include <map>

#include "store/sqlite_db.h"
#include "store/store.h"
#include "store/zfs_histogram_codec.h"

namespace dp {
namespace {

const char* const kZfsColumns =
    "at, pool, vdev, member, drive_id, read_ops, write_ops, disk_wait_read, disk_wait_write, "
    "total_wait_read, total_wait_write, slow_ios, sit_out, disk_wait_histogram";

ZfsLatencySample ReadZfsSample(const Statement& st) {
  ZfsLatencySample s;
  s.at = st.Int(0);
  s.pool = st.Text(1);
  s.vdev = st.Text(2);
  s.member = st.Text(3);
  s.drive_id = st.Text(4);
  s.read_ops = st.OptDouble(5);
  s.write_ops = st.OptDouble(6);
  s.disk_wait_read = st.OptDouble(7);
  s.disk_wait_write = st.OptDouble(8);
  s.total_wait_read = st.OptDouble(9);
  s.total_wait_write = st.OptDouble(10);
  s.slow_ios = st.OptUInt(11);
  if (auto f = st.OptInt(12)) s.sit_out = *f != 0;
  if (!st.IsNull(13)) s.disk_wait_histogram = DecodeZfsWaitHistogram(st.Blob(13));
  return s;
}

}  // namespace

Status Store::AddZfsLatencySamples(const std::vector<ZfsLatencySample>& samples) {
  if (samples.empty()) return Status::Ok();
  WatchedLock lock(mu_);
  Transaction tx(*db_);
  DP_RETURN_IF_ERROR(tx.status());
  const std::string sql = std::string("INSERT INTO zfs_latency_samples (") + kZfsColumns +
                          ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)";
  for (const auto& s : samples) {
    // The cached statement resets itself when `st` goes out of scope.
    DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare(sql));
    st.Bind(1, s.at)
        .Bind(2, s.pool)
        .Bind(3, s.vdev)
        .Bind(4, s.member)
        .BindTextOrNull(5, s.drive_id)
        .Bind(6, s.read_ops)
        .Bind(7, s.write_ops)
        .Bind(8, s.disk_wait_read)
        .Bind(9, s.disk_wait_write)
        .Bind(10, s.total_wait_read)
        .Bind(11, s.total_wait_write)
        .Bind(12, s.slow_ios)
        .Bind(13, s.sit_out);
    if (s.disk_wait_histogram)
      st.BindBlob(14, EncodeZfsWaitHistogram(*s.disk_wait_histogram));
    else
      st.BindNull(14);
    DP_RETURN_IF_ERROR(st.Run());
  }
  return tx.Commit();
}

Result<std::vector<ZfsLatencySample>> Store::ZfsLatencyOfVdev(const std::string& pool,
                                                              const std::string& vdev,
                                                              int samplings) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(
      Statement st,
      db_->Prepare(std::string("SELECT ") + kZfsColumns +
                   " FROM zfs_latency_samples WHERE pool = ?1 AND vdev = ?2 AND at >= "
                   "(SELECT COALESCE(MIN(at), 0) FROM (SELECT DISTINCT at FROM zfs_latency_samples "
                   "WHERE pool = ?1 AND vdev = ?2 ORDER BY at DESC LIMIT ?3)) "
                   "ORDER BY at, member, id"));
  st.Bind(1, pool).Bind(2, vdev).Bind(3, samplings > 0 ? samplings : -1);
  std::vector<ZfsLatencySample> out;
  DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) { out.push_back(ReadZfsSample(row)); }));
  return out;
}

Result<std::vector<ZfsLatencySample>> Store::ZfsLatencyOfDrive(const std::string& drive_id,
                                                               int limit) {
  WatchedLock lock(mu_);
  DP_ASSIGN_OR_RETURN(Statement st,
                      db_->Prepare(std::string("SELECT ") + kZfsColumns +
                                   " FROM zfs_latency_samples WHERE drive_id = ?1 "
                                   "ORDER BY at DESC, id DESC LIMIT ?2"));
  st.Bind(1, drive_id).Bind(2, limit > 0 ? limit : -1);
  std::vector<ZfsLatencySample> out;
  DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) { out.push_back(ReadZfsSample(row)); }));
  return out;
}

Result<std::vector<ZfsLatencySample>> Store::ZfsLatestSamplings(std::int64_t since) {
  WatchedLock lock(mu_);
  // The newest sampling time of each pool (by the time index, recent rows
  // only), then the rows of those times.
  std::map<std::string, std::int64_t> newest;
  {
    DP_ASSIGN_OR_RETURN(Statement st,
                        db_->Prepare("SELECT pool, MAX(at) FROM zfs_latency_samples WHERE at >= ?1 "
                                     "GROUP BY pool"));
    st.Bind(1, since);
    DP_RETURN_IF_ERROR(
        st.ForEachRow([&](const Statement& row) { newest[row.Text(0)] = row.Int(1); }));
  }
  std::vector<ZfsLatencySample> out;
  for (const auto& [pool, at] : newest) {
    DP_ASSIGN_OR_RETURN(Statement st,
                        db_->Prepare(std::string("SELECT ") + kZfsColumns +
                                     " FROM zfs_latency_samples WHERE at = ?1 AND pool = ?2 "
                                     "ORDER BY member, id"));
    st.Bind(1, at).Bind(2, pool);
    DP_RETURN_IF_ERROR(
        st.ForEachRow([&](const Statement& row) { out.push_back(ReadZfsSample(row)); }));
  }
  return out;
}

}  // namespace dp
