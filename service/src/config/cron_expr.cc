#include "config/cron_expr.h"

#include <array>
#include <cctype>
#include <vector>

namespace dp {
namespace {

struct FieldSpec {
  const char* name;
  int min;
  int max;                   // inclusive; day-of-week accepts 7 as Sunday and folds it to 0
  const char* const* names;  // names[i] means min + i; nullptr: numbers only
  int name_count;
  bool weekday;  // day-of-week: 7 is folded to 0 (Sunday)
};

constexpr const char* kMonthNames[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                       "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr const char* kDayNames[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

constexpr std::array<FieldSpec, 5> kFields = {{
    {"minute", 0, 59, nullptr, 0, false},
    {"hour", 0, 23, nullptr, 0, false},
    {"day-of-month", 1, 31, nullptr, 0, false},
    {"month", 1, 12, kMonthNames, 12, false},
    {"day-of-week", 0, 7, kDayNames, 7, true},
}};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// One value of a field: a number or a name. Returns false with `why` set.
bool ParseValue(std::string_view tok, const FieldSpec& f, int& out, std::string& why) {
  if (tok.empty()) {
    why = std::string(f.name) + ": empty value";
    return false;
  }
  if (std::isdigit(static_cast<unsigned char>(tok[0]))) {
    if (tok.size() > 4 || tok.find_first_not_of("0123456789") != std::string_view::npos) {
      why = std::string(f.name) + ": '" + std::string(tok) + "' is not a number";
      return false;
    }
    out = std::stoi(std::string(tok));
    if (out < f.min || out > f.max) {
      why = std::string(f.name) + " " + std::to_string(out) + " out of range " +
            std::to_string(f.min) + "-" + std::to_string(f.weekday ? 6 : f.max);
      if (f.weekday) why += " (or 7 for Sunday)";
      return false;
    }
    return true;
  }
  std::string low = Lower(tok);
  for (int i = 0; i < f.name_count; ++i) {
    if (low == f.names[i]) {
      out = f.min + i;
      return true;
    }
  }
  why = std::string(f.name) + ": unknown name '" + std::string(tok) + "'";
  if (f.names) {
    why += " (expected";
    for (int i = 0; i < f.name_count; ++i) why += std::string(" ") + f.names[i];
    why += ")";
  } else {
    why += " (expected a number)";
  }
  return false;
}

// Parses one whole field into a bit set over [f.min, f.max].
bool ParseField(std::string_view field, const FieldSpec& f, std::uint64_t& bits, std::string& why) {
  bits = 0;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = field.find(',', start);
    std::string_view item = field.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (item.empty()) {
      why = std::string(f.name) + ": empty list element in '" + std::string(field) + "'";
      return false;
    }
    int step = 1;
    std::size_t slash = item.find('/');
    std::string_view range = item.substr(0, slash);
    bool has_step = slash != std::string_view::npos;
    if (has_step) {
      std::string_view s = item.substr(slash + 1);
      if (s.empty() || s.size() > 4 ||
          s.find_first_not_of("0123456789") != std::string_view::npos) {
        why = std::string(f.name) + ": step '" + std::string(s) + "' is not a number";
        return false;
      }
      step = std::stoi(std::string(s));
      if (step < 1 || step > f.max - f.min + 1) {
        why = std::string(f.name) + ": step " + std::to_string(step) + " out of range 1-" +
              std::to_string(f.max - f.min + 1);
        return false;
      }
    }
    int lo, hi;
    if (range == "*") {
      lo = f.min;
      hi = f.max;
      if (f.weekday) hi = 6;  // '*' over weekdays: 0-6
    } else {
      std::size_t dash = range.find('-');
      if (!ParseValue(range.substr(0, dash), f, lo, why)) return false;
      if (dash != std::string_view::npos) {
        if (!ParseValue(range.substr(dash + 1), f, hi, why)) return false;
        if (hi < lo) {
          why = std::string(f.name) + ": range '" + std::string(range) + "' runs backwards";
          return false;
        }
      } else {
        hi = has_step ? (f.weekday ? 6 : f.max) : lo;  // "5/10": 5, 15, ...
      }
    }
    for (int v = lo; v <= hi; v += step) {
      int bit = (f.weekday && v == 7) ? 0 : v;
      bits |= std::uint64_t{1} << bit;
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return true;
}

std::string_view ExpandAlias(std::string_view text) {
  if (text == "@hourly") return "0 * * * *";
  if (text == "@daily" || text == "@midnight") return "0 0 * * *";
  if (text == "@weekly") return "0 0 * * 0";
  if (text == "@monthly") return "0 0 1 * *";
  if (text == "@yearly" || text == "@annually") return "0 0 1 1 *";
  return {};
}

constexpr int kMaxDayOfMonth[13] = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

}  // namespace

bool CronExpr::Day(int day_of_month, int weekday) const {
  bool dom = (days_of_month >> day_of_month) & 1;
  bool dow = (days_of_week >> weekday) & 1;
  if (dom_star || dow_star) return dom && dow;  // a '*' field matches every day anyway
  return dom || dow;
}

Result<CronExpr> ParseCronExpr(std::string_view text) {
  std::string_view body = text;
  if (!text.empty() && text[0] == '@') {
    body = ExpandAlias(text);
    if (body.empty())
      return InvalidArgument("unknown alias '" + std::string(text) +
                             "' (expected @hourly, @daily, @weekly, @monthly, @yearly or "
                             "@every DURATION)");
  }
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < body.size()) {
    while (i < body.size() && std::isspace(static_cast<unsigned char>(body[i]))) ++i;
    if (i >= body.size()) break;
    std::size_t j = i;
    while (j < body.size() && !std::isspace(static_cast<unsigned char>(body[j]))) ++j;
    fields.push_back(body.substr(i, j - i));
    i = j;
  }
  if (fields.size() != 5)
    return InvalidArgument(
        "expected 5 fields (minute hour day-of-month month day-of-week), found " +
        std::to_string(fields.size()));
  CronExpr e;
  e.text = std::string(text);
  std::uint64_t bits[5];
  for (int f = 0; f < 5; ++f) {
    std::string why;
    if (!ParseField(fields[f], kFields[f], bits[f], why)) return InvalidArgument(why);
  }
  e.minutes = bits[0];
  e.hours = static_cast<std::uint32_t>(bits[1]);
  e.days_of_month = static_cast<std::uint32_t>(bits[2]);
  e.months = static_cast<std::uint32_t>(bits[3]);
  e.days_of_week = static_cast<std::uint32_t>(bits[4]);
  e.dom_star = fields[2][0] == '*';
  e.dow_star = fields[4][0] == '*';
  // A day-of-month that no selected month has ("0 0 30 feb *") would never run.
  if (!e.dom_star && e.dow_star) {
    bool possible = false;
    for (int m = 1; m <= 12 && !possible; ++m) {
      if (!e.Month(m)) continue;
      for (int d = 1; d <= kMaxDayOfMonth[m]; ++d) {
        if ((e.days_of_month >> d) & 1) {
          possible = true;
          break;
        }
      }
    }
    if (!possible)
      return InvalidArgument("day-of-month and month never meet: the expression would never run");
  }
  return e;
}

}  // namespace dp
