// MetricsText: builds one Prometheus text exposition (format 0.0.4). Samples
// may be added in any order; text() writes each family once, in the order
// families were first added: "# HELP" (backslashes and newlines escaped),
// "# TYPE", then its samples in the order given. Label values are escaped
// (backslash, double quote, newline) as the format requires. Not
// thread-safe; build one per scrape.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dp::http {

using MetricLabels = std::vector<std::pair<std::string, std::string>>;

class MetricsText {
 public:
  void Gauge(std::string_view name, std::string_view help, double value,
             const MetricLabels& labels = {});
  // Counters are named *_total by convention; the name is written as given.
  void Counter(std::string_view name, std::string_view help, double value,
               const MetricLabels& labels = {});

  std::string text() const;

  static constexpr std::string_view kContentType = "text/plain; version=0.0.4; charset=utf-8";

 private:
  struct Family {
    std::string type;
    std::string help;
    std::string samples;  // rendered sample lines
  };
  void Add(std::string_view type, std::string_view name, std::string_view help, double value,
           const MetricLabels& labels);

  std::vector<std::string> order_;
  std::map<std::string, Family, std::less<>> families_;
};

}  // namespace dp::http
