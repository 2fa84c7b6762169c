#include "http/metrics_text.h"

#include <gtest/gtest.h>

#include <limits>

namespace dp::http {
namespace {

TEST(MetricsText, WritesHelpAndTypeOncePerFamily) {
  MetricsText m;
  m.Gauge("diskpulse_up", "Up.", 1);
  m.Gauge("diskpulse_drives", "Drives.", 3, {{"state", "present"}});
  m.Gauge("diskpulse_drives", "Drives.", 0, {{"state", "missing"}});
  m.Counter("diskpulse_runs_total", "Runs.", 12.5);
  EXPECT_EQ(m.text(),
            "# HELP diskpulse_up Up.\n"
            "# TYPE diskpulse_up gauge\n"
            "diskpulse_up 1\n"
            "# HELP diskpulse_drives Drives.\n"
            "# TYPE diskpulse_drives gauge\n"
            "diskpulse_drives{state=\"present\"} 3\n"
            "diskpulse_drives{state=\"missing\"} 0\n"
            "# HELP diskpulse_runs_total Runs.\n"
            "# TYPE diskpulse_runs_total counter\n"
            "diskpulse_runs_total 12.5\n");
}

TEST(MetricsText, EscapesLabelValues) {
  MetricsText m;
  m.Gauge("x", "h", 1, {{"model", "a\"b\\c\nd"}});
  EXPECT_NE(m.text().find(R"(x{model="a\"b\\c\nd"} 1)"), std::string::npos);
}

TEST(MetricsText, GroupsInterleavedSamplesByFamily) {
  MetricsText m;
  m.Gauge("a", "A.", 1, {{"drive", "x"}});
  m.Gauge("b", "B.", 2, {{"drive", "x"}});
  m.Gauge("a", "A.", 3, {{"drive", "y"}});
  EXPECT_EQ(m.text(),
            "# HELP a A.\n# TYPE a gauge\na{drive=\"x\"} 1\na{drive=\"y\"} 3\n"
            "# HELP b B.\n# TYPE b gauge\nb{drive=\"x\"} 2\n");
}

TEST(MetricsText, EscapesHelpBackslashAndNewline) {
  MetricsText m;
  m.Gauge("x", "one\\two\nthree \"q\"", 1);
  EXPECT_NE(m.text().find("# HELP x one\\\\two\\nthree \"q\"\n"), std::string::npos) << m.text();
}

TEST(MetricsText, SpecialValues) {
  MetricsText m;
  m.Gauge("x", "h", std::numeric_limits<double>::quiet_NaN());
  m.Gauge("y", "h", std::numeric_limits<double>::infinity());
  m.Gauge("z", "h", 1e-7);
  EXPECT_NE(m.text().find("\nx NaN\n"), std::string::npos);
  EXPECT_NE(m.text().find("\ny +Inf\n"), std::string::npos);
  EXPECT_NE(m.text().find("\nz 9.9999999999999995e-08\n"), std::string::npos) << m.text();
}

}  // namespace
}  // namespace dp::http
