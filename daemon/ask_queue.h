// The asks of a session: queued in arrival order, one active at a time, a
// finished agent ask's reply held for its transcript turn, and what has to
// happen between two asks when the last one did not end cleanly at the
// prompt (the Resync state below).
//
// Pure logic like Ask: it reads a Terminal, types through a ChildInput,
// writes its replies to a MessageSink, and is driven with explicit times
// (Update(..., now) plus next_wakeup()), so it is tested with a fake clock.
#ifndef TUIDRIVER_ASK_QUEUE_H_
#define TUIDRIVER_ASK_QUEUE_H_

#include <deque>
#include <memory>
#include <string>

#include "ask.h"
#include "engine_config.h"
#include "json_writer.h"
#include "paced_keys.h"
#include "recorder.h"
#include "request.h"
#include "screen_matcher.h"
#include "terminal.h"
#include "transcript.h"

namespace tuidriver {

// The program is ready for input: its prompt shows, no dialog does or is
// being answered (`dialog_busy`), the engine's DA1 wait is over, and the
// screen has been quiet for settle_ms. When only the quiet time is missing,
// *wake is when it will be there.
bool ReadySettled(const Terminal& term, const ScreenMatcher& matcher, const EngineConfig& engine,
                  const std::string& mode, bool dialog_busy, TimePoint last_output, TimePoint now,
                  TimePoint* wake);

class AskQueue {
 public:
  // What must happen before the next ask may start. One state, moved on by
  // the end of an ask, by input sent to the program, and by Update.
  enum class Resync {
    kAtPrompt,        // the last ask ended at the prompt, no input came since:
                      // background output that pushed the prompt away gets an Enter
    kUnknown,         // input was sent, or the last ask failed: wait for the prompt
    kInterruptFirst,  // the last ask ended at a question (needs_input): interrupt
                      // before the next ask unless the prompt is back
    kInterruptDue,    // a cancel's interrupt keys go out at interrupt_due_
    kAwaitReaction,   // interrupted: wait for the screen to change, up to kReactMs
    kNudged,          // no reaction, or no prompt after it: nudged once (Enter
                      // or interrupt), wait again
    kNudgedTwice,     // a line-mode REPL off its main prompt: interrupted again,
                      // then an Enter; wait once more
    kStuckAtQuestion,  // interrupted and nudged, the program still asks something
                       // (a pager, a nested REPL): asks fail at once with
                       // needs_input while it does and no input comes
  };

  // Everything passed in must outlive the queue. `transcript` may be
  // disabled (not enabled()), never null.
  AskQueue(const EngineConfig& engine, const ScreenMatcher& matcher, const std::string& mode,
           TranscriptReader* transcript, MessageSink* out);
  ~AskQueue();

  // ---- requests ----
  // Queues an ask (the caller checked that the session takes asks).
  // False when the queue is full; the caller refuses the request.
  bool Add(const Request& r, TimePoint now);
  // `cancel`: replies to the cancelled ask and to `r`.
  void Cancel(const Request& r, Terminal* term, ChildInput* child, TimePoint now);
  // `answer` (on_input "wait"): replies to `r`.
  void Answer(const Request& r, const Terminal& term, ChildInput* child, TimePoint now);
  // send, keys or paste reached the program: what it does with them is unknown.
  void OnInput(TimePoint now);
  bool Has(const RequestId& id) const;
  size_t queued() const { return queue_.size(); }
  bool busy() const { return active_ != nullptr || !queue_.empty(); }
  // No ask queued, running, or waiting for its reply.
  bool empty() const { return !active_ && !held_ && queue_.empty(); }

