#include "config/schedule_config.h"

#include <cctype>
#include <set>

#include "config/config.h"
#include "config/json_walker.h"
#include "model/test_catalog.h"

namespace dp {
namespace {

bool ValidName(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
      return false;
  return true;
}

ScheduleConfig Make(std::string name, std::vector<std::string> tests, std::string_view when,
                    std::int64_t jitter) {
  ScheduleConfig s;
  s.name = std::move(name);
  s.tests = std::move(tests);
  s.when = ParseScheduleWhen(when).value();  // constants below are valid (tested)
  s.jitter_seconds = jitter;
  return s;
}

void ReadSchedule(JsonWalker& w, std::size_t index,
                  const std::map<std::string, std::string>& bench_scratch_dir,
                  ScheduleConfig& s, std::vector<TargetConfig>& targets) {
  s.name = "schedule-" + std::to_string(index);
  std::string name;
  if (w.String("name", name)) {
    if (ValidName(name))
      s.name = name;
    else
      w.Error("name", "expected a name of letters, digits, '-', '_' or '.' (at most 64), found \"" +
                          name + "\"");
  }
  if (w.Required("tests", "the tests to run, e.g. [\"zones\", \"seek\"]") &&
      w.Strings("tests", s.tests)) {
    std::set<std::string> seen;
    for (const auto& t : s.tests) {
      if (!IsKnownTest(t)) {
        std::string list;
        for (const auto& k : KnownTests()) list += (list.empty() ? "" : ", ") + k;
        w.Error("tests", "unknown test '" + t + "' (expected one of " + list + ")");
      } else if (!seen.insert(t).second) {
        w.Error("tests", "test '" + t + "' is listed twice");
      } else if (t == "pool-write" && bench_scratch_dir.empty()) {
        w.Error("tests", "pool-write needs bench.scratch_dir (a directory in the pool to write to)");
      }
    }
    if (s.tests.empty()) w.Error("tests", "must name at least one test");
  }
  std::string when;
  if (w.Required("when", "a cron expression like \"0 3 * * sun\" or \"@every 6h\"") &&
      w.String("when", when, "a cron expression or \"@every 6h\"")) {
    auto parsed = ParseScheduleWhen(when);
    if (parsed.ok())
      s.when = std::move(*parsed);
    else
      w.Error("when", parsed.status().message());
  }
  w.Duration("jitter", s.jitter_seconds, 0, 31 * 86400);
  w.Strings("drives", s.select.drives);
  w.Strings("models", s.select.models);
  w.Strings("pools", s.select.pools);
  if (std::find(s.tests.begin(), s.tests.end(), "pool-write") != s.tests.end() &&
      !bench_scratch_dir.empty()) {
    s.write_pools.emplace();
    for (const auto& [pool, dir] : bench_scratch_dir) s.write_pools->push_back(pool);
    for (const auto& pool : s.select.pools)
      if (!bench_scratch_dir.count(pool))
        w.Error("pools", "pool-write on '" + pool + "' needs its directory in bench.scratch_dir (\"" +
                             pool + "\": \"/" + pool + "/diskpulse\")");
  }
  std::vector<TargetConfig> own;
  ReadTargets(w, "targets", own);
  for (const TargetConfig& tc : own) {
    // The schedule selects its own targets by name; discovery tests them
    // like the top-level "targets".
    s.select.drives.push_back(tc.name);
    bool known = false;
    for (const auto& have : targets) known = known || have.path == tc.path;
    if (!known) targets.push_back(tc);
  }
  w.Bool("enabled", s.enabled);
}

}  // namespace

const std::vector<std::string>& KnownTests() {
  static const std::vector<std::string> kTests = [] {
    std::vector<std::string> names;
    for (const TestInfo& t : TestCatalog()) names.push_back(t.name);
    return names;
  }();
  return kTests;
}

bool IsKnownTest(std::string_view test) {
  for (const auto& t : KnownTests())
    if (t == test) return true;
  return false;
}

Result<std::int64_t> ParseDurationSeconds(std::string_view text) {
  auto bad = [&] {
    return InvalidArgument("invalid duration '" + std::string(text) +
                           "' (expected e.g. 30s, 15m, 6h, 2d, 1w or 1h30m)");
  };
  if (text.empty()) return bad();
  if (text.find_first_not_of("0123456789") == std::string_view::npos) {
    if (text.size() > 12) return bad();
    return static_cast<std::int64_t>(std::stoll(std::string(text)));
  }
  std::int64_t total = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = i;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    if (j == i || j - i > 9 || j >= text.size()) return bad();
    std::int64_t n = std::stoll(std::string(text.substr(i, j - i)));
    std::int64_t unit;
    switch (text[j]) {
      case 's':
        unit = 1;
        break;
      case 'm':
        unit = 60;
        break;
      case 'h':
        unit = 3600;
        break;
      case 'd':
        unit = 86400;
        break;
      case 'w':
        unit = 7 * 86400;
        break;
      default:
        return bad();
    }
    total += n * unit;
    if (total > kLongestDurationSeconds)
      return InvalidArgument("duration '" + std::string(text) + "' is too long (over 10 years)");
    i = j + 1;
  }
  return total;
}

