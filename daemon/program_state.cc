#include "program_state.h"

#include "question_watch.h"
#include "text.h"

namespace tuidriver {
namespace {

// A raw session judged as the line engines are: a line at a time, the
// process asked whether it reads, and where that cannot be observed the
// needs_input pattern of the bash and python engines (engines/bash.json),
// the text before the cursor ending like a question (ProgramStateJudgement
// checks it is theirs). A shell's prompt may
// change (cd, a branch name): a row ending in $, # or % is one too.
EngineConfig RawJudgement() {
  EngineConfig c;
  c.name = "raw";
  c.submit.mode = SubmitMode::kLines;
  c.prompt = {"[$#%] *$", MatchScope::kCursorLine};
  c.needs_input = {{"[\\])?:>] *$", MatchScope::kCursorLine}};
  c.needs_input_from_process = true;
  return c;
}

}  // namespace

ProgramState::ProgramState() : config_(RawJudgement()), matcher_(config_) {}

ProgramLook ProgramState::Judge(const Terminal& term, const SessionChild& child) const {
  return Look(term, child, child.ReadsTerminal());
}

ProgramLook ProgramState::Look(const Terminal& term, const SessionChild& child, TerminalReader reader) const {
  if (term.alt_screen()) return {"fullscreen", ""};
  if (AtPrompt(term)) return {reader == TerminalReader::kNotReading ? "running" : "ready", ""};
  std::string question;
  bool certain = false;
  if (QuestionShows(config_, matcher_, term, reader, &question, &certain)) return {"needs_input", question};
  if (reader == TerminalReader::kNotReading) return {"running", ""};
  if (reader == TerminalReader::kReading) return {"ready", ""};  // a shell's prompt shows
  // Not observable, and nothing looks like a question: a child of the
  // program holding the terminal still runs.
  return {child.ForegroundPid() != child.pid() ? "running" : "ready", ""};
}

// At the prompt as first shown, maybe with a line typed after it that the
// program has not run yet.
bool ProgramState::AtPrompt(const Terminal& term) const {
  if (!prompt_known_) return false;
  std::string row = term.RowText(term.cursor().row);
  if (TrimRight(row) == TrimRight(prompt_)) return true;
  return !Trim(prompt_).empty() && row.compare(0, prompt_.size(), prompt_) == 0;
}

bool ProgramState::Update(const Terminal& term, const SessionChild& child, TimePoint last_output, bool report,
                          TimePoint now, ProgramLook* look) {
  if (last_output != seen_output_) {
    seen_output_ = last_output;
    LookSoon(last_output);
  }
  LearnPrompt(term, child, last_output, now);
  if (!report) {
    reported_any_ = false;  // a later subscriber hears the state then
    return false;
  }
  if (now < next_look_) return false;
  pause_ms_ *= 2;
  next_look_ = pause_ms_ > kLastLookMs ? TimePoint::max() : now + Ms(pause_ms_);
  *look = Judge(term, child);
  if (reported_any_ && *look == reported_) return false;
  reported_any_ = true;
  reported_ = *look;
  return true;
}

void ProgramState::LearnPrompt(const Terminal& term, const SessionChild& child, TimePoint last_output,
                               TimePoint now) {
  if (prompt_known_ || now < last_output + Ms(kQuietMs) || term.alt_screen()) return;
  if (child.ReadsTerminal() == TerminalReader::kNotReading) return;
  prompt_ = CursorLineText(term);
  prompt_known_ = true;
}

void ProgramState::LookSoon(TimePoint now) {
  pause_ms_ = kQuietMs;
  next_look_ = now + Ms(kQuietMs);
}

TimePoint ProgramState::next_wakeup(bool report) const { return report ? next_look_ : TimePoint::max(); }

}  // namespace tuidriver
