// Types an ask's bytes into the program, paced: each write waits its delay
// after the previous one, and an Enter marked after_echo waits until the
// screen changed after that write (or a second passed). It also keeps the
// count and timing of submit.resubmit_ms's extra Enters.
//
// Pure logic: it writes through a ChildInput and is driven with explicit
// times (Update(..., now) plus next_wakeup()), like the other parts.
#ifndef TUIDRIVER_TYPIST_H_
#define TUIDRIVER_TYPIST_H_

#include <cstdint>
#include <deque>
#include <string>

#include "child.h"
#include "clock.h"

namespace tuidriver {

class Typist {
 public:
  // Queues bytes to write delay_ms after the previous write. after_echo: the
  // pause starts only once the screen changed after that write.
  void Queue(const std::string& bytes, int delay_ms, bool after_echo = false);
  // The next write goes out no sooner than `at`.
  void HoldUntil(TimePoint at) { next_send_at_ = at; }
  // Writes what is due. `generation`: the screen's (Terminal::generation()).
  void Update(uint64_t generation, ChildInput* child, TimePoint now);
  // When Update must run again; max() when nothing is queued.
  TimePoint next_wakeup() const;
  bool empty() const { return outbox_.empty(); }
  // Drops what is queued.
  void Clear() { outbox_.clear(); }
  // Drops what is queued and forgets the Enters pressed again.
  void Restart();
  // The screen's generation at the last write: unchanged means no echo yet.
  uint64_t written_generation() const { return written_generation_; }

  // submit.resubmit_ms. The prompt's Enter went out at `now`.
  void Submitted(TimePoint now) { submitted_at_ = now; }
  // When to press Enter again, resubmit_ms after the later of the last
  // screen change and the last Enter; max() after two, or when declined at
  // that time already.
  TimePoint ResubmitDue(TimePoint last_change, int resubmit_ms) const;
  // Checked at `due` and not pressed: the next chance comes with a change.
  void Decline(TimePoint due) { resubmit_declined_ = due; }
  // Presses Enter again (`enter`: its bytes).
  void Resubmit(const std::string& enter, ChildInput* child, TimePoint now);

  static constexpr int kEchoWaitMs = 1000;  // a program that never shows the text still gets its Enter
  static constexpr int kMaxResubmits = 2;

 private:
  struct Pending {
    std::string bytes;
    int delay_ms = 0;
    bool after_echo = false;
  };

  std::deque<Pending> outbox_;
  TimePoint next_send_at_;
  // after_echo: the screen's generation at the last write, and when to stop
  // waiting for the program to show it.
  uint64_t written_generation_ = 0;
  TimePoint echo_give_up_;
  TimePoint submitted_at_;
  TimePoint resubmit_declined_;
  int resubmits_ = 0;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_TYPIST_H_