std::string FormatDuration(std::int64_t s) {
  if (s == 0) return "0s";
  std::string out;
  if (s < 0) {
    out = "-";
    s = -s;
  }
  const std::pair<std::int64_t, char> units[] = {
      {7 * 86400, 'w'}, {86400, 'd'}, {3600, 'h'}, {60, 'm'}, {1, 's'}};
  for (auto [size, c] : units) {
    if (s >= size) {
      out += std::to_string(s / size) + c;
      s %= size;
    }
  }
  return out;
}

Result<ScheduleWhen> ParseScheduleWhen(std::string_view text) {
  ScheduleWhen w;
  w.text = std::string(text);
  constexpr std::string_view kEvery = "@every";
  if (text.substr(0, kEvery.size()) == kEvery) {
    std::string_view rest = text.substr(kEvery.size());
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    if (rest.empty() || rest.find_first_not_of("0123456789") == std::string_view::npos)
      return InvalidArgument(
          "invalid interval '" + std::string(text) +
          "': expected @every DURATION with a unit, e.g. @every 6h or @every 30s");
    auto d = ParseDurationSeconds(rest);
    if (!d.ok())
      return InvalidArgument("invalid interval '" + std::string(text) +
                             "': " + d.status().message());
    if (*d < 1)
      return InvalidArgument("invalid interval '" + std::string(text) + "': must be at least 1s");
    w.every_seconds = *d;
    return w;
  }
  auto c = ParseCronExpr(text);
  if (!c.ok())
    return InvalidArgument("invalid cron expression '" + std::string(text) +
                           "': " + c.status().message());
  w.cron = std::move(*c);
  return w;
}

std::vector<ScheduleConfig> DefaultSchedules() {
  return {
      Make("smart", {"smart"}, "@every 4h", 30 * 60),
      Make("weekly-read", {"zones", "seek", "random", "seq"}, "0 3 * * sun", 3 * 3600),
      Make("smart-short", {"smart-short"}, "0 4 * * wed", 2 * 3600),
      Make("smart-long", {"smart-long"}, "0 1 15 * *", 6 * 86400),
  };
}

void ReadSchedules(JsonWalker& root, const std::map<std::string, std::string>& bench_scratch_dir,
                   std::vector<ScheduleConfig>& out, std::vector<TargetConfig>& targets) {
  if (root.Find("schedules")) out.clear();
  std::set<std::string> names;
  root.Objects("schedules", [&](JsonWalker& w, std::size_t i) {
    std::size_t before = w.problems().count();
    ScheduleConfig s;
    ReadSchedule(w, i, bench_scratch_dir, s, targets);
    if (!names.insert(s.name).second) w.Error("name", "duplicate schedule name '" + s.name + "'");
    if (w.problems().count() == before) out.push_back(std::move(s));
  });
}

void ReadScheduler(JsonWalker& w, SchedulerConfig& out) {
  w.Number("max_concurrent", out.max_concurrent, 1, 64);
  w.Number("max_per_controller", out.max_per_controller, 1, 64);
  w.Number("busy_above", out.busy_above, 0, 1);
  w.Number("max_temperature_c", out.max_temperature_c, 20, 100);
  w.Duration("defer_window", out.defer_window_seconds, 0, kLongestDurationSeconds);
  w.Duration("retry_every", out.retry_seconds, 1, kLongestDurationSeconds);
}

}  // namespace dp
