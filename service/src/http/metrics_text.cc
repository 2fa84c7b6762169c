#include "http/metrics_text.h"

#include <cmath>
#include <cstdio>

namespace dp::http {
namespace {

std::string EscapeLabel(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string FormatValue(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

void MetricsText::Gauge(std::string_view name, std::string_view help, double value,
                        const MetricLabels& labels) {
  Sample("gauge", name, help, value, labels);
}

void MetricsText::Counter(std::string_view name, std::string_view help, double value,
                          const MetricLabels& labels) {
  Sample("counter", name, help, value, labels);
}

void MetricsText::Sample(std::string_view type, std::string_view name, std::string_view help,
                         double value, const MetricLabels& labels) {
  if (!families_.count(name)) {
    families_.emplace(name);
    text_ += "# HELP ";
    text_ += name;
    text_ += ' ';
    for (char c : help) text_ += c == '\n' ? ' ' : c;
    text_ += "\n# TYPE ";
    text_ += name;
    text_ += ' ';
    text_ += type;
    text_ += '\n';
  }
  text_ += name;
  if (!labels.empty()) {
    text_ += '{';
    for (std::size_t i = 0; i < labels.size(); ++i) {
      if (i) text_ += ',';
      text_ += labels[i].first + "=\"" + EscapeLabel(labels[i].second) + "\"";
    }
    text_ += '}';
  }
  text_ += ' ';
  text_ += FormatValue(value);
  text_ += '\n';
}

}  // namespace dp::http
