#include "typist.h"

#include <algorithm>

namespace tuidriver {

void Typist::Queue(const std::string& bytes, int delay_ms, bool after_echo) {
  outbox_.push_back({bytes, delay_ms, after_echo});
}

void Typist::Update(uint64_t generation, ChildInput* child, TimePoint now) {
  if (outbox_.empty()) return;
  Pending& next = outbox_.front();
  if (next.after_echo) {
    if (generation == written_generation_ && now < echo_give_up_) return;
    next.after_echo = false;
    next_send_at_ = now + Ms(next.delay_ms);
  }
  if (now < next_send_at_) return;
  // What follows with no delay goes in the same write: a REPL's line and
  // its Enter cost one syscall and one wake-up of the program (two writes
  // this close were often read as one anyway).
  std::string bytes = std::move(next.bytes);
  outbox_.pop_front();
  while (!outbox_.empty() && outbox_.front().delay_ms == 0 && !outbox_.front().after_echo) {
    bytes += outbox_.front().bytes;
    outbox_.pop_front();
  }
  child->Write(bytes);
  written_generation_ = generation;
  echo_give_up_ = now + Ms(kEchoWaitMs);
  // The next one has a delay, or waits for the echo.
  if (!outbox_.empty()) next_send_at_ = now + Ms(outbox_.front().delay_ms);
}

TimePoint Typist::next_wakeup() const {
  if (outbox_.empty()) return TimePoint::max();
  return outbox_.front().after_echo ? echo_give_up_ : next_send_at_;
}

void Typist::Restart() {
  outbox_.clear();
  resubmits_ = 0;
}

TimePoint Typist::ResubmitDue(TimePoint last_change, int resubmit_ms) const {
  if (resubmits_ >= kMaxResubmits) return TimePoint::max();
  TimePoint due = std::max(last_change, submitted_at_) + Ms(resubmit_ms);
  return due == resubmit_declined_ ? TimePoint::max() : due;
}

void Typist::Resubmit(const std::string& enter, ChildInput* child, TimePoint now) {
  child->Write(enter);
  ++resubmits_;
  submitted_at_ = now;
}

}  // namespace tuidriver
