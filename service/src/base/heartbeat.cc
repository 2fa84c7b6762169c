#include "base/heartbeat.h"

namespace dp {

Heartbeat::Heartbeat(std::string name, const Clock& clock) : name_(std::move(name)), clock_(clock) {}

void Heartbeat::Beat() {
  const MonoTime now = clock_.Monotonic();
  MutexLock lock(mu_);
  last_beat_ = now;
}

void Heartbeat::Begin() {
  const MonoTime now = clock_.Monotonic();
  MutexLock lock(mu_);
  if (calls_++ == 0) busy_since_ = now;
}

void Heartbeat::End() {
  MutexLock lock(mu_);
  if (calls_ > 0) --calls_;
}

Heartbeat::Quiet::Quiet(Heartbeat* h) : h_(h) {
  if (!h_) return;
  MutexLock lock(h_->mu_);
  ++h_->quiet_;
}

Heartbeat::Quiet::~Quiet() {
  if (!h_) return;
  const MonoTime now = h_->clock_.Monotonic();
  MutexLock lock(h_->mu_);
  --h_->quiet_;
  // The long call is judged afresh from here on.
  if (h_->calls_ > 0) h_->busy_since_ = now;
  if (h_->last_beat_) h_->last_beat_ = now;
}

std::optional<std::chrono::nanoseconds> Heartbeat::SinceProgress(MonoTime now) const {
  MutexLock lock(mu_);
  if (quiet_ > 0) return std::nullopt;
  std::optional<std::chrono::nanoseconds> worst;
  if (last_beat_) worst = now - *last_beat_;
  if (calls_ > 0 && (!worst || now - busy_since_ > *worst)) worst = now - busy_since_;
  return worst;
}

Heartbeat& HeartbeatBoard::Add(std::string name) {
  MutexLock lock(mu_);
  parts_.push_back(std::make_unique<Heartbeat>(std::move(name), clock_));
  return *parts_.back();
}

std::vector<std::string> HeartbeatBoard::Stalled(std::chrono::nanoseconds limit) const {
  const MonoTime now = clock_.Monotonic();
  std::vector<std::string> out;
  MutexLock lock(mu_);
  for (const auto& part : parts_) {
    auto since = part->SinceProgress(now);
    if (since && *since > limit)
      out.push_back(part->name() + " (no progress for " +
                    std::to_string(std::chrono::duration_cast<std::chrono::seconds>(*since).count()) +
                    " s)");
  }
  return out;
}

}  // namespace dp
