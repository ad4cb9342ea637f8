// One ask: its phase (queued, sending, waiting, done), its deadline and its
// result. Its parts do the rest: Submission types the prompt and the
// answers, EchoTracker follows the echo, ReplyCollector gathers the reply,
// QuestionWatch watches for a question, and one part judges the turn: a
// prompt typed whole (TurnWatch: begun, done, a lost Enter pressed again)
// or a line at a time (LineTurn: each line done, the next typed). Pure
// logic: it reads a Terminal, writes through a ChildInput, and is driven by
// the session with explicit times, so it is tested without a PTY or a clock.
#ifndef TUIDRIVER_ASK_H_
#define TUIDRIVER_ASK_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "child.h"
#include "clock.h"
#include "echo_tracker.h"
#include "engine_config.h"
#include "error_kind.h"
#include "line_turn.h"
#include "question_watch.h"
#include "reply_collector.h"
#include "reply_stream.h"
#include "request.h"
#include "submission.h"
#include "terminal.h"
#include "turn_input.h"
#include "turn_watch.h"

namespace tuidriver {

class ScreenMatcher;

struct AskResult {
  bool ok = false;
  ErrorKind kind = ErrorKind::kError;  // on failure: timeout, cancelled, exited, needs_input
  std::string error;     // on failure: human-readable
  std::string text;      // the reply (ok), or what was seen so far
  std::string question;  // needs_input: the question on screen
  // exited by a submission's own exit (engine exit_osc): its status; the
  // program goes on. -1: not such an exit.
  int exit_code = -1;
  bool rows_missing = false;  // the screen never showed some rows of the reply
};

class Ask {
 public:
  // `config` and `matcher` must outlive the Ask.
  Ask(const Request& request, const EngineConfig& config,
      const ScreenMatcher& matcher, TimePoint now);
  Ask(const Ask&) = delete;  // its parts hold its prompt
  Ask& operator=(const Ask&) = delete;

  const RequestId& id() const { return id_; }
  // The prompt as typed (sanitised): how a transcript records this turn.
  const std::string& prompt() const { return prompt_; }
  bool streaming() const { return streaming_; }
  bool started() const { return phase_ != Phase::kQueued; }
  bool finished() const { return phase_ == Phase::kDone; }
  const AskResult& result() const { return result_; }

  // Starts typing. The session calls this once the engine is ready.
  void Start(const Terminal& term, ChildInput* child, TimePoint now);
  // Re-evaluates after new output, or when next_wakeup() has passed.
  void Update(const Terminal& term, ChildInput* child, TimePoint now);
  // Fails the ask as cancelled. Interrupting the program (on cancel and on
  // timeout) is the queue's: AskQueue::Interrupt.
  void Cancel(const Terminal& term, const std::string& why);
  // Fails the ask: the program is gone.
  void ChildExited(const Terminal& term, const std::string& why);

  // True while nothing on screen belongs to this ask's turn yet: not busy,
  // no reply. A dialog that pops up over the prompt then took the typed
  // prompt instead, and the ask must be typed again. Never for `lines`
  // engines, where typing a line again could run it twice.
  bool TurnNotStarted(const Terminal& term) const;
  // Back to queued, as if never started: Start types the prompt again.
  void Requeue();

  // Before Start: when a queued ask that cannot start gives up. The session
  // restarts the clock when the ask reaches the head of the queue, so time
  // spent behind other asks does not count.
  void RestartClock(TimePoint now) { deadline_ = now + std::chrono::milliseconds(timeout_ms_); }
  // Fails a queued ask that never got to start (timeout, exited, not_ready;
  // needs_input with the `question` that keeps it from starting).
  void FailInQueue(ErrorKind kind, const std::string& why, const std::string& question = "") {
    Fail(kind, why, "", question);
  }
  TimePoint deadline() const { return deadline_; }
  // The earliest time Update must run even without output.
  TimePoint next_wakeup() const;
  // The screen shows the turn done; only reply_settle_ms's quiet time
  // (a TUI may still paint the reply's end) keeps the ask from finishing.
  bool settling() const { return phase_ == Phase::kWaiting && settling_; }
  // Finishes a settling ask now: the CLI's record says the turn is over.
  // The screen may be mid-paint, so the reply's text, streamed or not, is
  // to come from that record (ReplaceText).
  void FinishSettling(const Terminal& term) {
    if (settling()) Finish(term, false);
  }

  // on_input "wait": a needs_input event to send (a question came up and
  // settled), once per question.
  bool TakeInputEvent(std::string* json);
  // The `answer` request: selects the choice (or types the text) of the
  // question this ask waits on. False with *err if it waits on none.
  bool Answer(const Request& r, const Terminal& term, ChildInput* child, TimePoint now,
              std::string* err);
  // The client sent the program input (keys, send, paste): an answer to a
  // reported question, as far as anyone can tell.
  void OnClientInput() { questions_.InputSent(); }

  // New reply text since the last call (ask_stream), or empty.
  std::string TakeDelta();
  // True when the streamed deltas do not add up to the final text (the
  // program rewrote what had been streamed); the reply says so.
  bool revised() const;
  // The reply's text from the CLI's own record, when the screen never showed
  // some of its rows (result().rows_missing).
  void ReplaceText(const std::string& text) {
    result_.text = text;
    if (streaming_) stream_.Offer(text, true);  // the rest goes out as a delta when it extends what was sent
  }
  // An ask that ends before the helper took its piped prompt (its echo
  // mark never came) voids it, so that a later Enter (a nudge, a person's)
  // does not run it: submit.enter_only types no number to tell them apart;
  // with submit.pipe_only the helper holds it until the REPL is back at
  // its prompt, which the interrupt brings.
  void DropUntakenPrompt(ChildInput* child);
  // First row of the ask on the terminal: history from here is pinned.
  uint64_t start_row() const { return reply_.start_row(); }
  // The terminal was just resized: its rows were renumbered by reflow, so
  // the rows this ask holds follow their text (Terminal::RowAfterResize).
  void FollowResize(const Terminal& term);

 private:
  enum class Phase { kQueued, kSending, kWaiting, kDone };
  void Flush(const Terminal& term, ChildInput* child, TimePoint now);
  void UpdateLines(const Terminal& term, ChildInput* child, TimePoint now);
  void UpdateWhole(const Terminal& term, TimePoint now);
  std::string CurrentReply(const Terminal& term, bool final) const;
  std::string UnfinishedReply(const Terminal& term) const;
  // `stream_screen`: an ask_stream's last delta comes from the screen (else
  // from ReplaceText, the record's text).
  void Finish(const Terminal& term, bool stream_screen = true);
  // `text`: what was seen of the reply; `question`: see AskResult.
  void Fail(ErrorKind kind, const std::string& error, std::string text, std::string question = "");

  const EngineConfig& config_;
  RequestId id_;
  bool streaming_;
  std::string prompt_;  // sanitised
  long timeout_ms_ = 0;

  Phase phase_ = Phase::kQueued;
  TimePoint deadline_;
  bool settling_ = false;  // see settling()

  Submission submission_;    // the prompt's and answers' keystrokes; resubmits
  EchoTracker echo_;         // where the line was typed, and whether its echo showed
  ReplyCollector reply_;     // the reply's text as the screen gives it (holds prompt_)
  TurnWatch turn_;           // a prompt typed whole: begun, done, its Enter lost and pressed again
  LineTurn lines_;           // a prompt typed a line at a time: the next line, done (types through submission_)
  QuestionWatch questions_;  // needs_input: the question, waiting, answering
  ReplyStream stream_;       // ask_stream's deltas
  AskResult result_;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_ASK_H_
