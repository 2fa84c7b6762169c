#include "model/alert.h"

namespace dp {

AlertStanding StandingOf(const Alert& a, bool muted) {
  if (a.state == "resolved") return AlertStanding::kResolved;
  if (a.state == "acknowledged") return AlertStanding::kAcknowledged;
  if (muted) return AlertStanding::kMuted;
  return a.notify_count > 0 ? AlertStanding::kNotified : AlertStanding::kWatching;
}

std::string_view StandingName(AlertStanding s) {
  switch (s) {
    case AlertStanding::kWatching: return "watching";
    case AlertStanding::kNotified: return "notified";
    case AlertStanding::kAcknowledged: return "acknowledged";
    case AlertStanding::kMuted: return "muted";
    case AlertStanding::kResolved: return "resolved";
  }
  return "watching";
}

bool Alarming(AlertStanding s) {
  return s == AlertStanding::kNotified || s == AlertStanding::kAcknowledged;
}

}  // namespace dp
