#include "turn_watch.h"

namespace tuidriver {

void TurnWatch::Follow(uint64_t generation, TimePoint now) {
  if (generation == generation_) return;
  generation_ = generation;
  last_change_ = now;
}

bool TurnWatch::ShowsStaleReply(const Terminal& term) const {
  return !saw_busy_ && reply_.ShowsStartReply(term, echo_);
}

bool TurnWatch::NewReplyShows(const Terminal& term) const {
  return !reply_.Text(term, echo_, true, true).empty() && !ShowsStaleReply(term);
}

bool TurnWatch::EnterLost(const Terminal& term) const {
  return !matcher_.Busy(term) && !matcher_.PromptVisible(term) && !NewReplyShows(term);
}

// A turn whose Enter a paste took never begins: the prompt stays in the
// input box, nothing is busy, the screen is still.
void TurnWatch::ResubmitIfLost(const Terminal& term, ChildInput* child, bool streamed, TimePoint now) {
  TimePoint due = ResubmitDue(streamed);
  if (due == TimePoint::max() || now < due) return;
  if (EnterLost(term)) {
    submission_.Resubmit(term, child, now);
  } else {
    submission_.DeclineResubmit(due);
  }
}

bool TurnWatch::Begun(const Terminal& term) const {
  if (saw_busy_) return true;
  if (!config_.reply.start.empty()) return NewReplyShows(term);
  return echo_.seen() || CursorRow(term) != echo_.row();
}

TurnWatch::Verdict TurnWatch::Judge(const Terminal& term, TimePoint now) {
  bool busy = matcher_.Busy(term);
  bool prompt = matcher_.PromptVisible(term);
  saw_busy_ |= busy;
  if (!prompt) echo_.NoPromptSeen();
  if (busy || !prompt || !Begun(term)) return Verdict::kGoing;
  // Some TUIs paint the end of a reply just after their done state. One
  // that reports its state by OSC and draws in frames (Codex) has painted
  // it once a frame begun after that OSC is complete (frames are judged
  // only once complete); else wait for a quiet screen.
  int settle = config_.timeouts.reply_settle_ms;
  bool drawn_after_osc = config_.busy_osc > 0 &&
                         term.synchronized_updates() > term.osc_frame(config_.busy_osc);
  if (settle > 0 && !drawn_after_osc && now < last_change_ + Ms(settle)) {
    settle_until_ = last_change_ + Ms(settle);
    return Verdict::kSettling;
  }
  return Verdict::kDone;
}

}  // namespace tuidriver
