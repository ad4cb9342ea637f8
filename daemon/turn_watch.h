// How the turn of a prompt typed whole (submit.mode `paste` or `keys`: an
// agent's TUI) goes, told from the screen: whether it has begun (the
// program showed it was busy, or drew a new reply after the echo), whether
// it is done (back at its prompt, nothing busy, the screen quiet for
// reply_settle_ms), and whether its Enter was lost (the prompt left in the
// input box: submit.resubmit_ms). The Ask keeps the phase, the deadline and
// the result; this part keeps what the screen has shown of the turn.
//
// Pure logic over a Terminal, with the time as a parameter.
#ifndef TUIDRIVER_TURN_WATCH_H_
#define TUIDRIVER_TURN_WATCH_H_

#include <cstdint>

#include "clock.h"
#include "echo_tracker.h"
#include "engine_config.h"
#include "reply_collector.h"
#include "screen_matcher.h"
#include "terminal.h"

namespace tuidriver {

class TurnWatch {
 public:
  enum class Verdict {
    kGoing,     // not begun, busy, or away from its prompt
    kSettling,  // done by the screen, which has not been quiet long enough
    kDone,
  };

  // All four must outlive the watch; `echo` is told when no prompt shows.
  TurnWatch(const EngineConfig& config, const ScreenMatcher& matcher, EchoTracker* echo,
            const ReplyCollector& reply)
      : config_(config), matcher_(matcher), echo_(*echo), reply_(reply) {}

  // Back to before the prompt was typed (the ask is typed again).
  void Reset() { saw_busy_ = false; }
  // Notes the screen's generation: a new one is a change, at `now`.
  void Follow(uint64_t generation, TimePoint now);
  uint64_t generation() const { return generation_; }
  TimePoint last_change() const { return last_change_; }

  // Judges the screen after new output or a wakeup.
  Verdict Judge(const Terminal& term, TimePoint now);
  // After kSettling: when the screen will have been quiet long enough
  // (TimePoint::max() when not settling).
  TimePoint settle_due() const { return settle_until_ > last_change_ ? settle_until_ : TimePoint::max(); }

  bool saw_busy() const { return saw_busy_; }
  // Nothing on screen is this turn's yet: not busy, no new reply.
  bool NotStarted(const Terminal& term) const { return !saw_busy_ && !NewReplyShows(term); }
  // The screen still gives the reply it gave when the ask began and the turn
  // has shown nothing yet: an earlier ask's echo and reply (the same prompt).
  bool ShowsStaleReply(const Terminal& term) const;
  // The prompt stayed in the input box: nothing busy, no prompt (a box
  // holding text is none), no new reply. Its text is not looked for: a long
  // paste shows as a placeholder ("[Pasted Text: 6 lines]").
  bool EnterLost(const Terminal& term) const;

 private:
  bool NewReplyShows(const Terminal& term) const;
  // Begun: busy was seen, or a new reply shows (a turn too quick to see
  // busy); for engines without a reply marker, the prompt was hidden or the
  // cursor moved.
  bool Begun(const Terminal& term) const;

  const EngineConfig& config_;
  const ScreenMatcher& matcher_;
  EchoTracker& echo_;
  const ReplyCollector& reply_;
  bool saw_busy_ = false;
  uint64_t generation_ = ~0ull;
  TimePoint last_change_;
  TimePoint settle_until_;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_TURN_WATCH_H_
