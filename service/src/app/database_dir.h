// Prepares the folder that will hold the database, its WAL files and its
// lock: creates it (mode 0750) when its parent exists, and checks it is a
// writable directory, so start-up fails with a message that names the folder.
#pragma once

#include <string>

#include "base/status.h"

namespace dp {

// The folder of a database path ("." for a bare file name).
std::string DatabaseDirectory(const std::string& database_path);

// Errors: "DIR: cannot create the database directory: ...",
// "DIR: the database directory is not writable: ...", "DIR is not a directory".
Status PrepareDatabaseDirectory(const std::string& database_path);

}  // namespace dp
