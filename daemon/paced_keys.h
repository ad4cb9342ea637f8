// Keys written one at a time, each once the program shows it took the one
// before, for a program that reads keys arriving together as one key:
// Copilot cancels a turn on Escape pressed twice within 500 ms, says "esc
// again to interrupt" after the first, and reads two Escapes in one read as
// a single one. A fixed pause between them is not enough: on a loaded
// machine the program may not read before both have arrived. The engine
// field is `interrupt_armed` (docs/engines.md).
#ifndef TUIDRIVER_PACED_KEYS_H_
#define TUIDRIVER_PACED_KEYS_H_

#include <deque>
#include <string>
#include <vector>

#include "child.h"
#include "clock.h"
#include "terminal.h"

namespace tuidriver {

class PacedKeys {
 public:
  // Writes the first key now and keeps the rest for Update; keys still
  // waiting from an earlier Send go first.
  void Send(const std::vector<std::string>& keys, const Terminal& term, ChildInput* child, TimePoint now);
  // Writes the next key once `took_last` (the program shows it took the
  // last key), or once kFallbackMs have passed without a sign.
  void Update(const Terminal& term, ChildInput* child, TimePoint now, bool took_last);
  // Keys are still to go out: nothing else should be typed meanwhile.
  bool pending() const { return !waiting_.empty(); }
  // When the next key goes out without a sign; max when none waits.
  TimePoint next_wakeup() const { return pending() ? last_ + Ms(kFallbackMs) : TimePoint::max(); }

  // A program that shows no sign may have taken the key all the same.
  static constexpr int kFallbackMs = 1000;

 private:
  void WriteNext(const Terminal& term, ChildInput* child, TimePoint now);

  std::deque<std::string> waiting_;
  TimePoint last_;  // when the last key went out
};

}  // namespace tuidriver

#endif  // TUIDRIVER_PACED_KEYS_H_
