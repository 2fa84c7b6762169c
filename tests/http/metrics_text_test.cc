#include "http/metrics_text.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace dp::http
