// MetricsText: writes the Prometheus text exposition format (version 0.0.4):
// one "# HELP" and "# TYPE" per metric family, then its samples. Not
// thread-safe; build one per scrape.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dp::http {

using MetricLabels = std::vector<std::pair<std::string, std::string>>;

class MetricsText {
 public:
  // Samples of one family must be added one after another.
  void Gauge(std::string_view name, std::string_view help, double value,
             const MetricLabels& labels = {});
  void Counter(std::string_view name, std::string_view help, double value,
               const MetricLabels& labels = {});

  const std::string& text() const { return text_; }

  static constexpr std::string_view kContentType = "text/plain; version=0.0.4; charset=utf-8";

 private:
  void Sample(std::string_view type, std::string_view name, std::string_view help, double value,
              const MetricLabels& labels);

  std::string text_;
  std::set<std::string, std::less<>> families_;
};

}  // namespace dp::http
