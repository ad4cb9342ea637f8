// How the turn of a prompt typed whole (submit.mode `paste` or `keys`: an
// agent's TUI) goes, told from the screen: whether it has begun (the
// program showed it was busy, or drew a new reply after the echo), whether
// it is done (back at its prompt, nothing busy, the screen quiet for
// reply_settle_ms), and whether its Enter was lost (the prompt left in the
// input box: submit.resubmit_ms). It types through the Submission: the
// prompt whole, and a lost Enter again. The Ask keeps the phase, the
// deadline and the result; this part, what the screen showed of the turn.
//
// Pure logic over a Terminal, with the time as a parameter.
#ifndef TUIDRIVER_TURN_WATCH_H_
#define TUIDRIVER_TURN_WATCH_H_

#include <cstdint>
#include <string>

#include "child.h"
#include "clock.h"
#include "echo_tracker.h"
#include "engine_config.h"
#include "reply_collector.h"
#include "screen_matcher.h"
#include "submission.h"
#include "terminal.h"

namespace tuidriver {

class TurnWatch {
 public:
  enum class Verdict {
    kGoing,     // not begun, busy, or away from its prompt
    kSettling,  // done by the screen, which has not been quiet long enough
    kDone,
  };

  // All five must outlive the watch; `echo` is told when no prompt shows,
  // and `submission` presses a lost Enter again.
  TurnWatch(const EngineConfig& config, const ScreenMatcher& matcher, EchoTracker* echo,
            const ReplyCollector& reply, Submission* submission)
      : config_(config), matcher_(matcher), echo_(*echo), reply_(reply), submission_(*submission) {}

  // Types the whole prompt at the cursor (submit.mode `paste` or `type`).
  void Type(const Terminal& term, const std::string& prompt) {
    echo_.PromptTyped(term);
    submission_.TypeWhole(term, prompt);
  }
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
  // submit.resubmit_ms: when to look whether the Enter was lost, counted
  // from the screen's last change (Submission::ResubmitDue); max() once the
  // turn has begun: busy seen, or `streamed` (some of its reply went out).
  TimePoint ResubmitDue(bool streamed) const {
    return saw_busy_ || streamed ? TimePoint::max() : submission_.ResubmitDue(last_change_);
  }
  // Once ResubmitDue has come: Enter again if it was lost, else the next
  // look comes with a change of the screen.
  void ResubmitIfLost(const Terminal& term, ChildInput* child, bool streamed, TimePoint now);

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
  Submission& submission_;
  bool saw_busy_ = false;
  uint64_t generation_ = ~0ull;
  TimePoint last_change_;
  TimePoint settle_until_;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_TURN_WATCH_H_
