#include "closer.h"

#include "keys.h"

#include <signal.h>

#include <algorithm>

namespace tuidriver {
void Closer::Begin(bool settle_first, bool urgent, const Terminal& term, ChildInput* child, TimePoint now) {
  if (phase_ != Phase::kNone) return;
  urgent_ = urgent;
  if (engine_.quit_keys.empty() || urgent_) {
    phase_ = Phase::kQuitKeys;
    deadline_ = now;
  } else if (settle_first) {
    phase_ = Phase::kSettle;
    deadline_ = now + Ms(kSettleMs);
  } else {
    SendQuitKeys(term, child, now);
  }
}

void Closer::Hurry(TimePoint now) {
  urgent_ = true;
  if (phase_ == Phase::kSettle) {
    phase_ = Phase::kQuitKeys;  // no keys: straight to SIGTERM
    deadline_ = now;
  } else if (phase_ == Phase::kQuitKeys || phase_ == Phase::kTerm) {
    deadline_ = std::min(deadline_, now + Ms(kUrgentGraceMs));
  }
}

void Closer::SendQuitKeys(const Terminal& term, ChildInput* child, TimePoint now) {
  WriteKeys(engine_.quit_keys, term, child);
  phase_ = Phase::kQuitKeys;
  deadline_ = now + Ms(engine_.timeouts.quit_grace_ms);
}

void Closer::Update(bool settled, TimePoint quiet_at, const Terminal& term, ChildInput* child,
                    ChildSignals* signals, TimePoint now) {
  if (phase_ == Phase::kSettle) {
    settle_wake_ = TimePoint::max();
    if (settled || now >= deadline_) {
      SendQuitKeys(term, child, now);
    } else if (quiet_at > now) {
      settle_wake_ = quiet_at;  // it may be settled then without new output
    }
    return;
  }
  if (phase_ == Phase::kNone || phase_ == Phase::kGaveUp || now < deadline_) return;
  if (phase_ == Phase::kQuitKeys) {
    signals->SignalForeground(SIGTERM);
    signals->SignalGroup(SIGTERM);
    signals->SignalGroup(SIGHUP);
    phase_ = Phase::kTerm;
    int grace = engine_.timeouts.term_grace_ms;
    deadline_ = now + Ms(urgent_ ? std::min(grace, kUrgentGraceMs) : grace);
  } else if (phase_ == Phase::kTerm) {
    signals->SignalForeground(SIGKILL);
    signals->SignalGroup(SIGKILL);
    phase_ = Phase::kKill;
    deadline_ = now + Ms(kKillWaitMs);
  } else {
    phase_ = Phase::kGaveUp;
  }
}

TimePoint Closer::next_wakeup() const {
  switch (phase_) {
    case Phase::kNone:
    case Phase::kGaveUp:
      return TimePoint::max();
    case Phase::kSettle:
      return std::min(deadline_, settle_wake_);
    default:
      return deadline_;
  }
}

}  // namespace tuidriver