  // ---- the loop ----
  // The program became ready: the first ask's time starts now.
  void OnReady(TimePoint now);
  // Drives the active ask, sends held replies, and starts the next ask
  // when the program is ready for it. `last_output`: when the program last
  // wrote; `dialog_busy`: dialog keys are still being sent.
  void Update(Terminal* term, TimePoint last_output, bool dialog_busy, ChildInput* child, TimePoint now);
  // The earliest time Update must run without new output; max() if none.
  // Only what something waits for counts: an idle queue after a timed-out
  // or cancelled ask has no wake-up at all.
  TimePoint next_wakeup() const;
  // A dialog was answered: an active ask whose keystrokes the dialog took
  // goes back to the head of the queue, to be typed again once it is gone.
  void OnDialog(Terminal* term);
  // The terminal was resized: the active ask follows its rows (reflow).
  void FollowResize(const Terminal& term) {
    if (active_) active_->FollowResize(term);
  }
  // Ask start and end markers go to this recording (may be null).
  void set_recorder(Recorder* recorder) { recorder_ = recorder; }
  // The CLI's release, named in transcript errors (a format it changed).
  void set_cli_version(const std::string& version) { cli_version_ = version; }
  // A cancel's interrupt, once due (Update calls it too).
  void SendDueInterrupt(const Terminal& term, ChildInput* child, TimePoint now);

  // ---- close and exit ----
  bool has_active() const { return active_ && !active_->finished(); }
  // Fails the active ask as cancelled; its interrupt keys follow shortly.
  void CancelActive(const std::string& why, Terminal* term, ChildInput* child, TimePoint now);
  // Fails every queued ask as cancelled (a close request).
  void CancelQueued(const std::string& why, const Terminal& term);
  // Fails every queued ask with `kind` (exited, not_ready, needs_input with
  // its `question`).
  void FailQueued(ErrorKind kind, const std::string& why, const std::string& question = "");
  // A held reply goes out now, with or without its transcript turn.
  void ReleaseHeld(TimePoint now) { ReleaseHeldReply(now, true); }
  // The program is gone: a last look at the screen for the active ask
  // (before the exit event), then ChildExited fails what is left.
  void LastLook(const Terminal& term, ChildInput* child, TimePoint now);
  void ChildExited(Terminal* term, const std::string& why, TimePoint now);
  // An interrupted program is still reacting (a close waits for it).
  bool resyncing() const;
  // It reacted, shows its prompt and is quiet: quit keys would land.
  bool Settled(const Terminal& term, TimePoint last_output, TimePoint now) const;
  Resync resync() const { return resync_; }

  // How long an interrupted program has to show a reaction before it is
  // nudged. Generous: on a loaded machine a late reaction plus a nudge
  // interrupted the next ask.
  static constexpr int kReactMs = 2000;
  // Quiet time that ends a resync (a traceback may follow the prompt).
  static constexpr int kQuietMs = 150;
  // Background output must stop this long before the Enter nudge.
  static constexpr int kBackgroundQuietMs = 300;
  // Input sent to a program left at a question (an answer, `q` to a pager)
  // has this long to take effect before the next ask interrupts it: an
  // interrupt flushes the terminal's unread input.
  static constexpr int kAnswerEffectMs = 300;
  // A cancel's interrupt waits this long after the ask's last input.
  static constexpr int kInterruptAfterInputMs = 100;
  // How often the transcript is read while a finished agent ask waits for
  // its turn, or while a settling one may end early.
  static constexpr int kTranscriptPollMs = 10;
  // How often a program that shows unfinished input but is not (yet) seen
  // waiting for the terminal is asked again.
  static constexpr int kUnfinishedProbeMs = 100;
  static constexpr size_t kMaxQueued = 10000;

