// Answers the engine's dialogs (trust this folder?, pick a theme, ...):
// once a dialog rule matches a settled screen, its keys are typed one at a
// time, a little apart. A dialog still there a while later is answered
// again, each time after a longer wait (a program that draws its dialog
// before it reads its input loses the keys, for seconds on a loaded machine);
// one that went away re-arms its rule.
//
// Pure logic: it reads a Terminal, types through a ChildInput, and is
// driven with explicit times (Update(..., now) plus next_wakeup()).
#ifndef TUIDRIVER_DIALOG_RESPONDER_H_
#define TUIDRIVER_DIALOG_RESPONDER_H_

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "child.h"
#include "clock.h"
#include "engine_config.h"
#include "screen_matcher.h"
#include "terminal.h"

namespace tuidriver {

class DialogResponder {
 public:
  // `engine` and `matcher` must outlive the responder.
  DialogResponder(const EngineConfig& engine, const ScreenMatcher& matcher, const std::string& mode);

  // Types the keys that are due. Then, when `answer` is true (an engine
  // session, not closing) and the screen changed or a wake-up came, looks
  // for a dialog. Returns the index of the rule answered now, or -1.
  int Update(const Terminal& term, TimePoint last_output, bool answer, ChildInput* child, TimePoint now);
  // Keys are still to be typed: nothing else should type meanwhile.
  bool sending() const { return !keys_.empty(); }
  // The earliest time Update must run without new output; max() if none.
  TimePoint next_wakeup() const;
  // The dialogs answered so far and how often, for a start that timed out
  // ("auth_method 4 times, and still there"; at kMaxTries: "the most it
  // is answered, and still there"); empty if none was.
  std::string Answered() const;

  // A TUI draws a dialog before it listens: the screen must be quiet this long.
  static constexpr int kSettleMs = 150;
  // A dialog still there this long after its keys is answered again; the
  // wait doubles at each try, up to kMaxRetryMs, and ends after kMaxTries
  // (78 s in all, past the default start timeout: not forever).
  static constexpr int kRetryMs = 2000;
  static constexpr int kMaxRetryMs = 16000;
  static constexpr int kMaxTries = 8;
  // Some TUIs read a burst of keys as one: one key at a time, this far apart.
  static constexpr int kKeyGapMs = 50;

 private:
  struct DueKey {
    std::string key;
    TimePoint due;
  };
  void SendDueKeys(const Terminal& term, ChildInput* child, TimePoint now);
  int Look(const Terminal& term, TimePoint last_output, ChildInput* child, TimePoint now);

  const EngineConfig& engine_;
  const ScreenMatcher& matcher_;
  std::string mode_;
  uint64_t seen_generation_ = ~0ull;
  TimePoint look_at_ = TimePoint::max();  // look again then, without a screen change
  int armed_ = -1;  // the rule answered last (-1: none, or it went away)
  int tries_ = 0;
  TimePoint retry_at_;
  std::deque<DueKey> keys_;
  std::vector<int> answered_;  // per rule of engine_.dialogs: how often
};

}  // namespace tuidriver

#endif  // TUIDRIVER_DIALOG_RESPONDER_H_
