#include "alert/syslog_sink.h"

#include <gtest/gtest.h>
#include <syslog.h>

#include "base/fake_clock.h"

namespace dp {
namespace {

TEST(SyslogSink, WritesOneLineWithFacilityAndSeverityPriority) {
  std::vector<std::pair<int, std::string>> lines;
  SyslogAlertConfig c;
  c.enabled = true;
  c.facility = "local3";
  auto sink = SyslogSink::Create(c, [&](int p, const std::string& l) { lines.emplace_back(p, l); });
  ASSERT_TRUE(sink.ok());
  Alert a;
  a.id = 4;
  a.severity = "critical";
  a.summary = "sda: SMART overall health self-assessment FAILED\nsecond line";
  ASSERT_TRUE((*sink)->Send(MakeNotification(NotifyKind::kOpened, a, FakeClock().Now())).ok());
  ASSERT_TRUE((*sink)->Send(MakeNotification(NotifyKind::kResolved, a, FakeClock().Now())).ok());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].first, LOG_LOCAL3 | LOG_CRIT);
  EXPECT_EQ(lines[0].second,
            "diskpulse alert #4 opened: [critical] sda: SMART overall health self-assessment "
            "FAILED second line");
  EXPECT_EQ(lines[1].first, LOG_LOCAL3 | LOG_NOTICE);
  c.facility = "kern";
  EXPECT_FALSE(SyslogSink::Create(c).ok());
}

}  // namespace
}  // namespace dp
