// The close of a session, in four phases: settle (an interrupted program
// gets back to its prompt first), the engine's quit keys, SIGTERM (with
// SIGHUP) to the foreground job and the process group, then SIGKILL. Each
// phase waits for the child to exit up to its grace time; the session ends
// the close as soon as the child is reaped.
//
// Pure logic: it types through a ChildInput, signals through ChildSignals,
// and is driven with explicit times (Update(..., now) plus next_wakeup()).
#ifndef TUIDRIVER_CLOSER_H_
#define TUIDRIVER_CLOSER_H_

#include "child.h"
#include "clock.h"
#include "engine_config.h"
#include "terminal.h"

namespace tuidriver {

class Closer {
 public:
  enum class Phase { kNone, kSettle, kQuitKeys, kTerm, kKill, kGaveUp };

  // `engine` must outlive the closer.
  explicit Closer(const EngineConfig& engine) : engine_(engine) {}

  // Starts the close. `settle_first`: an interrupted program is still
  // reacting, and quit keys typed now would be lost in its reaction.
  // `urgent` (we were signalled, or the program never became ready): no
  // quit keys, and a short SIGTERM grace.
  void Begin(bool settle_first, bool urgent, const Terminal& term, ChildInput* child, TimePoint now);
  // Signalled during a close: skip to the signals and shorten the grace.
  void Hurry(TimePoint now);
  // Moves on when the phase's time is up. `settled`: the program is back at
  // its quiet prompt; `quiet_at`: when it will have been quiet long enough.
  void Update(bool settled, TimePoint quiet_at, const Terminal& term, ChildInput* child,
              ChildSignals* signals, TimePoint now);
  // The earliest time Update must run without new output; max() if none.
  TimePoint next_wakeup() const;
  Phase phase() const { return phase_; }
  // SIGKILL did not get the child reaped within a second: stop waiting.
  bool gave_up() const { return phase_ == Phase::kGaveUp; }

  static constexpr int kSettleMs = 1000;
  static constexpr int kUrgentGraceMs = 300;
  static constexpr int kKillWaitMs = 1000;

 private:
  void SendQuitKeys(const Terminal& term, ChildInput* child, TimePoint now);

  const EngineConfig& engine_;
  Phase phase_ = Phase::kNone;
  bool urgent_ = false;
  TimePoint deadline_;
  TimePoint settle_wake_ = TimePoint::max();
};

}  // namespace tuidriver

#endif  // TUIDRIVER_CLOSER_H_
