#include "ask.h"

#include <algorithm>
#include <cstdlib>

#include "json_writer.h"
#include "keys.h"
#include "reply_extractor.h"
#include "screen_matcher.h"
#include "terminal.h"
#include "text.h"
#include "utf8.h"

namespace tuidriver {

Ask::Ask(const Request& request, const EngineConfig& config,
         const ScreenMatcher& matcher, TimePoint now)
    : config_(config),
      matcher_(matcher),
      id_(request.id),
      streaming_(request.type == RequestType::kAskStream),
      prompt_(SanitizePrompt(request.prompt)),
      submission_(config),
      questions_(config, matcher, request.on_input == "wait") {
  long timeout_ms = request.timeout_ms > 0 ? request.timeout_ms : config.timeouts.ask_ms;
  timeout_ms_ = timeout_ms;
  deadline_ = now + Ms(timeout_ms);
}

uint64_t Ask::CursorRow(const Terminal& term) const {
  return term.lines_scrolled() + static_cast<uint64_t>(term.cursor().row);
}

TimePoint Ask::next_wakeup() const {
  TimePoint typing = submission_.next_wakeup();
  if (typing < deadline_) return typing;
  if (phase_ == Phase::kWaiting && questions_.pending()) return std::min(questions_.next_wakeup(), deadline_);
  if (phase_ == Phase::kWaiting && settle_until_ > last_change_ && settle_until_ < deadline_) {
    return settle_until_;
  }
  if (phase_ == Phase::kWaiting && questions_.probing() && questions_.next_wakeup() < deadline_) {
    return questions_.next_wakeup();
  }
  TimePoint resubmit = ResubmitDue();
  return resubmit < deadline_ ? resubmit : deadline_;
}

void Ask::Start(const Terminal& term, ChildInput* child, TimePoint now) {
  deadline_ = now + Ms(timeout_ms_);
  if (config_.exit_osc > 0) exit_report_ = term.osc(config_.exit_osc);
  start_row_ = config_.submit.mode == SubmitMode::kLines ? CursorRow(term)
                                                         : term.lines_scrolled();
  if (config_.submit.mode == SubmitMode::kLines) {
    submission_.SplitLines(prompt_, child);
    QueueLine(term, *submission_.NextLine(false));
  } else {
    stale_reply_ = config_.reply.start.empty() ? std::string() : CurrentReply(term, true);
    QueueWhole(term);
  }
  phase_ = Phase::kSending;
  Flush(term, child, now);
}

bool Ask::ShowsStartReply(const Terminal& term) const {
  return !stale_reply_.empty() && CurrentReply(term, true) == stale_reply_;
}

bool Ask::ShowsStaleReply(const Terminal& term) const {
  return !saw_busy_ && ShowsStartReply(term);
}

bool Ask::TurnNotStarted(const Terminal& term) const {
  if (!started() || finished() || config_.submit.mode == SubmitMode::kLines) return false;
  return !saw_busy_ && stream_.streamed().empty() &&
         (CurrentReply(term, true).empty() || ShowsStaleReply(term));
}

void Ask::Requeue() {
  phase_ = Phase::kQueued;
  submission_.Restart();
  saw_echo_ = saw_busy_ = false;
  questions_.Reset();
  stream_.Reset();
  seen_rows_.clear();
  rows_missing_ = false;
}

void Ask::FollowResize(const Terminal& term) {
  if (!started()) return;
  start_row_ = term.RowAfterResize(start_row_);
  sent_row_ = term.RowAfterResize(sent_row_);
  output_start_ = term.RowAfterResize(output_start_);
  output_end_ = term.RowAfterResize(output_end_);
  // The typed row may be re-wrapped: what it shows now is what it showed.
  bool wrapped;
  if (!sent_row_text_.empty() && !term.LineAt(sent_row_, &sent_row_text_, &wrapped)) sent_row_text_.clear();
}

void Ask::QueueLine(const Terminal& term, const std::string& line) {
  sent_row_ = CursorRow(term);
  sent_prompt_cols_ = term.cursor().col;
  sent_line_ = line;
  bool wrapped;
  if (!term.LineAt(sent_row_, &sent_row_text_, &wrapped)) sent_row_text_.clear();
  saw_echo_ = false;
  output_start_ = sent_row_ + static_cast<uint64_t>(EchoRows(sent_prompt_cols_, line, term.cols()));
  echo_redrawn_ = false;
  if (config_.echo_osc > 0) echo_report_ = term.osc(config_.echo_osc);
  output_ended_ = false;
  submission_.TypeLine(term, line);
}

void Ask::QueueWhole(const Terminal& term) {
  sent_row_ = CursorRow(term);
  submission_.TypeWhole(term, prompt_);
}

void Ask::Flush(const Terminal& term, ChildInput* child, TimePoint now) {
  submission_.Update(term.generation(), child, now);
  if (submission_.typed() && phase_ == Phase::kSending) {
    phase_ = Phase::kWaiting;
    submission_.Submitted(now);
  }
}

// submit.resubmit_ms: a turn whose Enter a paste took never begins: the
// prompt stays in the input box, nothing is busy, the screen is still.
// Returns when to press Enter again, or the deadline when it is not to be
// pressed.
TimePoint Ask::ResubmitDue() const {
  if (phase_ != Phase::kWaiting || saw_busy_ || !stream_.streamed().empty()) return deadline_;
  TimePoint due = submission_.ResubmitDue(last_change_);
  return due == TimePoint::max() ? deadline_ : due;
}

void Ask::ResubmitIfLost(const Terminal& term, ChildInput* child, TimePoint now) {
  TimePoint due = ResubmitDue();
  if (due == deadline_ || now < due) return;
  // The input box is not empty (no prompt pattern), nothing is busy, and no
  // new reply shows. The text itself is not looked for: a long paste shows
  // as a placeholder ("[Pasted Text: 6 lines]").
  bool lost = !matcher_.Busy(term) && !matcher_.PromptVisible(term) &&
              (CurrentReply(term, true).empty() || ShowsStaleReply(term));
  if (!lost) {
    submission_.DeclineResubmit(due);
    return;
  }
  submission_.Resubmit(term, child, now);
}

void Ask::Update(const Terminal& term, ChildInput* child, TimePoint now) {
  if (phase_ == Phase::kQueued || phase_ == Phase::kDone) return;
  settling_ = false;
  if (term.generation() != seen_generation_) {
    seen_generation_ = term.generation();
    last_change_ = now;
  }
  if (phase_ == Phase::kSending) Flush(term, child, now);
  if (phase_ == Phase::kWaiting) {
    FollowEchoMarker(term);
    FollowEndMarker(term);
  }
  std::string question;
  if (phase_ == Phase::kWaiting && questions_.Update(term, *child, seen_generation_, last_change_, now, &question)) {
    result_.text = UnfinishedReply(term);
    Fail(ErrorKind::kNeedsInput, "the program is asking a question no dialog rule answers");
    result_.question = question;
    return;
  }
  if (phase_ == Phase::kWaiting && !questions_.pending() && !config_.reply.start.empty() &&
      !ShowsStartReply(term)) {
    RememberReplyRows(term);
  }
  if (phase_ == Phase::kWaiting && !questions_.pending()) {
    if (config_.submit.mode == SubmitMode::kLines) {
      UpdateLines(term, child, now);
    } else {
      UpdateWhole(term, now);
      if (phase_ == Phase::kWaiting) ResubmitIfLost(term, child, now);
    }
  }
  if (phase_ != Phase::kDone && now >= deadline_) {
    result_.text = UnfinishedReply(term);
    DropUntakenPrompt(child);  // before the interrupt shows the REPL's next prompt
    Interrupt(term, child);
    Fail(ErrorKind::kTimeout, "no reply within " + std::to_string(timeout_ms_) + " ms");
    return;
  }
  // Not while the screen still gives the reply it gave at Start, busy or
  // not, nor any part of it: Codex says it is working before it draws the
  // new echo, Claude may redraw the old turn in between, and the previous
  // turn's reply (same prompt) must not stream as this one's. A new reply
  // that begins like the old one streams once it differs or outgrows it.
  if (streaming_ && phase_ == Phase::kWaiting && !ShowsStartReply(term)) {
    std::string candidate = CurrentReply(term, false);
    bool part_of_old = !stale_reply_.empty() && candidate.size() <= stale_reply_.size() &&
                       stale_reply_.compare(0, candidate.size(), candidate) == 0;
    if (!part_of_old) Stream(candidate, false);
  }
}

bool Ask::TakeInputEvent(std::string* json) { return questions_.TakeInputEvent(id_, json); }

bool Ask::Answer(const Request& r, const Terminal& term, ChildInput* child, TimePoint now,
                 std::string* err) {
  if (phase_ != Phase::kWaiting || !questions_.waiting_for_answer()) {
    *err = "ask " + id_.json + " is not waiting for an answer";
    return false;
  }
  std::vector<std::string> keys;
  if (!questions_.Answer(static_cast<int>(r.option), &keys, err)) return false;
  // A TUI may ignore keys for a moment after it shows a question, so that a
  // key meant for something else does not answer it (Claude drops them for
  // about half a second): the answer goes out no sooner than this.
  constexpr int kAnswerAfterMs = 800;
  submission_.TypeAnswer(term, r.option <= 0 ? r.text : std::string(), keys,
                         std::max(now, questions_.shown_at() + Ms(kAnswerAfterMs)));
  phase_ = Phase::kSending;
  Flush(term, child, now);
  return true;
}

bool Ask::PromptAfterSend(const Terminal& term, bool* continuation) {
  bool prompt = matcher_.PromptVisible(term);
  bool cont = !prompt && matcher_.ContinuationVisible(term);
  if (!prompt && !cont) {
    saw_echo_ = true;
    return false;
  }
  // The prompt that was there when the line was typed is not the next one,
  // unless the screen was cleared since (`clear`), wiping the echo.
  if (!saw_echo_ && CursorRow(term) <= sent_row_ && !EchoWiped(term)) return false;
  // The helper marks every submission's echo (echo_osc): before its mark, a
  // prompt on the typed line is its redraw of the echo, read half drawn.
  // With nothing typed (submit.pipe_only), any prompt before the mark is
  // the REPL's before the helper ran the ask (after a person's line).
  if (config_.echo_osc > 0 && !echo_redrawn_ &&
      (CursorRow(term) <= sent_row_ || submission_.runs_from_pipe())) {
    return false;
  }
  // The helper marks the end of every submission's output (end_osc): a
  // prompt before its mark is not the submission's end (one drawn again
  // below late output before the submission began).
  if (!cont && config_.end_osc > 0 && !output_ended_) return false;
  if (matcher_.Busy(term)) return false;
  *continuation = cont;
  return true;
}

void Ask::UpdateLines(const Terminal& term, ChildInput* child, TimePoint now) {
  bool continuation = false;
  if (!PromptAfterSend(term, &continuation)) return;
  CloseLineSegment(term);
  if (const std::string* line = submission_.NextLine(continuation)) {
    QueueLine(term, *line);
    phase_ = Phase::kSending;
    Flush(term, child, now);
    return;
  }
  if (continuation) {
    result_.text = finished_output_;
    Fail(ErrorKind::kNeedsInput, "the program waits for more input (continuation prompt)");
    result_.question = CursorLineText(term);
    return;
  }
  Finish(term);
}

// The current line's output: rows from after its echo up to the prompt
// the cursor now sits on.
// True once the row the line was typed on shows neither what it showed then
// (the prompt: the echo may not be drawn yet) nor the line: the program
// cleared the screen.
void Ask::FollowEchoMarker(const Terminal& term) {
  if (config_.echo_osc <= 0 || term.osc(config_.echo_osc) == echo_report_) return;
  echo_report_ = term.osc(config_.echo_osc);
  echo_redrawn_ = true;
  output_start_ = term.osc_row(config_.echo_osc);
}

// The end mark of the submission whose echo mark was followed (the same
// payload). Where it is, not where the prompt is now, ends the output:
// the terminal noted its place as it came, so late output the helper
// printed after it (above a fresh prompt) stays out, however late this runs.
void Ask::FollowEndMarker(const Terminal& term) {
  if (config_.end_osc <= 0 || output_ended_ || !echo_redrawn_ || term.osc(config_.end_osc) != echo_report_) return;
  output_ended_ = true;
  output_end_ = term.osc_row(config_.end_osc);
  if (!term.LineBefore(output_end_, term.osc_col(config_.end_osc), &output_tail_)) output_tail_.clear();
}

bool Ask::EchoWiped(const Terminal& term) const {
  if (echo_redrawn_) return false;  // the helper redrew it, as the user's code
  // The line's start as the screen shows it: up to a TAB (drawn as spaces).
  std::string start = sent_line_.substr(0, std::min<size_t>(8, sent_line_.find('\t')));
  if (term.generation() == submission_.written_generation() || start.empty()) return false;
  std::string row;
  bool wrapped;
  if (!term.LineAt(sent_row_, &row, &wrapped)) return false;  // long gone into history
  return row != sent_row_text_ && row.find(start) == std::string::npos;
}

void Ask::CloseLineSegment(const Terminal& term) {
  uint64_t end = output_ended_ ? output_end_ : CursorRow(term);
  uint64_t first = output_start_;
  if (end <= sent_row_ || EchoWiped(term)) first = term.lines_scrolled();  // screen was cleared
  std::vector<Row> rows = RowsBetween(term, first, end);
  // Output without a final newline ends on the prompt's own row.
  std::string before = output_ended_ ? output_tail_ : end > sent_row_ ? matcher_.TextBeforePrompt(term) : "";
  if (!before.empty()) rows.push_back({before, false});
  AppendSegment(rows, &finished_output_, &has_output_);
}

void Ask::AppendSegment(const std::vector<Row>& rows, std::string* text, bool* has) const {
  if (rows.empty()) return;
  if (*has) *text += '\n';
  *text += JoinRows(rows);
  *has = true;
}

// A failed ask's text: what it printed so far, with the unfinished last
// line (a question, a partial line) for line-by-line engines.
std::string Ask::UnfinishedReply(const Terminal& term) const {
  std::string text = CurrentReply(term, false);
  if (config_.submit.mode != SubmitMode::kLines || phase_ != Phase::kWaiting) return text;
  if (CursorRow(term) < output_start_) return text;
  std::string tail = CursorLineText(term);
  size_t end = tail.find_last_not_of(' ');
  if (end == std::string::npos) return text;
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text + tail;
}

// Everything from the ask's first row down to the input prompt, which is
// where the cursor waits once the program is done.
std::vector<Row> Ask::AskRows(const Terminal& term) const {
  uint64_t end = CursorRow(term);
  if (end <= start_row_) end = term.lines_scrolled() + static_cast<uint64_t>(term.rows());
  return RowsBetween(term, start_row_, end);
}

void Ask::RememberReplyRows(const Terminal& term) {
  bool headless = false;
  std::vector<std::string> window = MarkedReplyRows(AskRows(term), prompt_, matcher_, config_.reply, true, &headless);
  if (headless) rows_missing_ |= !seen_rows_.empty() && !MergeReplyRows(&seen_rows_, window);
  else if (!window.empty()) seen_rows_ = std::move(window);
}

std::string Ask::CurrentReply(const Terminal& term, bool final) const {
  if (config_.submit.mode != SubmitMode::kLines) {
    std::vector<Row> rows = AskRows(term);
    // A marked reply leaves out only the row being drawn, so a paragraph
    // streams row by row. When only its tail shows, the rows seen before
    // come first.
    if (!config_.reply.start.empty()) {
      bool headless = false;
      std::vector<std::string> body = MarkedReplyRows(rows, prompt_, matcher_, config_.reply, !final, &headless);
      if (headless) {
        std::vector<std::string> seen = seen_rows_;
        MergeReplyRows(&seen, body);
        body.swap(seen);
      }
      return JoinReplyRows(std::move(body), config_.reply, term.cols());
    }
    std::string text = ExtractMarkedOrPlain(term, rows);
    if (final) return text;
    // While the program is still writing, its last line may change.
    size_t nl = text.rfind('\n');
    return nl == std::string::npos ? std::string() : text.substr(0, nl + 1);
  }
  std::string text = finished_output_;
  if (final || phase_ != Phase::kWaiting) return text;
  // Completed rows of the line being answered; the cursor's row may still grow.
  uint64_t end = output_ended_ ? output_end_ : CursorRow(term);
  if (end <= output_start_) return text;
  std::vector<Row> rows = RowsBetween(term, output_start_, end);
  while (!rows.empty() && rows.back().wrapped) rows.pop_back();
  bool has = has_output_;
  AppendSegment(rows, &text, &has);
  if (!rows.empty()) text += '\n';  // those rows are complete lines
  return text;
}

std::string Ask::ExtractMarkedOrPlain(const Terminal& term, const std::vector<Row>& rows) const {
  if (!config_.reply.start.empty()) {
    return ExtractMarkedReply(rows, prompt_, matcher_, config_.reply, term.cols());
  }
  // No reply marker: everything after the echo of the prompt, up to the
  // prompt row.
  uint64_t first = sent_row_ + static_cast<uint64_t>(EchoRows(sent_prompt_cols_, prompt_, term.cols()));
  uint64_t end = CursorRow(term);
  std::vector<Row> out;
  for (size_t i = 0; i < rows.size(); ++i) {
    uint64_t abs = start_row_ + i;
    if (abs >= first && abs < end && !matcher_.IsChrome(rows[i].text)) out.push_back(rows[i]);
  }
  return JoinRows(out);
}

void Ask::UpdateWhole(const Terminal& term, TimePoint now) {
  bool busy = matcher_.Busy(term);
  bool prompt = matcher_.PromptVisible(term);
  saw_busy_ |= busy;
  if (!prompt) saw_echo_ = true;
  if (busy || !prompt) return;
  // The turn has begun once the program showed it was busy, or shows a
  // reply marker after the echo (a turn too quick to see busy). Engines
  // without a marker: once it hid its prompt or moved the cursor.
  bool started;
  if (!config_.reply.start.empty()) {
    started = saw_busy_ || (!CurrentReply(term, true).empty() && !ShowsStaleReply(term));
  } else {
    started = saw_busy_ || saw_echo_ || CursorRow(term) != sent_row_;
  }
  if (!started) return;
  // Some TUIs paint the end of a reply just after their done state. One
  // that reports its state by OSC and draws in frames (Codex) has painted
  // it once a frame begun after that OSC is complete (frames are judged
  // only once complete); else wait for a quiet screen.
  int settle = config_.timeouts.reply_settle_ms;
  bool drawn_after_osc = config_.busy_osc > 0 &&
                         term.synchronized_updates() > term.osc_frame(config_.busy_osc);
  if (settle > 0 && !drawn_after_osc && now < last_change_ + std::chrono::milliseconds(settle)) {
    settle_until_ = last_change_ + std::chrono::milliseconds(settle);
    settling_ = true;
    return;
  }
  Finish(term);
}

void Ask::Finish(const Terminal& term, bool stream_screen) {
  result_.ok = true;
  if (!config_.reply.start.empty() && config_.submit.mode != SubmitMode::kLines) RememberReplyRows(term);
  result_.rows_missing = rows_missing_;
  result_.text = CurrentReply(term, true);
  std::string report = config_.exit_osc > 0 ? term.osc(config_.exit_osc) : exit_report_;
  size_t semi = report.find(';');
  if (report != exit_report_ && semi != std::string::npos) {
    // The submission called exit; the interpreter is back at its prompt.
    result_.exit_code = atoi(report.c_str() + semi + 1);
    Fail(ErrorKind::kExited, "the code exited with code " + std::to_string(result_.exit_code) +
                       "; the session goes on");
    return;
  }
  if (streaming_ && stream_screen) Stream(result_.text, true);
  phase_ = Phase::kDone;
}

void Ask::Stream(const std::string& candidate, bool final) { stream_.Offer(candidate, final); }

std::string Ask::TakeDelta() { return stream_.TakeDelta(); }

bool Ask::revised() const {
  return streaming_ && result_.ok && stream_.Revised(result_.text);
}

void Ask::Interrupt(const Terminal& term, ChildInput* child) {
  if (phase_ == Phase::kQueued || phase_ == Phase::kDone) return;
  child->Write(KeysToBytes(config_.interrupt_keys, TerminalKeyModes(term)));
}

void Ask::DropUntakenPrompt(ChildInput* child) { submission_.DropUntaken(child, echo_redrawn_); }

void Ask::Cancel(const Terminal& term, ChildInput* child, const std::string& why) {
  if (phase_ == Phase::kDone) return;
  result_.text = phase_ == Phase::kQueued ? std::string() : CurrentReply(term, false);
  Interrupt(term, child);
  Fail(ErrorKind::kCancelled, why);
}

void Ask::ChildExited(const Terminal& term, const std::string& why) {
  if (phase_ == Phase::kDone) return;
  result_.text = phase_ == Phase::kQueued ? std::string() : CurrentReply(term, false);
  Fail(ErrorKind::kExited, why);
}

void Ask::Fail(ErrorKind kind, const std::string& error) {
  result_.ok = false;
  result_.kind = kind;
  result_.error = error;
  submission_.Clear();
  phase_ = Phase::kDone;
}

}  // namespace tuidriver
