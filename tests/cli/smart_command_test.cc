// `diskpulse smart` on a device path this machine does not have: said in
// diskpulse's own words (exit 2), not smartctl's "Unable to detect device
// type" for a file that is not there.
#include <gtest/gtest.h>

#include "support/daemon_process.h"

namespace dp {
namespace {

using namespace dp::testing;

TEST(SmartCommand, AMissingDeviceIsSaidInOurWords) {
  auto r = RunProgram({DP_CLI_BIN, "smart", "/dev/diskpulse-no-such-disk"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("/dev/diskpulse-no-such-disk: no such device on this machine"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("Unable to detect"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace dp
