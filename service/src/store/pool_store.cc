// Store: pools, vdevs and membership over time.
#include "store/json_columns.h"
#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {
namespace {

// Columns 1.. of the pools query (column 0 is the id).
Pool ReadPool(const Statement& row) {
  Pool p;
  p.kind = row.Text(1);
  p.name = row.Text(2);
  p.state = row.Text(3);
  p.scan.function = row.Text(4);
  p.scan.state = row.Text(5);
  p.scan.percent = row.OptDouble(6);
  p.scan.text = row.Text(7);
  p.errors = row.Text(8);
  p.error_files = StringsFromJson(row.Text(9));
  p.status = row.Text(10);
  return p;
}

// Columns 1.. of the vdevs query (column 0 is the id).
Vdev ReadVdev(const Statement& row) {
  Vdev v;
  v.role = row.Text(1);
  v.name = row.Text(2);
  v.type = row.Text(3);
  v.state = row.Text(4);
  return v;
}

PoolMember ReadMember(const Statement& row) {
  PoolMember m;
  m.path = row.Text(0);
  m.drive_id = row.Text(1);
  m.state = row.Text(2);
  m.read_errors = row.OptUInt(3);
  m.write_errors = row.OptUInt(4);
  m.checksum_errors = row.OptUInt(5);
  m.note = row.Text(6);
  m.container = row.Int(7) != 0;
  m.parent = row.Text(8);
  m.counters_approximate = row.Int(9) != 0;
  return m;
}

}  // namespace

Status Store::RecordPools(const std::vector<Pool>& pools, std::int64_t at) {
  WatchedLock lock(mu_);
  Transaction tx(*db_);
  DP_RETURN_IF_ERROR(tx.status());
  DP_RETURN_IF_ERROR(
      db_->Exec("UPDATE pools SET current = 0 WHERE current = 1;"
                "UPDATE vdevs SET current = 0 WHERE current = 1;"
                "UPDATE pool_members SET current = 0 WHERE current = 1;"));
  for (std::size_t pi = 0; pi < pools.size(); ++pi) {
    const Pool& p = pools[pi];
    DP_ASSIGN_OR_RETURN(
        Statement ps,
        db_->Prepare(
            "INSERT INTO pools (kind, name, state, scan_function, scan_state, scan_percent, "
            "  scan_text, errors, error_files, status, position, current, first_seen, "
            "  last_seen) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?11, ?12, ?9, 1, ?10, ?10) "
            "ON CONFLICT (kind, name) DO UPDATE SET state = excluded.state, "
            "  scan_function = excluded.scan_function, scan_state = excluded.scan_state, "
            "  scan_percent = excluded.scan_percent, scan_text = excluded.scan_text, "
            "  errors = excluded.errors, error_files = excluded.error_files, "
            "  status = excluded.status, position = excluded.position, current = 1, "
            "  last_seen = excluded.last_seen "
            "RETURNING id"));
    ps.Bind(1, p.kind)
        .Bind(2, p.name)
        .Bind(3, p.state)
        .Bind(4, p.scan.function)
        .Bind(5, p.scan.state)
        .Bind(6, p.scan.percent)
        .Bind(7, p.scan.text)
        .Bind(8, p.errors)
        .Bind(9, static_cast<std::int64_t>(pi))
        .Bind(10, at)
        .Bind(11, StringsToJson(p.error_files))
        .Bind(12, p.status);
    DP_ASSIGN_OR_RETURN(std::int64_t pool_id, ps.RunReturningId());

    for (std::size_t vi = 0; vi < p.vdevs.size(); ++vi) {
      const Vdev& v = p.vdevs[vi];
      DP_ASSIGN_OR_RETURN(
          Statement vs,
          db_->Prepare("INSERT INTO vdevs (pool_id, role, name, type, state, position, current, "
                       "  first_seen, last_seen) "
                       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7, ?7) "
                       "ON CONFLICT (pool_id, role, name) DO UPDATE SET type = excluded.type, "
                       "  state = excluded.state, position = excluded.position, current = 1, "
                       "  last_seen = excluded.last_seen "
                       "RETURNING id"));
      vs.Bind(1, pool_id)
          .Bind(2, v.role)
          .Bind(3, v.name)
          .Bind(4, v.type)
          .Bind(5, v.state)
          .Bind(6, static_cast<std::int64_t>(vi))
          .Bind(7, at);
      DP_ASSIGN_OR_RETURN(std::int64_t vdev_id, vs.RunReturningId());

      for (std::size_t mi = 0; mi < v.members.size(); ++mi) {
        const PoolMember& m = v.members[mi];
        DP_ASSIGN_OR_RETURN(
            Statement ms,
            db_->Prepare(
                "INSERT INTO pool_members (vdev_id, path, drive_id, state, read_errors, "
                "  write_errors, checksum_errors, note, container, parent, "
                "  counters_approximate, position, current, first_seen, last_seen) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?11, ?12, ?13, ?9, 1, ?10, ?10) "
                "ON CONFLICT (vdev_id, path, drive_id) DO UPDATE SET state = excluded.state, "
                "  read_errors = excluded.read_errors, write_errors = excluded.write_errors, "
                "  checksum_errors = excluded.checksum_errors, note = excluded.note, "
                "  container = excluded.container, parent = excluded.parent, "
                "  counters_approximate = excluded.counters_approximate, "
                "  position = excluded.position, current = 1, last_seen = excluded.last_seen"));
        ms.Bind(1, vdev_id)
            .Bind(2, m.path)
            .Bind(3, m.drive_id)
            .Bind(4, m.state)
            .Bind(5, m.read_errors)
            .Bind(6, m.write_errors)
            .Bind(7, m.checksum_errors)
            .Bind(8, m.note)
            .Bind(9, static_cast<std::int64_t>(mi))
            .Bind(10, at)
            .Bind(11, m.container)
            .Bind(12, m.parent)
            .Bind(13, m.counters_approximate);
        DP_RETURN_IF_ERROR(ms.Run());
      }
    }
  }
  return tx.Commit();
}

