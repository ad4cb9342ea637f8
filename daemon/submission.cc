#include "submission.h"

#include <algorithm>

#include "json_writer.h"
#include "keys.h"
#include "text.h"

namespace tuidriver {
namespace {

// The prompt's lines, without the empty ones that end it (one is kept).
std::vector<std::string> PromptLines(const std::string& text) {
  std::vector<std::string> lines = SplitLines(text);
  while (lines.size() > 1 && lines.back().empty()) lines.pop_back();
  return lines;
}

}  // namespace

void Submission::SplitLines(const std::string& prompt, ChildInput* child) {
  lines_ = config_.submit.wrap.empty() ? PromptLines(prompt) : std::vector<std::string>{WrapPrompt(prompt, child)};
}

// The whole prompt as one line: submit.wrap with {json} replaced by the
// prompt as a JSON string literal (no newline or TAB left to type), or with
// {pipe} by the number the prompt got in the program's prompt pipe.
std::string Submission::WrapPrompt(const std::string& prompt, ChildInput* child) {
  std::string line = config_.submit.wrap;
  size_t at = line.find("{pipe}");
  if (at != std::string::npos) {
    piped_ = child->PipePrompt(prompt);
    if (piped_ > 0 && (config_.submit.enter_only || config_.submit.pipe_only)) return std::string();
    if (piped_ > 0) return line.replace(at, 6, std::to_string(piped_));
  } else {
    at = line.find("{json}");
  }
  std::string literal;
  AppendJsonString(prompt, &literal);
  return line.replace(at, 6, literal);
}

const std::string* Submission::NextLine(bool continuation) {
  if (next_line_ >= lines_.size()) {
    if (!continuation || !config_.submit.close_blocks || block_closed_) return nullptr;
    block_closed_ = true;
    lines_.push_back("");
  }
  return &lines_[next_line_++];
}

std::string Submission::EnterBytes(const Terminal& term) const {
  return KeysToBytes(config_.submit.enter, TerminalKeyModes(term));
}

void Submission::TypeLine(const Terminal& term, const std::string& line) {
  if (runs_from_pipe()) return;  // the helper runs it from the pipe
  // Pasted, a line is taken literally: a TAB inserts a TAB instead of
  // completing, and auto-indenting REPLs do not indent it twice.
  if (term.bracketed_paste() && !line.empty()) {
    typist_.Queue(BracketedPaste(line), 0);
  } else {
    typist_.Queue(line, 0);
  }
  typist_.Queue(EnterBytes(term), config_.submit.enter_delay_ms);
}

void Submission::TypeWhole(const Terminal& term, const std::string& text) {
  bool paste = config_.submit.mode == SubmitMode::kPaste && term.bracketed_paste();
  size_t chunk = config_.submit.chunk_size ? config_.submit.chunk_size : text.size();
  if (paste) typist_.Queue("\x1b[200~", 0);
  for (size_t pos = 0; pos < text.size(); pos += chunk) {
    size_t len = std::min(chunk, text.size() - pos);
    // Never split a UTF-8 character between chunks.
    while (pos + len < text.size() && (static_cast<unsigned char>(text[pos + len]) & 0xC0) == 0x80) ++len;
    typist_.Queue(text.substr(pos, len), pos ? config_.submit.chunk_delay_ms : 0);
    chunk = config_.submit.chunk_size ? config_.submit.chunk_size : text.size();
    if (len > chunk) pos += len - chunk;
  }
  if (paste) typist_.Queue("\x1b[201~", 0);
  typist_.Queue(EnterBytes(term), config_.submit.enter_delay_ms, config_.submit.enter_after_echo);
}

void Submission::TypeAnswer(const Terminal& term, const std::string& text, const std::vector<std::string>& keys,
                            TimePoint not_before) {
  // One key at a time, a little apart: a TUI may read a burst as one key.
  constexpr int kKeyGapMs = 80;
  if (!text.empty()) typist_.Queue(text, 0);
  for (const std::string& key : keys) {
    typist_.Queue(KeysToBytes({key}, TerminalKeyModes(term)), typist_.empty() ? 0 : kKeyGapMs);
  }
  typist_.HoldUntil(not_before);
}

// submit.resubmit_ms: a program still taking in a paste may take the Enter
// as part of it (Gemini, after a paste of more than five lines, or under
// load). Such a turn never begins; the Ask tells from the screen.
TimePoint Submission::ResubmitDue(TimePoint last_change) const {
  if (config_.submit.resubmit_ms <= 0 || config_.submit.mode == SubmitMode::kLines) return TimePoint::max();
  return typist_.ResubmitDue(last_change, config_.submit.resubmit_ms);
}

void Submission::Resubmit(const Terminal& term, ChildInput* child, TimePoint now) {
  typist_.Resubmit(EnterBytes(term), child, now);
}

void Submission::DropUntaken(ChildInput* child, bool taken) {
  if (piped_ == 0 || !(config_.submit.enter_only || config_.submit.pipe_only) || taken) return;
  child->DropPrompt(piped_);
  piped_ = 0;
}

}  // namespace tuidriver
