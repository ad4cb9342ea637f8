#include "ask_queue.h"

#include <algorithm>

#include "keys.h"
#include "markdown_text.h"
#include "messages.h"

namespace tuidriver {

// The asks' keystrokes, with the time of the last one (an interrupt waits a
// moment after it).
class AskQueue::TrackedInput : public ChildInput {
 public:
  TrackedInput(ChildInput* child, TimePoint* last_write, TimePoint now)
      : child_(child), last_write_(last_write), now_(now) {}
  void Write(const std::string& bytes) override {
    child_->Write(bytes);
    *last_write_ = now_;
  }
  uint64_t PipePrompt(const std::string& prompt) override { return child_->PipePrompt(prompt); }
  void DropPrompt(uint64_t number) override { child_->DropPrompt(number); }
  TerminalReader ReadsTerminal() const override { return child_->ReadsTerminal(); }

 private:
  ChildInput* child_;
  TimePoint* last_write_;
  TimePoint now_;
};

bool ReadySettled(const Terminal& term, const ScreenMatcher& matcher, const EngineConfig& engine,
                  const std::string& mode, bool dialog_busy, TimePoint last_output, TimePoint now,
                  TimePoint* wake) {
  if (!matcher.Ready(term) || dialog_busy) return false;
  if (engine.ready_after_da1 && term.da1_queries() == 0) return false;
  if (matcher.MatchDialog(term, mode) >= 0) return false;
  int settle = engine.timeouts.settle_ms;
  if (settle > 0 && now < last_output + Ms(settle)) {
    *wake = last_output + Ms(settle);
    return false;
  }
  return true;
}

AskQueue::AskQueue(const EngineConfig& engine, const ScreenMatcher& matcher, const std::string& mode,
                   TranscriptReader* transcript, MessageSink* out)
    : engine_(engine), matcher_(matcher), mode_(mode), transcript_(transcript), out_(out) {}

AskQueue::~AskQueue() = default;

// ---- requests ---------------------------------------------------------------

bool AskQueue::Add(const Request& r, TimePoint now) {
  if (queue_.size() >= kMaxQueued) return false;
  queue_.push_back(std::make_unique<Ask>(r, engine_, matcher_, now));
  return true;
}

void AskQueue::Cancel(const Request& r, Terminal* term, ChildInput* child, TimePoint now) {
  if (active_ && active_->id() == r.target) {
    CancelActive("cancelled by request " + r.id.json, term, child, now);
    out_->Send(ReplyOkMessage(r.id));
    return;
  }
  for (auto it = queue_.begin(); it != queue_.end(); ++it) {
    if (!((*it)->id() == r.target)) continue;
    (*it)->Cancel(*term, "cancelled by request " + r.id.json + " before it started");
    ReplyAsk(**it);
    queue_.erase(it);
    out_->Send(ReplyOkMessage(r.id));
    return;
  }
  out_->Send(ReplyErrorMessage(r.id, ErrorKind::kError, "no ask with id " + r.target.json + " is running or queued"));
}

void AskQueue::Answer(const Request& r, const Terminal& term, ChildInput* child, TimePoint now) {
  std::string err = "no ask with id " + r.target.json + " is running";
  bool at_question = resync_ == Resync::kInterruptFirst || resync_ == Resync::kStuckAtQuestion;
  if (at_question && r.target == question_ask_) {
    err += ": it ended at the question (on_input \"fail\", the default); answer it with keys, send or "
           "paste, or ask with \"on_input\":\"wait\" to answer it here";
  }
  TrackedInput in(child, &last_write_, now);
  if (active_ && active_->id() == r.target && active_->Answer(r, term, &in, now, &err)) {
    out_->Send(ReplyOkMessage(r.id));
  } else {
    out_->Send(ReplyErrorMessage(r.id, ErrorKind::kError, err));
  }
}

void AskQueue::OnInput(TimePoint now) {
  if (resync_ == Resync::kAtPrompt) resync_ = Resync::kUnknown;
  // An answer, maybe: the next ask gives it time to take effect, then
  // interrupts again if the question is still there.
  if (resync_ == Resync::kStuckAtQuestion) resync_ = Resync::kInterruptFirst;
  input_at_ = now;
  if (active_) active_->OnClientInput();
}

bool AskQueue::Has(const RequestId& id) const {
  if (active_ && active_->id() == id) return true;
  if (held_ && held_->id() == id) return true;
  for (const auto& a : queue_) {
    if (a->id() == id) return true;
  }
  return false;
}

// ---- the loop -----------------------------------------------------------------

void AskQueue::OnReady(TimePoint now) {
  if (!queue_.empty()) queue_.front()->RestartClock(now);
}

void AskQueue::Update(Terminal* term, TimePoint last_output, bool dialog_busy, ChildInput* child,
                      TimePoint now) {
  wake_ = TimePoint::max();
  SendPacedKeys(*term, child, now);
  SendDueInterrupt(*term, child, now);
  if (active_) {
    TrackedInput in(child, &last_write_, now);
    active_->Update(*term, &in, now);
    std::string input_event;
    if (active_->TakeInputEvent(&input_event)) out_->Send(input_event);
    if (active_->streaming()) {
      std::string delta = active_->TakeDelta();
      if (!delta.empty()) out_->Send(ChunkMessage(active_->id(), delta));
    }
    if (active_->settling()) EndSettleEarly(*term, now);
    if (active_->finished()) FinishAsk(term, child, now);
  }
  if (held_ && now >= held_poll_) ReleaseHeldReply(now, false);
  // Replies go out in order: the next ask starts once the held one is sent.
  if (!active_ && !held_ && !queue_.empty() && !interrupt_keys_.pending()) {
    StartNext(term, last_output, dialog_busy, child, now);
  }
}

TimePoint AskQueue::next_wakeup() const {
  TimePoint t = wake_;
  if (active_) t = std::min(t, active_->next_wakeup());
  if (held_) t = std::min(t, held_poll_);
  else if (!active_ && !queue_.empty()) t = std::min(t, queue_.front()->deadline());
  if (resync_ == Resync::kInterruptDue) t = std::min(t, interrupt_due_);
  return std::min(t, interrupt_keys_.next_wakeup());
}

void AskQueue::OnDialog(Terminal* term) {
  if (!active_ || !active_->TurnNotStarted(*term)) return;
  active_->Requeue();
  queue_.push_front(std::move(active_));
  term->UnpinHistory();
  clear_after_dialog_ = true;
}

void AskQueue::SendDueInterrupt(const Terminal& term, ChildInput* child, TimePoint now) {
  if (resync_ != Resync::kInterruptDue || now < interrupt_due_) return;
  Interrupt(term, child, now);
}

void AskQueue::SendInterruptKeys(const Terminal& term, ChildInput* child, TimePoint now) {
  if (engine_.interrupt_armed.pattern.empty()) WriteKeys(engine_.interrupt_keys, term, child);
  else interrupt_keys_.Send(engine_.interrupt_keys, term, child, now);
}

void AskQueue::SendPacedKeys(const Terminal& term, ChildInput* child, TimePoint now) {
  if (!interrupt_keys_.pending()) return;
  interrupt_keys_.Update(term, child, now, matcher_.InterruptArmed(term));
  if (interrupt_keys_.pending()) return;
  // The last key is out: the program's reaction counts from it (a
  // reaction to the first is not one to the interrupt).
  resync_generation_ = term.generation();
  react_until_ = now + Ms(kReactMs);
}

void AskQueue::Interrupt(const Terminal& term, ChildInput* child, TimePoint now) {
  SendInterruptKeys(term, child, now);
  // The resync waits for the program's reaction from now on.
  EnterResync(term, now);
}

void AskQueue::StartNext(Terminal* term, TimePoint last_output, bool dialog_busy, ChildInput* child,
                         TimePoint now) {
  if (now >= queue_.front()->deadline()) {
    // The program never became ready for it (busy, or lost after an
    // interrupt): fail it rather than wait forever.
    queue_.front()->FailInQueue(ErrorKind::kTimeout, "the program did not become ready for this ask in time");
    ReplyAsk(*queue_.front());
    queue_.pop_front();
    if (!queue_.empty()) queue_.front()->RestartClock(now);
    return;
  }
  if (resync_ == Resync::kInterruptDue) return;
  if (ClearLeftovers(*term, last_output, dialog_busy, child, now)) return;
  if (BackToPrompt(*term, last_output, dialog_busy, child, now)) return;
  if (InResync() && AwaitReaction(*term, last_output, child, now)) return;
  if (LeftAtQuestion(*term, last_output, dialog_busy, *child, now)) {
    resync_ = Resync::kStuckAtQuestion;
    FailQueuedAtQuestion();
    return;
  }
  if (resync_ == Resync::kStuckAtQuestion) {
    if (StillAsking(*term, dialog_busy, *child, &stuck_question_)) {
      FailQueuedAtQuestion();
      return;
    }
    resync_ = Resync::kUnknown;  // it went away by itself: wait for the prompt as ever
  }
  std::string unfinished;
  if (HoldsUnfinishedInput(*term, last_output, *child, now, &unfinished)) {
    FailQueued(ErrorKind::kUnfinishedInput,
               "the terminal holds unfinished input (\"" + unfinished +
                   "\"): a line typed without its Enter, or a block begun; finish it (Enter) or clear it "
                   "(C-u, C-c), then ask again");
    return;
  }
  TimePoint settle;
  if (!ReadySettled(*term, matcher_, engine_, mode_, dialog_busy, last_output, now, &settle)) {
    WakeAt(settle, now);
    return;
  }
  if (InResync()) {
    // An interrupted program may show its prompt before the rest of its
    // reaction (a traceback), which must not land in the next ask.
    TimePoint quiet = last_output + Ms(kQuietMs);
    if (now < quiet) {
      WakeAt(quiet, now);
      return;
    }
    resync_ = Resync::kUnknown;
  }
  active_ = std::move(queue_.front());
  queue_.pop_front();
  if (transcript_->enabled()) transcript_->StartTurn(active_->prompt());
  if (recorder_) recorder_->Marker("ask " + active_->id().json + " start");
  TrackedInput in(child, &last_write_, now);
  active_->Start(*term, &in, now);
  term->PinHistory(active_->start_row());
  active_->Update(*term, &in, now);
  if (active_->finished()) FinishAsk(term, child, now);
}

bool AskQueue::ClearLeftovers(const Terminal& term, TimePoint last_output, bool dialog_busy,
                              ChildInput* child, TimePoint now) {
  TimePoint quiet = last_output + Ms(kQuietMs);
  const std::vector<std::string>& clear = engine_.clear_input_keys;
  if (clear_after_dialog_) {
    if (dialog_busy || matcher_.MatchDialog(term, mode_) >= 0 || now < quiet) {
      WakeAt(quiet, now);
      return true;
    }
    clear_after_dialog_ = false;
    if (!matcher_.Ready(term) && !matcher_.Busy(term) && !clear.empty()) {
      WriteKeys(clear, term, child);
      return true;
    }
  }
  // Cleared once the program reacted to the interrupt, or showed no
  // reaction to any nudge (Cline leaves a prompt whose Enter it lost in its
  // box through every Escape).
  if (!InResync() || (term.generation() == resync_generation_ && !NudgesSpent(term, now))) return false;
  if (now < quiet) {
    WakeAt(quiet, now);  // the reaction settles then
    return false;
  }
  if (!resync_cleared_ && !clear.empty() && !matcher_.Ready(term) && !matcher_.Busy(term)) {
    // The program settled, but its prompt is not empty: the interrupted
    // text came back into the input box, or never left it.
    WriteKeys(clear, term, child);
    resync_cleared_ = true;
    return true;
  }
  return false;
}

// A REPL left at a question or continuation prompt (needs_input) is
// interrupted before the next ask, as after a timeout. One left at its
// prompt that has printed since (a thread, a timer, a background job) has
// pushed the prompt off the cursor line: an empty line brings it back.
// Returns true when it sent keys, or waits for an answer sent since to
// take effect.
bool AskQueue::BackToPrompt(const Terminal& term, TimePoint last_output, bool dialog_busy,
                            ChildInput* child, TimePoint now) {
  if (engine_.submit.mode != SubmitMode::kLines || dialog_busy) return false;
  if (resync_ == Resync::kInterruptFirst) {
    if (matcher_.PromptVisible(term)) {
      resync_ = Resync::kUnknown;
      return false;
    }
    TimePoint answered = std::max(input_at_ + Ms(kAnswerEffectMs), last_output + Ms(kQuietMs));
    if (input_at_ >= question_at_ && now < answered) {
      WakeAt(answered, now);
      return true;
    }
    Interrupt(term, child, now);
    return true;
  }
  if (resync_ != Resync::kAtPrompt || matcher_.Ready(term) || matcher_.ContinuationVisible(term)) return false;
  TimePoint quiet = last_output + Ms(kBackgroundQuietMs);
  if (now < quiet) {
    WakeAt(quiet, now);
    return false;
  }
  if (nudged_generation_ == term.generation()) return false;  // once per screen
  nudged_generation_ = term.generation();
  WriteKeys(engine_.submit.enter, term, child);
  return true;
}

// After an interrupt: true while the next ask must wait. A program that
// shows no reaction in time, or reacted but settled with no prompt, gets a
// nudge. At the main prompt, a REPL may hold the interrupt until its next
// input (CPython does when the signal lands just before it blocks): an empty
// line flushes it harmlessly. Elsewhere an Enter could run a half-typed
// block, so the interrupt is sent again first; a line-mode REPL that still
// shows no prompt gets the Enter last (bash at its continuation prompt was
// seen holding the interrupt until then).
bool AskQueue::AwaitReaction(const Terminal& term, TimePoint last_output, ChildInput* child, TimePoint now) {
  bool reacted = term.generation() != resync_generation_;
  bool ready = matcher_.Ready(term);
  if (reacted && ready) return false;  // back at a prompt: ReadySettled takes over
  TimePoint wait = reacted ? std::max(react_until_, last_output + Ms(kReactMs)) : react_until_;
  if (now < wait) {
    WakeAt(wait, now);
    return true;
  }
  if (NudgesSpent(term, now)) return false;  // nothing more to try
  bool at_main_prompt = ready && !matcher_.ContinuationVisible(term);
  bool enter = at_main_prompt || resync_ == Resync::kNudged;
  if (enter) WriteKeys(engine_.submit.enter, term, child);
  else SendInterruptKeys(term, child, now);
  resync_ = resync_ == Resync::kAwaitReaction ? Resync::kNudged : Resync::kNudgedTwice;
  resync_generation_ = term.generation();
  react_until_ = now + Ms(kReactMs);
  WakeAt(react_until_, now);
  return true;
}

// One nudge at the main prompt or in an agent's TUI; a line-mode REPL
// elsewhere gets two (the interrupt again, then an Enter).
bool AskQueue::NudgesSpent(const Terminal& term, TimePoint now) const {
  if (!InResync() || now < react_until_) return false;
  bool at_main_prompt = matcher_.Ready(term) && !matcher_.ContinuationVisible(term);
  bool lines = engine_.submit.mode == SubmitMode::kLines;
  int nudges = resync_ == Resync::kAwaitReaction ? 0 : resync_ == Resync::kNudged ? 1 : 2;
  return nudges >= (at_main_prompt || !lines ? 1 : 2);
}

// After every nudge (AwaitReaction had nothing more to try), no prompt:
// whether the program is left at a question. Judged once its output is
// quiet, and once per screen (asking the process reads /proc).
bool AskQueue::LeftAtQuestion(const Terminal& term, TimePoint last_output, bool dialog_busy,
                              const ChildInput& child, TimePoint now) {
  if (!InResync() || matcher_.Ready(term) || term.generation() == judged_generation_) return false;
  TimePoint quiet = last_output + Ms(kQuietMs);
  if (now < quiet) {
    WakeAt(quiet, now);
    return false;
  }
  judged_generation_ = term.generation();
  return StillAsking(term, dialog_busy, child, &stuck_question_);
}

bool AskQueue::StillAsking(const Terminal& term, bool dialog_busy, const ChildInput& child,
                           std::string* question) const {
  if (dialog_busy || matcher_.MatchDialog(term, mode_) >= 0) return false;  // a rule answers it
  TerminalReader reader = engine_.needs_input_from_process ? child.ReadsTerminal() : TerminalReader::kUnknown;
  bool certain = false;
  return QuestionShows(engine_, matcher_, term, reader, question, &certain);
}

// Input a person typed is theirs: the daemon neither sends it (Enter) nor
// throws it away (C-u, C-c), and an ask cannot run past it, so every ask
// fails at once while it is there (docs/protocol.md, "unfinished_input").
// Only after input came (kUnknown), once output and input have been quiet a
// moment, and never while the process is seen doing something other than
// waiting for the terminal with nothing unread (an Enter on its way).
bool AskQueue::HoldsUnfinishedInput(const Terminal& term, TimePoint last_output, const ChildInput& child,
                                    TimePoint now, std::string* text) {
  if (engine_.submit.mode != SubmitMode::kLines || resync_ != Resync::kUnknown) return false;
  if (matcher_.Ready(term) || !matcher_.UnfinishedInput(term, text)) return false;
  TimePoint quiet = std::max(last_output, input_at_) + Ms(kQuietMs);
  if (now < quiet) {
    WakeAt(quiet, now);
    return false;
  }
  if (child.ReadsTerminal() == TerminalReader::kNotReading) {
    WakeAt(now + Ms(kUnfinishedProbeMs), now);
    return false;
  }
  return true;
}

// Every ask queued while the question stays fails at once, as the one it
// kept from starting did: another round of interrupts would end the same
// way, seconds later.
void AskQueue::FailQueuedAtQuestion() {
  question_ask_ = queue_.back()->id();  // (StartNext runs with a queued ask)
  FailQueued(ErrorKind::kNeedsInput,
             "the program is still asking a question that its interrupt keys do not end (a pager, an editor, "
             "another REPL): answer or quit it with keys, send or paste, then ask again",
             stuck_question_);
}

void AskQueue::EnterResync(const Terminal& term, TimePoint now) {
  resync_ = Resync::kAwaitReaction;
  resync_cleared_ = false;
  judged_generation_ = ~0ull;
  resync_generation_ = term.generation();
  react_until_ = now + Ms(kReactMs);
}

// ---- the end of an ask ----------------------------------------------------------

// `child`: null once the program has exited.
void AskQueue::FinishAsk(Terminal* term, ChildInput* child, TimePoint now) {
  if (!active_ || !active_->finished()) return;
  if (child) active_->DropUntakenPrompt(child);
  if (active_->streaming()) {
    std::string delta = active_->TakeDelta();
    if (!delta.empty()) out_->Send(ChunkMessage(active_->id(), delta));
  }
  const AskResult& r = active_->result();
  if (r.ok) resync_ = Resync::kAtPrompt;
  else if (r.kind == ErrorKind::kNeedsInput) {
    resync_ = Resync::kInterruptFirst;
    question_at_ = now;
    question_ask_ = active_->id();
  }
  else if (r.kind == ErrorKind::kTimeout || r.kind == ErrorKind::kCancelled) {
    // An interrupt that lands while the program is still taking in the
    // prompt can be lost or held back (CPython's readline does both), so it
    // goes out once the input has had a moment to be read.
    resync_ = Resync::kInterruptDue;
    interrupt_due_ = std::max(now, last_write_ + Ms(kInterruptAfterInputMs));
  } else {
    resync_ = Resync::kUnknown;
  }
  if (transcript_->enabled() && r.ok) {
    held_ = std::move(active_);
    held_until_ = now + Ms(engine_.transcript.wait_ms);
    ReleaseHeldReply(now, false);
  } else {
    ReplyAsk(*active_);
    active_.reset();
  }
  term->UnpinHistory();
  if (!queue_.empty()) queue_.front()->RestartClock(now);
  if (child) SendDueInterrupt(*term, child, now);
}

// A TUI that shows its done state may still paint the reply's end, so the
// ask waits reply_settle_ms for a quiet screen. Once the CLI's record says
// the turn is over, that wait buys nothing: the reply's text then comes
// from the record, since the screen may be mid-paint (pi was seen with its
// input box's rule under the reply).
void AskQueue::EndSettleEarly(const Terminal& term, TimePoint now) {
  if (!transcript_->enabled()) return;
  if (now < settle_poll_) {
    WakeAt(settle_poll_, now);
    return;
  }
  settle_poll_ = now + Ms(kTranscriptPollMs);
  WakeAt(settle_poll_, now);
  Turn turn;
  std::string err;
  if (transcript_->ReadTurn(&turn, &err) != TranscriptReader::Result::kDone) return;
  active_->FinishSettling(term);
  text_from_record_ = true;
}

// A finished agent ask waits for its turn in the transcript, up to
// the engine's transcript.wait_ms, so the reply carries the exact markdown.
void AskQueue::ReleaseHeldReply(TimePoint now, bool final) {
  if (!held_) return;
  Turn turn;
  std::string err;
  TranscriptReader::Result got = transcript_->ReadTurn(&turn, &err);
  if (got == TranscriptReader::Result::kNotYet && !final && now < held_until_) {
    held_poll_ = now + Ms(kTranscriptPollMs);
    return;
  }
  JsonObject extra;
  if (got == TranscriptReader::Result::kDone) {
    // Rows the screen never showed, showed only in part before the TUI said
    // it was done, or may still have been painting (the settle cut short):
    // the words come from the transcript's markdown instead.
    if (text_from_record_ || held_->result().rows_missing || !ShowsAllWordsOf(held_->result().text, turn.markdown)) {
      held_->ReplaceText(MarkdownText(turn.markdown));
    } else {
      held_->ReplaceText(FromAnswerStart(held_->result().text, turn.markdown));
    }
    std::string delta = held_->TakeDelta();  // an ask_stream's tail the screen had not shown
    if (!delta.empty()) out_->Send(ChunkMessage(held_->id(), delta));
    extra.Add("markdown", turn.markdown).AddRaw("turn", TurnJson(turn, transcript_->session_id()).Finish());
  } else {
    // Never a silent wrong answer: the screen's text, why there is no more,
    // and which release wrote what the reader did not understand.
    if (!cli_version_.empty()) err += " (" + engine_.name + " " + cli_version_ + ")";
    extra.AddNull("markdown").Add("transcript_error", err);
  }
  ReplyAsk(*held_, extra);
  held_.reset();
  text_from_record_ = false;
}

void AskQueue::CancelActive(const std::string& why, Terminal* term, ChildInput* child, TimePoint now) {
  if (!has_active()) return;
  active_->Cancel(*term, why);
  FinishAsk(term, child, now);
}

void AskQueue::CancelQueued(const std::string& why, const Terminal& term) {
  for (auto& ask : queue_) {
    ask->Cancel(term, why);
    ReplyAsk(*ask);
  }
  queue_.clear();
}

void AskQueue::FailQueued(ErrorKind kind, const std::string& why, const std::string& question) {
  for (auto& ask : queue_) {
    ask->FailInQueue(kind, why, question);
    ReplyAsk(*ask);
  }
  queue_.clear();
}

void AskQueue::LastLook(const Terminal& term, ChildInput* child, TimePoint now) {
  TrackedInput in(child, &last_write_, now);
  if (active_) active_->Update(term, &in, now);
}

void AskQueue::ChildExited(Terminal* term, const std::string& why, TimePoint now) {
  if (active_ && !active_->finished()) active_->ChildExited(*term, why);
  FinishAsk(term, nullptr, now);
  ReleaseHeldReply(now, true);
  FailQueued(ErrorKind::kExited, why);
  // Nothing is left to interrupt or wait for.
  resync_ = Resync::kUnknown;
  clear_after_dialog_ = false;
  wake_ = TimePoint::max();
}

bool AskQueue::resyncing() const { return resync_ == Resync::kInterruptDue || InResync(); }

bool AskQueue::Settled(const Terminal& term, TimePoint last_output, TimePoint now) const {
  return resync_ != Resync::kInterruptDue && !interrupt_keys_.pending() && term.generation() != resync_generation_ && matcher_.Ready(term) &&
         now >= last_output + Ms(kQuietMs);
}

void AskQueue::ReplyAsk(const Ask& ask, const JsonObject& extra) {
  if (recorder_) recorder_->Marker("ask " + ask.id().json + " end");
  const AskResult& r = ask.result();
  JsonObject fields;
  fields.Add("text", r.text);
  if (r.ok) {
    if (ask.revised()) fields.Add("revised", true);
    out_->Send(ReplyOkMessage(ask.id(), fields.Merge(extra)));
    return;
  }
  if (r.kind == ErrorKind::kNeedsInput) fields.Add("question", r.question);
  if (r.exit_code >= 0) fields.Add("exit_code", static_cast<int64_t>(r.exit_code));
  out_->Send(ReplyErrorMessage(ask.id(), r.kind, r.error, fields));
}

}  // namespace tuidriver
