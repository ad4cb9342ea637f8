#include "echo_tracker.h"

#include <algorithm>

namespace tuidriver {

uint64_t CursorRow(const Terminal& term) {
  return term.lines_scrolled() + static_cast<uint64_t>(term.cursor().row);
}

void EchoTracker::LineTyped(const Terminal& term, const std::string& line) {
  row_ = CursorRow(term);
  prompt_cols_ = term.cursor().col;
  line_ = line;
  bool wrapped;
  if (!term.LineAt(row_, &row_text_, &wrapped)) row_text_.clear();
  seen_ = false;
  redrawn_ = false;
  if (echo_osc_ > 0) report_ = term.osc(echo_osc_);
}

void EchoTracker::PromptTyped(const Terminal& term) { row_ = CursorRow(term); }

bool EchoTracker::FollowMarker(const Terminal& term) {
  if (echo_osc_ <= 0 || term.osc(echo_osc_) == report_) return false;
  report_ = term.osc(echo_osc_);
  redrawn_ = true;
  return true;
}

bool EchoTracker::Wiped(const Terminal& term, uint64_t written_generation) const {
  if (redrawn_) return false;  // the helper redrew it, as the user's code
  // The line's start as the screen shows it: up to a TAB (drawn as spaces).
  std::string start = line_.substr(0, std::min<size_t>(8, line_.find('\t')));
  if (term.generation() == written_generation || start.empty()) return false;
  std::string row;
  bool wrapped;
  if (!term.LineAt(row_, &row, &wrapped)) return false;  // long gone into history
  return row != row_text_ && row.find(start) == std::string::npos;
}

bool EchoTracker::PromptIsNext(const Terminal& term, uint64_t written_generation, bool from_pipe) const {
  uint64_t cursor = CursorRow(term);
  if (!seen_ && cursor <= row_ && !Wiped(term, written_generation)) return false;
  return echo_osc_ <= 0 || redrawn_ || (cursor > row_ && !from_pipe);
}

void EchoTracker::FollowResize(const Terminal& term) {
  row_ = term.RowAfterResize(row_);
  // The typed row may be re-wrapped: what it shows now is what it showed.
  bool wrapped;
  if (!row_text_.empty() && !term.LineAt(row_, &row_text_, &wrapped)) row_text_.clear();
}

}  // namespace tuidriver
