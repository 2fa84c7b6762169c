// `diskpulse pools --from-file` on output with a config row the reader does
// not know: the pool is still shown with its state and readable rows, the
// row is named in a warning, and the exit status is the pool's (0 ONLINE,
// 1 not), never 2 (unreadable input).
#include <gtest/gtest.h>

#include "support/daemon_process.h"
#include "support/temp_dir.h"

namespace dp {
namespace {

using namespace dp::testing;

ProgramResult Pools(const std::string& fixture) {
  return RunProgram({DP_CLI_BIN, "pools", "--from-file", FixturePath("zpool/" + fixture)});
}

TEST(PoolsUnknownRowTest, OnlinePoolWithAnUnknownRowExitsZeroWithAWarning) {
  ProgramResult r = Pools("solaris-mirror-old-logs-row-constructed.txt");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("neo (zfs)  ONLINE"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("c3t3d0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("warning: pool neo: config row 'logs "), std::string::npos) << r.output;
}

TEST(PoolsUnknownRowTest, FaultedPoolWithAnUnknownRowIsReportedFaulted) {
  ProgramResult r = Pools("solaris-pool-faulted-old-logs-row-constructed.txt");
  EXPECT_EQ(r.exit_code, 1) << r.output;  // a pool not ONLINE, not unreadable input
  EXPECT_NE(r.output.find("tpool (zfs)  FAULTED"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("warning: pool tpool: config row 'logs "), std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace dp
