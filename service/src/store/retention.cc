// Store: retention. Old detail (histograms, smartctl's raw output) goes;
// the figures history and detection need stay.
#include "store/sqlite_db.h"
#include "store/store.h"

namespace dp {

Status Store::PruneBefore(std::int64_t at) {
  std::lock_guard lock(mu_);
  Transaction tx(*db_);
  DP_RETURN_IF_ERROR(tx.status());
  {
    DP_ASSIGN_OR_RETURN(
        Statement st,
        db_->Prepare("DELETE FROM latency_histograms WHERE point_id IN ("
                     "  SELECT bench_points.id FROM bench_points JOIN runs "
                     "    ON runs.id = bench_points.run_id WHERE runs.started_at < ?1)"));
    st.Bind(1, at);
    DP_RETURN_IF_ERROR(st.Run());
  }
  {
    DP_ASSIGN_OR_RETURN(Statement st, db_->Prepare("UPDATE smart_snapshots SET raw_json = NULL "
                                                   "WHERE at < ?1 AND raw_json IS NOT NULL"));
    st.Bind(1, at);
    DP_RETURN_IF_ERROR(st.Run());
  }
  return tx.Commit();
}

}  // namespace dp
