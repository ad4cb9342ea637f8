// Where an ask's current line was typed and whether its echo has shown, so
// that the prompt the line was typed at is not taken for the next one. With
// an engine's echo_osc the helper marks each submission's echo (it redraws
// the echo as the user's code): the tracker follows the mark, and until it
// comes a prompt on the typed row is that redraw, read half drawn.
//
// Pure logic over a Terminal, with no time of its own: the Ask and its turn
// parts (LineTurn, TurnWatch) tell it when a line is typed and what the
// screen shows.
#ifndef TUIDRIVER_ECHO_TRACKER_H_
#define TUIDRIVER_ECHO_TRACKER_H_

#include <cstdint>
#include <string>

#include "terminal.h"

namespace tuidriver {

// The cursor's row, numbered from the top of the history as the rows an ask
// keeps are (RowsBetween).
uint64_t CursorRow(const Terminal& term);

class EchoTracker {
 public:
  explicit EchoTracker(int echo_osc) : echo_osc_(echo_osc) {}

  // A line is typed at the cursor (submit.mode `lines`).
  void LineTyped(const Terminal& term, const std::string& line);
  // The whole prompt is typed at the cursor: only its row counts.
  void PromptTyped(const Terminal& term);
  // The screen shows no prompt: the echo (or output) has shown.
  void NoPromptSeen() { seen_ = true; }
  // The ask is typed again.
  void Forget() { seen_ = false; }

  // Follows the helper's echo mark: true when a new one came, at
  // term.osc_row(echo_osc), since the line was typed.
  bool FollowMarker(const Terminal& term);
  // True once the typed row shows neither what it showed then (the prompt:
  // the echo may not be drawn yet) nor the line: the program cleared the
  // screen. `written_generation`: the screen's at the last write (no
  // change since: no echo yet).
  bool Wiped(const Terminal& term, uint64_t written_generation) const;
  // Whether a prompt on screen now can be the one after the typed line: not
  // the one it was typed at (unless the screen was cleared since), nor,
  // before the helper's echo mark, its redraw of the echo; `from_pipe`:
  // nothing was typed, so any prompt before the mark is the REPL's from
  // before the helper ran the prompt.
  bool PromptIsNext(const Terminal& term, uint64_t written_generation, bool from_pipe) const;
  // The terminal was just resized: the typed row follows its text.
  void FollowResize(const Terminal& term);

  uint64_t row() const { return row_; }  // absolute, as RowsBetween counts
  int prompt_cols() const { return prompt_cols_; }  // the prompt's width on it
  bool seen() const { return seen_; }
  // The helper's echo mark came (the helper has taken the prompt), and its payload.
  bool redrawn() const { return redrawn_; }
  const std::string& report() const { return report_; }

 private:
  const int echo_osc_;
  uint64_t row_ = 0;
  int prompt_cols_ = 0;
  std::string line_;
  std::string row_text_;  // the typed row as it was (the prompt), for Wiped
  bool seen_ = false;
  std::string report_;    // echo_osc's payload when the line was typed, then at the mark
  bool redrawn_ = false;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_ECHO_TRACKER_H_
