#include "config/schedule_config.h"

#include <cctype>
#include <set>

#include "config/config.h"
#include "config/json_kind.h"
#include "model/test_catalog.h"

namespace dp {
namespace {

using nlohmann::json;

// The 1-based line of the last of `needles` found in order, each searched
// after the previous one (0 if the first is absent): good enough to point at
// "schedules" ... "nightly" ... "when".
int LineOfSequence(std::string_view text, std::initializer_list<std::string> needles) {
  std::size_t at = std::string_view::npos, from = 0;
  for (const auto& n : needles) {
    if (n.empty()) continue;
    auto pos = text.find(n, from);
    if (pos == std::string_view::npos) break;
    at = pos;
    from = pos + n.size();
  }
  if (at == std::string_view::npos) return 0;
  int line = 1;
  for (std::size_t i = 0; i < at; ++i)
    if (text[i] == '\n') ++line;
  return line;
}

// Collects problems of one object ("schedules[2]" or "scheduler").
class Problems {
 public:
  Problems(std::string_view text, std::string_view file, std::string prefix, std::string section,
           std::string anchor, std::vector<std::string>& errors)
      : text_(text),
        file_(file),
        prefix_(std::move(prefix)),
        section_(std::move(section)),
        anchor_(std::move(anchor)),
        errors_(errors) {}

  void Add(std::string_view key, std::string_view what) {
    std::string msg(file_);
    int line =
        LineOfSequence(text_, {"\"" + section_ + "\"", anchor_,
                               key.empty() ? std::string() : "\"" + std::string(key) + "\""});
    if (line > 0) msg += ":" + std::to_string(line);
    msg += ": " + prefix_;
    if (!key.empty()) msg += "." + std::string(key);
    msg += ": " + std::string(what);
    errors_.push_back(std::move(msg));
  }
  std::size_t count() const { return errors_.size(); }

