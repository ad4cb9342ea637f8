#include "line_turn.h"

namespace tuidriver {

void LineTurn::Start(const Terminal& term, const std::string& prompt, ChildInput* child) {
  submission_.SplitLines(prompt, child);
  TypeLine(term, *submission_.NextLine(false));
}

void LineTurn::TypeLine(const Terminal& term, const std::string& line) {
  echo_.LineTyped(term, line);
  reply_.LineTyped(term, echo_, line);
  submission_.TypeLine(term, line);
}

// The next prompt, not the one the line was typed at, nor the helper's
// redraw; after the helper's end mark; not busy.
bool LineTurn::PromptAfterLine(const Terminal& term, bool* continuation) {
  bool prompt = matcher_.PromptVisible(term);
  bool cont = !prompt && matcher_.ContinuationVisible(term);
  if (!prompt && !cont) {
    echo_.NoPromptSeen();
    return false;
  }
  if (!echo_.PromptIsNext(term, submission_.written_generation(), submission_.runs_from_pipe())) return false;
  // The helper marks the end of every submission's output (end_osc): a
  // prompt before its mark is not the submission's end (one drawn again
  // below late output before the submission began).
  if (!cont && config_.end_osc > 0 && !reply_.output_ended()) return false;
  if (matcher_.Busy(term)) return false;
  *continuation = cont;
  return true;
}

LineTurn::Verdict LineTurn::Judge(const Terminal& term) {
  bool continuation = false;
  if (!PromptAfterLine(term, &continuation)) return Verdict::kGoing;
  reply_.CloseLine(term, echo_, submission_.written_generation());
  if (const std::string* line = submission_.NextLine(continuation)) {
    TypeLine(term, *line);
    return Verdict::kNextLine;
  }
  return continuation ? Verdict::kMoreInput : Verdict::kDone;
}

}  // namespace tuidriver
