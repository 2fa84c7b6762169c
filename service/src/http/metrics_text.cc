#include "http/metrics_text.h"

#include <cmath>
#include <cstdio>

namespace dp::http {
namespace {

// Label values: backslash, double quote and line feed are escaped.
std::string EscapeLabelValue(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

// HELP text: only backslash and line feed are escaped.
std::string EscapeHelp(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\') out += "\\\\";
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
  Add("gauge", name, help, value, labels);
}

void MetricsText::Counter(std::string_view name, std::string_view help, double value,
                          const MetricLabels& labels) {
  Add("counter", name, help, value, labels);
}

void MetricsText::Add(std::string_view type, std::string_view name, std::string_view help,
                      double value, const MetricLabels& labels) {
  auto it = families_.find(name);
  if (it == families_.end()) {
    it = families_.emplace(std::string(name), Family{std::string(type), std::string(help), {}})
             .first;
    order_.emplace_back(name);
  }
  std::string& s = it->second.samples;
  s += name;
  if (!labels.empty()) {
    s += '{';
    for (std::size_t i = 0; i < labels.size(); ++i) {
      if (i) s += ',';
      s += labels[i].first;
      s += "=\"";
      s += EscapeLabelValue(labels[i].second);
      s += '"';
    }
    s += '}';
  }
  s += ' ';
  s += FormatValue(value);
  s += '\n';
}

std::string MetricsText::text() const {
  std::string out;
  for (const std::string& name : order_) {
    const Family& f = families_.find(name)->second;
    out += "# HELP " + name + ' ' + EscapeHelp(f.help) + "\n# TYPE " + name + ' ' + f.type +
           '\n' + f.samples;
  }
  return out;
}

}  // namespace dp::http
