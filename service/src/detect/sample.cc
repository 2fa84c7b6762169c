#include "detect/sample.h"

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

std::string SeriesKey::Label() const {
  std::string out = test;
  if (!series.empty()) out += " " + series;
  out += " " + metric;
  return out;
}

}  // namespace dp::detect