 private:
  class TrackedInput;
  void StartNext(Terminal* term, TimePoint last_output, bool dialog_busy, ChildInput* child, TimePoint now);
  // Clears input that reached the prompt after a dialog or an interrupt;
  // true when it sent keys or must wait.
  bool ClearLeftovers(const Terminal& term, TimePoint last_output, bool dialog_busy, ChildInput* child,
                      TimePoint now);
  bool BackToPrompt(const Terminal& term, TimePoint last_output, bool dialog_busy, ChildInput* child,
                    TimePoint now);
  // In a resync: true while the next ask must wait for the program's
  // reaction (nudging it when none comes).
  bool AwaitReaction(const Terminal& term, TimePoint last_output, ChildInput* child, TimePoint now);
  // In a resync: every nudge was sent and had its time to show a reaction.
  bool NudgesSpent(const Terminal& term, TimePoint now) const;
  bool LeftAtQuestion(const Terminal& term, TimePoint last_output, bool dialog_busy, const ChildInput& child,
                      TimePoint now);
  // A person's input left unfinished at the prompt (ScreenMatcher::
  // UnfinishedInput), settled: *text is what shows of it.
  bool HoldsUnfinishedInput(const Terminal& term, TimePoint last_output, const ChildInput& child, TimePoint now,
                            std::string* text);
  // kStuckAtQuestion: every queued ask fails with the question.
  void FailQueuedAtQuestion();
  // The program asks something that no dialog rule answers (QuestionShows).
  bool StillAsking(const Terminal& term, bool dialog_busy, const ChildInput& child, std::string* question) const;
  // Sends the interrupt keys (paced) and waits for the program's reaction.
  void Interrupt(const Terminal& term, ChildInput* child, TimePoint now);
  // The interrupt keys: in one write, or paced (engine interrupt_armed).
  void SendInterruptKeys(const Terminal& term, ChildInput* child, TimePoint now);
  // The paced interrupt keys that are due.
  void SendPacedKeys(const Terminal& term, ChildInput* child, TimePoint now);
  void EnterResync(const Terminal& term, TimePoint now);
  bool InResync() const {
    return resync_ == Resync::kAwaitReaction || resync_ == Resync::kNudged || resync_ == Resync::kNudgedTwice;
  }
  void EndSettleEarly(const Terminal& term, TimePoint now);
  void FinishAsk(Terminal* term, ChildInput* child, TimePoint now);
  void ReleaseHeldReply(TimePoint now, bool final);
  void ReplyAsk(const Ask& ask, const JsonObject& extra = JsonObject());
  void WakeAt(TimePoint t, TimePoint now) {
    if (t > now && t < wake_) wake_ = t;
  }

  const EngineConfig& engine_;
  const ScreenMatcher& matcher_;
  std::string mode_;
  TranscriptReader* transcript_;
  MessageSink* out_;
  Recorder* recorder_ = nullptr;
  std::string cli_version_;

  std::deque<std::unique_ptr<Ask>> queue_;
  std::unique_ptr<Ask> active_;
  std::unique_ptr<Ask> held_;  // finished, its reply waiting for the transcript
  TimePoint held_until_;
  TimePoint held_poll_;
  TimePoint settle_poll_;  // the transcript's next look while an ask settles
  bool text_from_record_ = false;  // the held ask's settle was cut short
  TimePoint last_write_;  // the asks' last keystrokes to the program
  // When an ask last ended at a question, and when input (send, keys,
  // paste) last reached the program: an answer to take effect first.
  TimePoint question_at_;
  TimePoint input_at_;
  // The ask that last ended at a question: an `answer` to it after its
  // reply is told how such a question is answered.
  RequestId question_ask_;
  std::string stuck_question_;  // kStuckAtQuestion: what it asks
  uint64_t judged_generation_ = ~0ull;  // the screen LeftAtQuestion last judged

  Resync resync_ = Resync::kAtPrompt;
  TimePoint interrupt_due_;      // kInterruptDue
  PacedKeys interrupt_keys_;     // the interrupts' keys, paced (engine interrupt_armed)
  uint64_t resync_generation_ = 0;  // the screen when the interrupt went out
  TimePoint react_until_;        // kAwaitReaction, kNudged, kNudgedTwice
  bool resync_cleared_ = false;  // the input box was cleared in this resync
  // A dialog took an ask's keystrokes (see Ask::TurnNotStarted): once it
  // is gone, whatever reached the input box is cleared before the retry.
  bool clear_after_dialog_ = false;
  uint64_t nudged_generation_ = ~0ull;  // kAtPrompt's Enter: once per screen
  TimePoint wake_ = TimePoint::max();   // set by the last Update, always ahead of it
};

}  // namespace tuidriver

#endif  // TUIDRIVER_ASK_QUEUE_H_
