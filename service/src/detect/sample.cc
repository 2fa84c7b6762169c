#include "detect/sample.h"

#include <algorithm>
#include <unordered_set>

namespace dp::detect {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

Direction DirectionOf(std::string_view metric) {
  if (metric == "mb_per_s" || metric == "iops") return Direction::kHigherIsBetter;
  if (EndsWith(metric, "_ms") || EndsWith(metric, "_us")) return Direction::kLowerIsBetter;
  return Direction::kHigherIsBetter;
}

double TailDfOf(std::string_view metric) {
  if (metric == "access_ms") return 10;
  if (EndsWith(metric, "_us") || EndsWith(metric, "_ms")) return 4;
  return 0;
}

std::string UnitOf(std::string_view metric) {
  if (metric == "mb_per_s") return "MB/s";
  if (metric == "iops") return "IOPS";
  if (EndsWith(metric, "_ms")) return "ms";
  if (EndsWith(metric, "_us")) return "us";
  return "";
}

void SortByTime(std::vector<Sample>& history) {
  std::stable_sort(history.begin(), history.end(), [](const Sample& a, const Sample& b) {
    return a.at != b.at ? a.at < b.at : a.run_id < b.run_id;
  });
}

std::vector<Sample> ChronologicalRuns(std::vector<Sample> history) {
  SortByTime(history);
  std::vector<Sample> unique;
  unique.reserve(history.size());
  std::unordered_set<std::int64_t> ids;
  for (auto& s : history)
    if (s.run_id == 0 || ids.insert(s.run_id).second) unique.push_back(std::move(s));
  return unique;
}

std::string SeriesKey::Label() const {
  std::string out = test;
  if (!series.empty()) out += " " + series;
  out += " " + metric;
  return out;
}

}  // namespace dp::detect
