#include "config/overrides_config.h"

#include <ctime>
#include <cstdio>
#include <string>

#include "config/json_walker.h"

namespace dp {

std::optional<std::int64_t> ParseUtcDateTime(std::string_view text) {
  const std::string s(text);
  std::tm tm{};
  int n = 0;
  char z = 0;
  if (s.size() == 10 &&
      std::sscanf(s.c_str(), "%4d-%2d-%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &n) == 3 &&
      n == 10) {
  } else if (s.size() == 17 && std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d%c%n", &tm.tm_year,
                                           &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &z,
                                           &n) == 6 &&
             n == 17 && z == 'Z') {
  } else if (s.size() == 20 && std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c%n", &tm.tm_year,
                                           &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                                           &tm.tm_sec, &z, &n) == 7 &&
             n == 20 && z == 'Z') {
  } else {
    return std::nullopt;
  }
  const int year = tm.tm_year, month = tm.tm_mon, day = tm.tm_mday;
  if (month < 1 || month > 12 || day < 1 || day > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
      tm.tm_sec > 59)
    return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  const std::time_t t = timegm(&tm);
  // timegm normalises 2026-02-31 to March: such a date was not a date.
  std::tm back{};
  gmtime_r(&t, &back);
  if (back.tm_year + 1900 != year || back.tm_mon + 1 != month || back.tm_mday != day)
    return std::nullopt;
  return static_cast<std::int64_t>(t);
}

void ReadOverrides(JsonWalker& root, std::vector<DriveOverride>& out) {
  root.Objects("overrides", [&](JsonWalker& f, std::size_t) {
    DriveOverride o;
    o.source = "config";
    o.who = "config";
    f.String("drive", o.drive_id);
    f.String("serial", o.serial);
    f.String("model", o.model);
    f.String("pool", o.pool);
    f.String("attribute", o.attribute);
    f.Bool("ignore", o.ignore);
    double threshold = 0;
    if (f.Number("threshold", threshold, 0, 1e15)) o.threshold = threshold;
    std::string until;
    if (f.String("mute_until", until)) {
      o.mute_until = ParseUtcDateTime(until);
      if (!o.mute_until)
        f.Error("mute_until", "expected a UTC date or time such as 2026-12-31 or "
                              "2026-12-31T18:00:00Z, found '" + until + "'");
    }
    f.String("kind", o.kind);
    f.String("device_type", o.device_type);
    f.String("reason", o.reason);
    const char* selector = !o.serial.empty() ? "serial"
                           : !o.model.empty() ? "model"
                           : !o.pool.empty()  ? "pool"
                                              : "drive";
    o.where = f.problems().Where(f.Path(selector));
    if (auto problem = OverrideProblem(o)) {
      // The selector's message belongs on whichever selector key is there.
      f.Error(problem->first == "drive" ? selector : problem->first, problem->second);
      return;
    }
    if (auto canonical = CanonicalSmartAttribute(o.attribute); canonical && !o.attribute.empty())
      o.attribute = *canonical;
    out.push_back(std::move(o));
  });
}

}  // namespace dp
