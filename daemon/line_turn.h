// How the turn of a prompt typed a line at a time (submit.mode `lines`: a
// REPL or a shell) goes: each line is typed once the program is done with
// the one before, done meaning its next prompt came back (not the prompt
// the line was typed at, nor the helper's redraw of the echo; after the
// helper's end mark; nothing busy). A line done joins the reply. After the
// last line the turn is done, or, at a continuation prompt, the program
// waits for more input than the prompt holds. The Ask keeps the phase, the
// deadline and the result; this part keeps which line is typed and judges
// when the program is done with it.
//
// Pure logic over a Terminal: it types through its Submission, whose
// keystrokes the Ask writes with explicit times, and reads the screen when
// the Ask asks it.
#ifndef TUIDRIVER_LINE_TURN_H_
#define TUIDRIVER_LINE_TURN_H_

#include <string>

#include "child.h"
#include "echo_tracker.h"
#include "engine_config.h"
#include "reply_collector.h"
#include "screen_matcher.h"
#include "submission.h"
#include "terminal.h"

namespace tuidriver {

class LineTurn {
 public:
  enum class Verdict {
    kGoing,      // the typed line's output is still coming
    kNextLine,   // the line is done and the next one is queued to be typed
    kMoreInput,  // all typed, and the program shows a continuation prompt
    kDone,
  };

  // All five must outlive the turn; it types through `submission`, notes
  // each line in `echo` and closes each line's output in `reply`.
  LineTurn(const EngineConfig& config, const ScreenMatcher& matcher, Submission* submission,
           EchoTracker* echo, ReplyCollector* reply)
      : config_(config), matcher_(matcher), submission_(*submission), echo_(*echo), reply_(*reply) {}

  // Splits `prompt` into its lines (with submit.wrap, one line; the prompt
  // goes down the prompt pipe first, for {pipe}) and queues the first.
  void Start(const Terminal& term, const std::string& prompt, ChildInput* child);
  // Judges the screen after new output or a wakeup, once the typed line
  // went out and no question is pending.
  Verdict Judge(const Terminal& term);

 private:
  // Types `line`, noting where.
  void TypeLine(const Terminal& term, const std::string& line);
  // The typed line's prompt came back. *continuation: a continuation prompt.
  bool PromptAfterLine(const Terminal& term, bool* continuation);

  const EngineConfig& config_;
  const ScreenMatcher& matcher_;
  Submission& submission_;
  EchoTracker& echo_;
  ReplyCollector& reply_;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_LINE_TURN_H_
