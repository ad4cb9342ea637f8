#include "dialog_responder.h"

#include "keys.h"

#include <algorithm>

namespace tuidriver {
DialogResponder::DialogResponder(const EngineConfig& engine, const ScreenMatcher& matcher,
                                 const std::string& mode)
    : engine_(engine), matcher_(matcher), mode_(mode), answered_(engine.dialogs.size(), 0) {}

int DialogResponder::Update(const Terminal& term, TimePoint last_output, bool answer, ChildInput* child,
                            TimePoint now) {
  SendDueKeys(term, child, now);
  bool changed = term.generation() != seen_generation_;
  seen_generation_ = term.generation();
  if (!answer) {
    look_at_ = TimePoint::max();  // no more looks (raw, or closing)
    return -1;
  }
  if (!keys_.empty() || (!changed && now < look_at_)) return -1;
  look_at_ = TimePoint::max();
  return Look(term, last_output, child, now);
}

int DialogResponder::Look(const Terminal& term, TimePoint last_output, ChildInput* child, TimePoint now) {
  int rule = matcher_.MatchDialog(term, mode_);
  if (rule < 0) {
    armed_ = -1;
    return -1;
  }
  TimePoint settled = last_output + Ms(kSettleMs);
  if (now < settled) {
    look_at_ = settled;
    return -1;
  }
  // Answered already: answer again only if it is still there a while later
  // (the keys came before the program read them), waiting longer each time.
  if (rule == armed_ && (now < retry_at_ || tries_ >= kMaxTries)) {
    if (tries_ < kMaxTries) look_at_ = retry_at_;
    return -1;
  }
  tries_ = rule == armed_ ? tries_ + 1 : 1;
  armed_ = rule;
  ++answered_[static_cast<size_t>(rule)];
  retry_at_ = now + Ms(std::min(kMaxRetryMs, kRetryMs << std::min(tries_ - 1, 4)));
  look_at_ = retry_at_;
  TimePoint due = now;
  for (const std::string& key : engine_.dialogs[static_cast<size_t>(rule)].keys) {
    keys_.push_back({key, due});
    due += Ms(kKeyGapMs);
  }
  SendDueKeys(term, child, now);
  return rule;
}

void DialogResponder::SendDueKeys(const Terminal& term, ChildInput* child, TimePoint now) {
  while (!keys_.empty() && now >= keys_.front().due) {
    WriteKeys({keys_.front().key}, term, child);
    keys_.pop_front();
  }
}

TimePoint DialogResponder::next_wakeup() const {
  TimePoint t = look_at_;
  if (!keys_.empty()) t = std::min(t, keys_.front().due);
  return t;
}

std::string DialogResponder::Answered() const {
  std::string out;
  for (size_t i = 0; i < answered_.size(); ++i) {
    if (answered_[i] == 0) continue;
    if (!out.empty()) out += ", ";
    out += engine_.dialogs[i].name + " " + (answered_[i] == 1 ? "once" : std::to_string(answered_[i]) + " times");
    if (static_cast<int>(i) != armed_) continue;
    out += tries_ >= kMaxTries ? ", the most it is answered, and still there" : ", and still there";
  }
  return out;
}

}  // namespace tuidriver
