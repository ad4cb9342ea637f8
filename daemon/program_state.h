// What a raw session's program does (no engine): `ready` at a prompt,
// `running`, `needs_input` with the question, `fullscreen` (an editor or a
// pager on the alternate screen). It is the judgement QuestionShows
// (question_watch.h) makes for the line engines: the process reading the
// terminal away from a prompt asks something; where reading cannot be
// observed, the line engines' needs_input pattern decides. A raw program's
// prompt is the cursor's row as the program first showed it while it read
// the terminal, or a row ending like a shell prompt ($, #, %).
//
// `status` judges once, when asked (Judge). For the `program_state` event,
// while a client subscribes to it, the part looks on its own once the output
// has been quiet kQuietMs and again after growing pauses (doubled up to
// kLastLookMs), then sleeps until the next output or input; Update reports a
// look that differs from the last reported one. Without a subscriber it
// never wakes the daemon. Pure logic, driven with explicit times.
#ifndef TUIDRIVER_PROGRAM_STATE_H_
#define TUIDRIVER_PROGRAM_STATE_H_

#include <string>

#include "child.h"
#include "clock.h"
#include "engine_config.h"
#include "screen_matcher.h"
#include "terminal.h"

namespace tuidriver {

struct ProgramLook {
  std::string state;     // ready, running, needs_input, fullscreen
  std::string question;  // needs_input: what it asks (the cursor's row, or a full screen)
  bool operator==(const ProgramLook& o) const { return state == o.state && question == o.question; }
  bool operator!=(const ProgramLook& o) const { return !(*this == o); }
};

class ProgramState {
 public:
  ProgramState();

  // One look now: the screen and whether the foreground reads the terminal.
  ProgramLook Judge(const Terminal& term, const SessionChild& child) const;

  // Looks when due. True with *look when it differs from the last look
  // reported (and `report`: a client subscribed to the event).
  bool Update(const Terminal& term, const SessionChild& child, TimePoint last_output, bool report, TimePoint now,
              ProgramLook* look);
  // Looks again soon, as after new output: input was sent (the program's
  // reaction), or a client subscribed (it hears the state then).
  void LookSoon(TimePoint now);
  // Learns the prompt, once: the cursor's row when the output has been
  // quiet kQuietMs and the program does not say it is busy (it reads the
  // terminal, or that cannot be observed). Update calls it; so does status,
  // which may come before any wake-up. It schedules nothing.
  void LearnPrompt(const Terminal& term, const SessionChild& child, TimePoint last_output, TimePoint now);
  // The next look while `report` (a subscriber), max() otherwise.
  TimePoint next_wakeup(bool report) const;

  // The prompt as first shown ("" until learnt).
  const std::string& prompt() const { return prompt_; }
  bool prompt_known() const { return prompt_known_; }
  // How it judges: the line engines' question pattern and a shell's prompt
  // (a test checks the pattern against engines/bash.json's and python.json's).
  const EngineConfig& judgement() const { return config_; }

  static constexpr int kQuietMs = 100;     // output quiet this long before the first look
  static constexpr int kLastLookMs = 1600;  // the longest pause between looks; then none

 private:
  ProgramLook Look(const Terminal& term, const SessionChild& child, TerminalReader reader) const;
  bool AtPrompt(const Terminal& term) const;

  EngineConfig config_;  // the line engines' question pattern, a shell's prompt
  ScreenMatcher matcher_;
  std::string prompt_;
  bool prompt_known_ = false;

  TimePoint seen_output_;  // the last output the schedule started from
  TimePoint next_look_ = TimePoint::max();
  int pause_ms_ = kQuietMs;
  bool reported_any_ = false;
  ProgramLook reported_;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_PROGRAM_STATE_H_