Result<Store::PoolRecall> Store::RecallPool(const std::string& kind, const std::string& name) {
  WatchedLock lock(mu_);
  PoolRecall out;
  DP_ASSIGN_OR_RETURN(Statement first,
                      db_->Prepare("SELECT first_seen FROM pools WHERE kind = ?1 AND name = ?2"));
  first.Bind(1, kind).Bind(2, name);
  DP_ASSIGN_OR_RETURN(out.first_seen, first.OptionalRow<std::int64_t>(
                                          [](const Statement& r) { return r.Int(0); }));
  // Oldest first, so the newest sighting of a path is the one kept.
  DP_ASSIGN_OR_RETURN(
      Statement st,
      db_->Prepare("SELECT m.path, m.drive_id FROM pool_members m "
                   "JOIN vdevs v ON v.id = m.vdev_id JOIN pools p ON p.id = v.pool_id "
                   "WHERE p.kind = ?1 AND p.name = ?2 AND m.drive_id <> '' "
                   "ORDER BY m.last_seen, m.id"));
  st.Bind(1, kind).Bind(2, name);
  DP_RETURN_IF_ERROR(st.ForEachRow(
      [&](const Statement& r) { out.drive_at_path[r.Text(0)] = r.Text(1); }));
  return out;
}

Result<std::vector<Pool>> Store::LatestPools() {
  WatchedLock lock(mu_);
  std::vector<Pool> pools;
  std::vector<std::int64_t> pool_ids;
  {
    DP_ASSIGN_OR_RETURN(
        Statement st,
        db_->Prepare("SELECT id, kind, name, state, scan_function, scan_state, scan_percent, "
                     "  scan_text, errors, error_files, status FROM pools WHERE current = 1 "
                     "ORDER BY position, id"));
    DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) {
      pool_ids.push_back(row.Int(0));
      pools.push_back(ReadPool(row));
    }));
  }
  for (std::size_t i = 0; i < pools.size(); ++i) {
    std::vector<std::int64_t> vdev_ids;
    {
      DP_ASSIGN_OR_RETURN(Statement st,
                          db_->Prepare("SELECT id, role, name, type, state FROM vdevs "
                                       "WHERE pool_id = ?1 AND current = 1 ORDER BY position, id"));
      st.Bind(1, pool_ids[i]);
      DP_RETURN_IF_ERROR(st.ForEachRow([&](const Statement& row) {
        vdev_ids.push_back(row.Int(0));
        pools[i].vdevs.push_back(ReadVdev(row));
      }));
    }
    for (std::size_t j = 0; j < vdev_ids.size(); ++j) {
      DP_ASSIGN_OR_RETURN(
          Statement st,
          db_->Prepare("SELECT path, drive_id, state, read_errors, write_errors, "
                       "  checksum_errors, note, container, parent, counters_approximate "
                       "FROM pool_members "
                       "WHERE vdev_id = ?1 AND current = 1 ORDER BY position, id"));
      st.Bind(1, vdev_ids[j]);
      auto& members = pools[i].vdevs[j].members;
      DP_RETURN_IF_ERROR(
          st.ForEachRow([&](const Statement& row) { members.push_back(ReadMember(row)); }));
    }
  }
  return pools;
}

}  // namespace dp
