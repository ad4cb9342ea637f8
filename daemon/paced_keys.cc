#include "paced_keys.h"

#include "keys.h"

namespace tuidriver {

void PacedKeys::Send(const std::vector<std::string>& keys, const Terminal& term, ChildInput* child,
                     TimePoint now) {
  bool was_pending = pending();
  waiting_.insert(waiting_.end(), keys.begin(), keys.end());
  if (!was_pending && pending()) WriteNext(term, child, now);
}

void PacedKeys::Update(const Terminal& term, ChildInput* child, TimePoint now, bool took_last) {
  if (pending() && (took_last || now >= next_wakeup())) WriteNext(term, child, now);
}

void PacedKeys::WriteNext(const Terminal& term, ChildInput* child, TimePoint now) {
  WriteKeys({waiting_.front()}, term, child);  // in the terminal's modes at the time it goes out
  waiting_.pop_front();
  last_ = now;
}

}  // namespace tuidriver
