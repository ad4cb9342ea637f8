#include "ask.h"

#include <algorithm>
#include <utility>

#include "screen_matcher.h"
#include "terminal.h"
#include "utf8.h"

namespace tuidriver {

Ask::Ask(const Request& request, const EngineConfig& config,
         const ScreenMatcher& matcher, TimePoint now)
    : config_(config),
      id_(request.id),
      streaming_(request.type == RequestType::kAskStream),
      prompt_(SanitizePrompt(request.prompt)),
      submission_(config),
      echo_(config.echo_osc),
      reply_(config, matcher, prompt_),
      turn_(config, matcher, &echo_, reply_, &submission_),
      lines_(config, matcher, &submission_, &echo_, &reply_),
      questions_(config, matcher, request.on_input == "wait") {
  timeout_ms_ = request.timeout_ms > 0 ? request.timeout_ms : config.timeouts.ask_ms;
  deadline_ = now + Ms(timeout_ms_);
}

TimePoint Ask::next_wakeup() const {
  TimePoint typing = submission_.next_wakeup();
  if (typing < deadline_) return typing;
  if (phase_ == Phase::kWaiting && questions_.pending()) return std::min(questions_.next_wakeup(), deadline_);
  if (phase_ == Phase::kWaiting && turn_.settle_due() < deadline_) return turn_.settle_due();
  if (phase_ == Phase::kWaiting && questions_.probing() && questions_.next_wakeup() < deadline_) {
    return questions_.next_wakeup();
  }
  TimePoint resubmit = phase_ == Phase::kWaiting ? turn_.ResubmitDue(!stream_.streamed().empty()) : deadline_;
  return std::min(resubmit, deadline_);
}

void Ask::Start(const Terminal& term, ChildInput* child, TimePoint now) {
  deadline_ = now + Ms(timeout_ms_);
  reply_.Start(term, echo_);
  if (config_.submit.mode == SubmitMode::kLines) {
    lines_.Start(term, prompt_, child);
  } else {
    turn_.Type(term, prompt_);
  }
  phase_ = Phase::kSending;
  Flush(term, child, now);
}

bool Ask::TurnNotStarted(const Terminal& term) const {
  if (!started() || finished() || config_.submit.mode == SubmitMode::kLines) return false;
  return stream_.streamed().empty() && turn_.NotStarted(term);
}

void Ask::Requeue() {
  phase_ = Phase::kQueued;
  submission_.Restart();
  turn_.Reset();
  echo_.Forget();
  questions_.Reset();
  stream_.Reset();
  reply_.Reset();
}

void Ask::FollowResize(const Terminal& term) {
  if (!started()) return;
  reply_.FollowResize(term);
  echo_.FollowResize(term);
}

void Ask::Flush(const Terminal& term, ChildInput* child, TimePoint now) {
  submission_.Update(term.generation(), child, now);
  if (submission_.typed() && phase_ == Phase::kSending) {
    phase_ = Phase::kWaiting;
    submission_.Submitted(now);
  }
}

void Ask::Update(const Terminal& term, ChildInput* child, TimePoint now) {
  if (phase_ == Phase::kQueued || phase_ == Phase::kDone) return;
  settling_ = false;
  turn_.Follow(term.generation(), now);
  if (phase_ == Phase::kSending) Flush(term, child, now);
  if (phase_ == Phase::kWaiting) {
    if (echo_.FollowMarker(term)) reply_.OutputFrom(term.osc_row(config_.echo_osc));
    reply_.FollowEndMarker(term, echo_);
  }
  std::string question;
  if (phase_ == Phase::kWaiting && questions_.Update(term, *child, turn_.generation(), turn_.last_change(), now, &question)) {
    Fail(ErrorKind::kNeedsInput, "the program is asking a question no dialog rule answers", UnfinishedReply(term),
         question);
    return;
  }
  if (phase_ == Phase::kWaiting && !questions_.pending() && !config_.reply.start.empty() &&
      !reply_.ShowsStartReply(term, echo_)) {
    reply_.RememberRows(term);
  }
  if (phase_ == Phase::kWaiting && !questions_.pending()) {
    if (config_.submit.mode == SubmitMode::kLines) {
      UpdateLines(term, child, now);
    } else {
      UpdateWhole(term, now);
      if (phase_ == Phase::kWaiting) turn_.ResubmitIfLost(term, child, !stream_.streamed().empty(), now);
    }
  }
  if (phase_ != Phase::kDone && now >= deadline_) {
    std::string so_far = UnfinishedReply(term);
    DropUntakenPrompt(child);  // before the queue's interrupt shows the REPL's next prompt
    Fail(ErrorKind::kTimeout, "no reply within " + std::to_string(timeout_ms_) + " ms", so_far);
    return;
  }
  std::string so_far;
  if (streaming_ && phase_ == Phase::kWaiting && reply_.NewSoFar(term, echo_, &so_far)) stream_.Offer(so_far, false);
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
  submission_.TypeAnswer(term, r.option <= 0 ? r.text : std::string(), keys, std::max(now, questions_.answer_due()));
  phase_ = Phase::kSending;
  Flush(term, child, now);
  return true;
}

void Ask::UpdateLines(const Terminal& term, ChildInput* child, TimePoint now) {
  LineTurn::Verdict verdict = lines_.Judge(term);
  if (verdict == LineTurn::Verdict::kNextLine) {
    phase_ = Phase::kSending;
    Flush(term, child, now);
  } else if (verdict == LineTurn::Verdict::kMoreInput) {
    Fail(ErrorKind::kNeedsInput, "the program waits for more input (continuation prompt)",
         reply_.finished_output(), CursorLineText(term));
  } else if (verdict == LineTurn::Verdict::kDone) {
    Finish(term);
  }
}

std::string Ask::CurrentReply(const Terminal& term, bool final) const {
  return reply_.Text(term, echo_, final, phase_ == Phase::kWaiting);
}

std::string Ask::UnfinishedReply(const Terminal& term) const {
  return reply_.Unfinished(term, echo_, phase_ == Phase::kWaiting);
}

void Ask::UpdateWhole(const Terminal& term, TimePoint now) {
  TurnWatch::Verdict verdict = turn_.Judge(term, now);
  settling_ = verdict == TurnWatch::Verdict::kSettling;
  if (verdict == TurnWatch::Verdict::kDone) Finish(term);
}

void Ask::Finish(const Terminal& term, bool stream_screen) {
  result_.ok = true;
  if (!config_.reply.start.empty() && config_.submit.mode != SubmitMode::kLines) reply_.RememberRows(term);
  result_.rows_missing = reply_.rows_missing();
  result_.text = CurrentReply(term, true);
  if (reply_.Exited(term, &result_.exit_code)) {  // the interpreter is back at its prompt
    Fail(ErrorKind::kExited, "the code exited with code " + std::to_string(result_.exit_code) +
         "; the session goes on", result_.text);
    return;
  }
  if (streaming_ && stream_screen) stream_.Offer(result_.text, true);
  phase_ = Phase::kDone;
}

std::string Ask::TakeDelta() { return stream_.TakeDelta(); }

bool Ask::revised() const {
  return streaming_ && result_.ok && stream_.Revised(result_.text);
}

void Ask::DropUntakenPrompt(ChildInput* child) { submission_.DropUntaken(child, echo_.redrawn()); }

void Ask::Cancel(const Terminal& term, const std::string& why) {
  if (phase_ == Phase::kDone) return;
  std::string so_far = phase_ == Phase::kQueued ? std::string() : CurrentReply(term, false);
  Fail(ErrorKind::kCancelled, why, so_far);
}

void Ask::ChildExited(const Terminal& term, const std::string& why) {
  if (phase_ == Phase::kDone) return;
  Fail(ErrorKind::kExited, why, phase_ == Phase::kQueued ? std::string() : CurrentReply(term, false));
}

void Ask::Fail(ErrorKind kind, const std::string& error, std::string text, std::string question) {
  result_.ok = false;
  result_.kind = kind;
  result_.error = error;
  result_.text = std::move(text);
  result_.question = std::move(question);
  submission_.Clear();
  phase_ = Phase::kDone;
}

}  // namespace tuidriver
