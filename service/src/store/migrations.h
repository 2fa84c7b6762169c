// Schema migrations by PRAGMA user_version. Migration N
// takes a database from version N-1 to N; each runs in its own transaction
// together with the user_version bump, so a failure leaves the database at
// the previous version. Never edit a released migration: append a new one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace dp {

class SqliteDb;

struct Migration {
  int version;       // the user_version after this migration: 1, 2, ...
  std::string name;  // for logs
  std::string sql;   // statements; no bound values
};

// PRAGMA application_id of a diskpulse database: "DPLS".
inline constexpr std::int32_t kDiskpulseApplicationId = 0x44504C53;

// diskpulse's migrations, in order; the last one's version is
// Store::LatestSchemaVersion().
const std::vector<Migration>& SchemaMigrations();

// Applies every migration whose version is above the database's user_version,
// in order, each in a transaction (BEGIN IMMEDIATE, so two processes opening
// a fresh database at once do not both migrate). Also stamps application_id.
Status ApplyMigrations(SqliteDb& db, const std::vector<Migration>& migrations);

}  // namespace dp
