#include "question_watch.h"

#include <algorithm>

#include "messages.h"
#include "screen_matcher.h"
#include "text.h"

namespace tuidriver {
namespace {

// What a question looks like to the client: the whole screen of a
// full-screen program (a pager, an editor), else the cursor's line.
std::string ScreenQuestion(const Terminal& term) {
  if (!term.alt_screen()) {
    std::string line = CursorLineText(term);
    return line.substr(0, line.find_last_not_of(' ') + 1);
  }
  std::vector<std::string> lines = term.ScreenLines();
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  std::string question;
  for (const std::string& line : lines) question += (question.empty() ? "" : "\n") + line;
  return question;
}

}  // namespace

bool QuestionShows(const EngineConfig& config, const ScreenMatcher& matcher, const Terminal& term,
                   TerminalReader reader, std::string* question, bool* certain) {
  bool lines = config.submit.mode == SubmitMode::kLines;
  // A line REPL at its own prompt waits for the next line, not an answer.
  if (lines && (matcher.PromptVisible(term) || matcher.ContinuationVisible(term))) return false;
  if (reader == TerminalReader::kReading) {
    *question = ScreenQuestion(term);
    *certain = true;
    return true;
  }
  if (reader == TerminalReader::kNotReading) return false;
  if (lines && term.alt_screen()) {
    *question = ScreenQuestion(term);
    return true;
  }
  return matcher.NeedsInput(term, question);
}

bool QuestionWatch::Update(const Terminal& term, const ChildInput& child, uint64_t generation,
                           TimePoint last_change, TimePoint now, std::string* question) {
  bool certain = false;
  if (QuestionUp(term, child, generation, last_change, now, question, &certain)) {
    if (NextQuestion(*question, now)) reported_ = seen_ever_ = responded_ = false;
    if (!certain && !Settled(*question, matcher_.QuestionIncomplete(term), last_change, now)) return false;
    pending_ = true;
    if (!wait_input_) return true;
    if (!reported_) Report(*question, now);  // once reported, the ask waits for its answer
    return false;
  }
  if (pending_) gone_since_ = now;
  pending_ = false;  // gone, or a frame drawn without it
  // Gone a while: the next question is a new one, waited for from when it
  // shows (and an answer would go to whatever is on screen now).
  if (now >= gone_since_ + Ms(kGoneMs)) reported_ = seen_ever_ = responded_ = false;
  return false;
}

// Whether the question on screen is not the one reported. Once the client
// responded (the program's next question can follow at once), it is when it
// begins otherwise (typed text only adds to it), or, back after a gap, when it
// asks something else or came back later than a redraw would (a turn's next
// tool call). Without a response, only a long gap makes a new question: a
// TUI redraws, and a frame may be seen half drawn.
bool QuestionWatch::NextQuestion(const std::string& question, TimePoint now) const {
  if (!reported_) return false;
  if (pending_) {
    std::string first = TrimRight(reported_text_.substr(0, reported_text_.find('\n')));
    return responded_ && question.compare(0, first.size(), first) != 0;
  }
  if (now >= gone_since_ + Ms(kGoneMs)) return true;
  if (!responded_) return false;
  return now >= gone_since_ + Ms(kStableMs) ||
         parser_.Parse(question).question != input_question_.question;
}

TimePoint QuestionWatch::next_wakeup() const {
  if (pending_) return reported_ ? TimePoint::max() : due_;
  return probing_ ? next_probe_ : TimePoint::max();
}

bool QuestionWatch::QuestionUp(const Terminal& term, const ChildInput& child, uint64_t generation,
                               TimePoint last_change, TimePoint now, std::string* question, bool* certain) {
  probing_ = false;
  // (QuestionShows says no at a line REPL's prompt too; checked here first so
  // that the process is not asked at all.)
  bool lines = config_.submit.mode == SubmitMode::kLines;
  if (lines && (matcher_.PromptVisible(term) || matcher_.ContinuationVisible(term))) return false;
  TerminalReader reader = TerminalReader::kUnknown;
  if (config_.needs_input_from_process) {
    probing_ = true;
    reader = ProbeReader(child, generation, last_change, now);
  }
  return QuestionShows(config_, matcher_, term, reader, question, certain);
}

// Asks the process, once the output has been quiet a moment and then every
// little while; the last answer holds until the screen changes.
TerminalReader QuestionWatch::ProbeReader(const ChildInput& child, uint64_t generation, TimePoint last_change,
                                          TimePoint now) {
  if (reader_generation_ != generation) {
    reader_generation_ = generation;
    reader_ = TerminalReader::kNotReading;
    next_probe_ = last_change + Ms(kProbeQuietMs);
  }
  if (now >= next_probe_) {
    reader_ = child.ReadsTerminal();
    next_probe_ = now + Ms(kProbeEveryMs);
  }
  return reader_;
}

// A TUI's frame may arrive in pieces: a question counts once its text has
// stayed the same a moment, or once it was first seen long enough ago (a TUI
// that redraws all the time, in pieces, may change it or hide it in every
// read).
bool QuestionWatch::Settled(const std::string& question, bool incomplete, TimePoint last_change, TimePoint now) {
  if (!seen_ever_) {
    seen_ever_ = true;
    first_ = now;
  }
  if (!pending_) {
    pending_ = true;
    since_ = now;
    seen_ = question;
  } else if (question != seen_) {
    seen_ = question;
    since_ = now;
  }
  due_ = std::min(since_ + Ms(kStableMs), first_ + Ms(kMaxWaitMs));
  // The kernel passes a terminal write on in 2 KB pieces, and a loaded
  // machine may run other work between them for longer than kStableMs: a
  // dialog's question can hold still while its options are still to come.
  // An engine may also show that the question's own text is still to come
  // (`incomplete`), and a TUI may show an earlier dialog again (CountsLate).
  // Once reported, when it counts no longer matters.
  if (!reported_ && (incomplete || CountsLate(question))) due_ = std::max(due_, first_ + Ms(kOptionsLateMs));
  // A REPL's program asks on its cursor line, which ordinary output passes
  // through too ("Result: " before the value): it counts once quiet a while.
  int quiet = config_.timeouts.question_ms;
  if (quiet > 0) due_ = std::max(due_, last_change + Ms(quiet));
  return now >= due_;
}

// A dialog (the engine's questions list choices) whose choices are still to
// come, or an earlier dialog of this ask drawn again after a later one: a
// TUI may go back to it while the answer is on its way (opencode shows its
// permission box for up to 300 ms after "Always allow" is confirmed). The
// dialog just answered may well come again (Claude asks the same of the
// next call); a REPL's program that asks the same again ("Continue? " in a
// loop) is not held back either.
bool QuestionWatch::CountsLate(const std::string& question) const {
  const InputOptionsConfig& options = config_.needs_input_options;
  if (options.option.empty() && options.choices.empty()) return false;
  if (parser_.Parse(question).options.empty()) return true;
  return asked_.size() > 1 && std::find(asked_.begin(), asked_.end() - 1, question) != asked_.end() - 1;
}

void QuestionWatch::Report(const std::string& question, TimePoint now) {
  reported_ = true;
  answered_ = responded_ = false;
  shown_at_ = now;
  reported_text_ = question;
  input_question_ = parser_.Parse(question);
  asked_.push_back(question);
  event_pending_ = true;
}

bool QuestionWatch::TakeInputEvent(const RequestId& id, std::string* json) {
  if (!event_pending_) return false;
  event_pending_ = false;
  *json = NeedsInputEvent(id, input_question_);
  return true;
}

bool QuestionWatch::Answer(int option, std::vector<std::string>* keys, std::string* err) {
  if (!AnswerKeys(input_question_, config_.needs_input_options, option, keys, err)) return false;
  answered_ = responded_ = true;
  return true;
}

void QuestionWatch::Reset() {
  pending_ = seen_ever_ = false;
  reported_ = answered_ = responded_ = event_pending_ = false;
  asked_.clear();
}

}  // namespace tuidriver
