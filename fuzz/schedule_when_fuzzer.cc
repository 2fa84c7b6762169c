// A schedule's "when" (5-field cron, aliases, "@every DURATION") and the
// calendar arithmetic that finds its next slot: whatever parses must give a
// next time that is later than the start and matches the expression.
#include "config/cron_expr.h"
#include "config/schedule_config.h"
#include "fuzz/fuzz_input.h"
#include "sched/calendar.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto text = dp::fuzz::AsText(data, size);
  if (text.size() > 4096) return 0;
  (void)dp::ParseDurationSeconds(text);
  auto when = dp::ParseScheduleWhen(text);
  if (!when.ok()) {
    DP_FUZZ_CHECK(!when.status().message().empty());
    return 0;
  }
  if (!when->cron) return 0;
  const dp::SysTime start = dp::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00Z
  auto next = dp::CronNextAfter(*when->cron, start);
  if (next) DP_FUZZ_CHECK(*next > start);
  return 0;
}