 private:
  std::string_view text_, file_;
  std::string prefix_, section_, anchor_;
  std::vector<std::string>& errors_;
};

bool ValidName(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
      return false;
  return true;
}

// A string or an array of strings (a single string is a one-element list).
bool StringList(const json& v, std::vector<std::string>& out, std::string& why) {
  out.clear();
  if (v.is_string()) {
    out.push_back(v.get<std::string>());
    return true;
  }
  if (!v.is_array()) {
    why = std::string("expected an array of strings, found ") + JsonKind(v);
    return false;
  }
  for (const auto& e : v) {
    if (!e.is_string() || e.get<std::string>().empty()) {
      why = std::string("expected an array of non-empty strings, found an element that is ") +
            (e.is_string() ? "empty" : JsonKind(e));
      return false;
    }
    out.push_back(e.get<std::string>());
  }
  return true;
}

// A duration given as "6h" or as a number of seconds.
bool Duration(const json& v, std::int64_t& out, std::string& why) {
  if (v.is_number_integer() || v.is_number_unsigned()) {
    if (v.get<std::int64_t>() < 0) {
      why = "must not be negative, found " + v.dump();
      return false;
    }
    out = v.get<std::int64_t>();
    return true;
  }
  if (!v.is_string()) {
    why =
        std::string("expected a duration like \"30m\" or a number of seconds, found ") + JsonKind(v);
    return false;
  }
  auto d = ParseDurationSeconds(v.get<std::string>());
  if (!d.ok()) {
    why = d.status().message();
    return false;
  }
  out = *d;
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
    if (total > 366LL * 86400 * 10)
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

void ParseSchedulesJson(const json& schedules, std::string_view text, std::string_view file,
                        const std::string& bench_scratch_dir, std::vector<ScheduleConfig>& out,
                        std::vector<TargetConfig>& targets, std::vector<std::string>& errors) {
  out.clear();
  std::set<std::string> names;
  for (std::size_t i = 0; i < schedules.size(); ++i) {
    const json& e = schedules[i];
    std::string prefix = "schedules[" + std::to_string(i) + "]";
    std::string anchor;
    if (e.is_object() && e.contains("name") && e["name"].is_string())
      anchor = "\"" + e["name"].get<std::string>() + "\"";
    Problems p(text, file, prefix, "schedules", anchor, errors);
    if (!e.is_object()) {
      p.Add("", std::string("expected an object {\"tests\", \"when\", ...}, found ") + JsonKind(e));
      continue;
    }
    ScheduleConfig s;
    s.name = "schedule-" + std::to_string(i);
    std::size_t before = p.count();
    std::string why;
    for (auto it = e.begin(); it != e.end(); ++it) {
      const std::string& key = it.key();
      const json& v = it.value();
      if (key == "name") {
        if (!v.is_string() || !ValidName(v.get<std::string>()))
          p.Add(key, "expected a name of letters, digits, '-', '_' or '.' (at most 64), found " +
                         v.dump());
        else
          s.name = v.get<std::string>();
      } else if (key == "tests") {
        if (!StringList(v, s.tests, why)) {
          p.Add(key, why);
          continue;
        }
        std::set<std::string> seen;
        for (const auto& t : s.tests) {
          if (!IsKnownTest(t)) {
            std::string list;
            for (const auto& k : KnownTests()) list += (list.empty() ? "" : ", ") + k;
            p.Add(key, "unknown test '" + t + "' (expected one of " + list + ")");
          } else if (!seen.insert(t).second) {
            p.Add(key, "test '" + t + "' is listed twice");
          } else if (t == "pool-write" && bench_scratch_dir.empty()) {
            p.Add(key, "pool-write needs bench.scratch_dir (a directory in the pool to write to)");
          }
        }
      } else if (key == "when") {
        if (!v.is_string()) {
          p.Add(key,
                std::string("expected a cron expression or \"@every 6h\", found ") + JsonKind(v));
          continue;
        }
        auto w = ParseScheduleWhen(v.get<std::string>());
        if (!w.ok())
          p.Add(key, w.status().message());
        else
          s.when = std::move(*w);
      } else if (key == "jitter") {
        if (!Duration(v, s.jitter_seconds, why))
          p.Add(key, why);
        else if (s.jitter_seconds > 31 * 86400)
          p.Add(key, "must be at most 31d, found " + v.dump());
      } else if (key == "drives" || key == "models" || key == "pools") {
        auto& list = key == "drives"   ? s.select.drives
                     : key == "models" ? s.select.models
                                       : s.select.pools;
        if (!StringList(v, list, why)) p.Add(key, why);
      } else if (key == "targets") {
        if (!v.is_array()) {
          p.Add(key, std::string("expected an array of {\"path\", \"name\"}, found ") + JsonKind(v));
          continue;
        }
        for (std::size_t t = 0; t < v.size(); ++t) {
          const json& te = v[t];
          std::string tkey = "targets[" + std::to_string(t) + "]";
          if (!te.is_object() || !te.contains("path") || !te["path"].is_string() ||
              te["path"].get<std::string>().empty()) {
            p.Add(tkey, "expected {\"path\": \"/dev/...\", \"name\": \"...\"} with a path");
            continue;
          }
          TargetConfig tc;
          tc.path = te["path"].get<std::string>();
          for (auto tit = te.begin(); tit != te.end(); ++tit) {
            if (tit.key() == "path") continue;
            if (tit.key() == "name" && tit.value().is_string()) {
              tc.name = tit.value().get<std::string>();
            } else {
              p.Add(tkey + "." + tit.key(),
                    tit.key() == "name" ? "expected a string" : "unknown key (misspelt?)");
            }
          }
          if (tc.name.empty()) tc.name = tc.path.substr(tc.path.find_last_of('/') + 1);
          // The schedule selects its own targets by name; discovery tests them
          // like the top-level "targets".
          s.select.drives.push_back(tc.name);
          bool known = false;
          for (const auto& have : targets) known = known || have.path == tc.path;
          if (!known) targets.push_back(tc);
        }
      } else if (key == "enabled") {
        if (!v.is_boolean())
          p.Add(key, std::string("expected true or false, found ") + JsonKind(v));
        else
          s.enabled = v.get<bool>();
      } else {
        p.Add(key, "unknown key (misspelt?)");
      }
    }
    if (!e.contains("tests"))
      p.Add("tests", "required: the tests to run, e.g. [\"zones\", \"seek\"]");
    else if (s.tests.empty() && p.count() == before)
      p.Add("tests", "must name at least one test");
    if (!e.contains("when"))
      p.Add("when", "required: a cron expression like \"0 3 * * sun\" or \"@every 6h\"");
    if (!names.insert(s.name).second) p.Add("name", "duplicate schedule name '" + s.name + "'");
    if (p.count() == before) out.push_back(std::move(s));
  }
}

void ParseSchedulerJson(const json& scheduler, std::string_view text, std::string_view file,
                        SchedulerConfig& out, std::vector<std::string>& errors) {
  Problems p(text, file, "scheduler", "scheduler", "", errors);
  if (!scheduler.is_object()) {
    p.Add("", std::string("expected an object, found ") + JsonKind(scheduler));
    return;
  }
  std::string why;
  for (auto it = scheduler.begin(); it != scheduler.end(); ++it) {
    const std::string& key = it.key();
    const json& v = it.value();
    auto integer = [&](int& field, int lo, int hi) {
      if (!v.is_number_integer() && !v.is_number_unsigned()) {
        p.Add(key, "expected a whole number, found " + v.dump());
      } else if (v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi) {
        p.Add(key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                       ", found " + v.dump());
      } else {
        field = v.get<int>();
      }
    };
    if (key == "max_concurrent") {
      integer(out.max_concurrent, 1, 64);
    } else if (key == "max_per_controller") {
      integer(out.max_per_controller, 1, 64);
    } else if (key == "max_temperature_c") {
      integer(out.max_temperature_c, 20, 100);
    } else if (key == "busy_above") {
      if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 1)
        p.Add(key, "expected a share between 0 and 1, found " + v.dump());
      else
        out.busy_above = v.get<double>();
    } else if (key == "defer_window") {
      if (!Duration(v, out.defer_window_seconds, why)) p.Add(key, why);
    } else if (key == "retry_every") {
      if (!Duration(v, out.retry_seconds, why))
        p.Add(key, why);
      else if (out.retry_seconds < 1)
        p.Add(key, "must be at least 1s");
    } else {
      p.Add(key, "unknown key (misspelt?)");
    }
  }
}

}  // namespace dp
