#include "raw_run.h"

#include <algorithm>

#include "reply_extractor.h"
#include "screen_matcher.h"
#include "text.h"

namespace tuidriver {
namespace {

// The lines of what was typed: split at CR LF, CR or LF, as Enter ends each.
std::vector<std::string> TypedLines(const std::string& line) {
  std::vector<std::string> lines(1);
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] != '\r' && line[i] != '\n') {
      lines.back() += line[i];
      continue;
    }
    if (line[i] == '\r' && i + 1 < line.size() && line[i + 1] == '\n') ++i;
    lines.emplace_back();
  }
  return lines;
}

// A continuation prompt: bash's PS2 "> ", python's "... ", a short "x>" or "x:".
bool ContinuationPrompt(const std::string& prefix) {
  if (prefix == "...") return true;
  if (prefix.empty() || prefix.size() > 5 || (prefix.back() != '>' && prefix.back() != ':')) return false;
  return prefix.find_first_of(" \t") == std::string::npos;
}

// `text` without the prompt row holding `line` (its echo may wrap over
// rows): the echo starts at most a column after the prompt. A blank line
// drops the prompt row alone.
std::string DropFirstEcho(const std::string& text, const std::string& line, const std::string& prompt) {
  std::string typed = Trim(line);
  size_t cut = 0;  // where the rows after the echo's last row begin
  if (typed.empty()) {
    cut = text.find('\n');
  } else {
    std::string flat;
    for (char c : text) {
      if (c != '\n') flat += c;
    }
    size_t at = flat.find(typed);
    if (at == std::string::npos || at > prompt.size() + 1) return text;
    size_t seen = 0;
    size_t k = 0;
    for (; k < text.size() && seen < at + typed.size(); ++k) {
      if (text[k] != '\n') ++seen;
    }
    cut = text.find('\n', k);
  }
  return cut == std::string::npos ? std::string() : text.substr(cut + 1);
}

// `rows` without the first row that is a prompt (the first one, or a
// continuation prompt) followed by `typed`.
void DropLaterEcho(std::vector<std::string>* rows, const std::string& typed, const std::string& prompt) {
  for (auto it = rows->begin(); it != rows->end(); ++it) {
    std::string row = TrimRight(*it);
    if (row.size() < typed.size() || row.compare(row.size() - typed.size(), typed.size(), typed) != 0) continue;
    std::string prefix = TrimRight(row.substr(0, row.size() - typed.size()));
    if (prefix == TrimRight(prompt) || ContinuationPrompt(prefix)) {
      rows->erase(it);
      return;
    }
  }
}

}  // namespace

std::string DropEchoAndPrompt(const std::vector<std::string>& rows, const std::string& line,
                              const std::string& prompt, bool open) {
  std::vector<std::string> typed = TypedLines(line);
  std::vector<std::string> out = SplitLines(DropFirstEcho(JoinLines(rows), typed[0], prompt));
  // A line of several lines: each later one is echoed after a prompt of its own.
  for (size_t i = 1; i < typed.size(); ++i) DropLaterEcho(&out, Trim(typed[i]), prompt);
  if (!open && !out.empty() && !Trim(prompt).empty() && TrimRight(out.back()) == TrimRight(prompt)) out.pop_back();
  return JoinLines(out);
}

RawRun::RawRun(const Request& r, TimePoint now)
    : id_(r.id),
      line_(r.line),
      timeout_ms_(r.timeout_ms > 0 ? r.timeout_ms : kDefaultTimeoutMs),
      idle_ms_(r.idle_ms > 0 ? r.idle_ms : 500),
      received_(now),
      deadline_(now + Ms(timeout_ms_)),
      next_look_(now) {}

RawRun::Step RawRun::Update(const Terminal& term, SessionChild* child, const ProgramState& state, TimePoint last_output,
                            TimePoint now, Result* result) {
  if (!typed_) {
    // Into a program not at its prompt (still reacting to earlier input,
    // or asking), the line waits for a short quiet: typed earlier, it would
    // land before the prompt's redraw, or be dropped with an interrupted
    // line. A program that has not shown its prompt yet (just started) is
    // waited for until it has (ProgramState learns it), at most
    // kSettleLimitMs: readline drops what was typed before it set up the
    // terminal, and the prompt tells the echo from the output.
    ProgramLook look = state.Judge(term, *child);
    TimePoint limit = received_ + Ms(kSettleLimitMs);
    TimePoint settled_at = state.prompt_known() ? std::min(last_output + Ms(kSettleMs), limit) : limit;
    // At once only at the prompt itself: "ready" may also be a shell that
    // took the terminal back but has not drawn its prompt yet (after ^C).
    bool at_prompt = state.prompt_known() && TrimRight(CursorLineText(term)) == TrimRight(state.prompt());
    bool settled = look.state != "running" && ((look.state == "ready" && at_prompt) || now >= settled_at);
    if (!settled && now >= deadline_) return Step::kStillRunning;
    if (!settled) {
      next_look_ = std::min(deadline_, std::max(std::min(settled_at, last_output + Ms(ProgramState::kQuietMs)),
                                                now + Ms(kLookMs)));
      return Step::kGoing;
    }
    first_prompt_ = state.prompt();
    Type(term, child, now);
  }
  TimePoint quiet_at = std::max(last_output, typed_at_) + Ms(idle_ms_);
  if (now >= quiet_at) {
    ProgramLook look = state.Judge(term, *child);
    if (look.state != "running") {
      *result = Collect(term, look.state, look.question);
      return Step::kDone;
    }
  }
  if (now >= deadline_) {
    *result = Collect(term, "running", "");
    return Step::kDone;
  }
  next_look_ = std::min(deadline_, std::max(quiet_at, now + Ms(kLookMs)));
  return Step::kGoing;
}

void RawRun::Type(const Terminal& term, SessionChild* child, TimePoint now) {
  prompt_row_ = term.lines_scrolled() + static_cast<uint64_t>(term.cursor().row);
  prompt_ = CursorLineText(term);
  child->Write(line_ + "\r");
  typed_ = true;
  typed_at_ = now;
}

RawRun::Result RawRun::Exited(const Terminal& term) { return Collect(term, "exited", ""); }

void RawRun::Cancel(SessionChild* child) {
  if (typed_) child->Write("\x03");
}

RawRun::Result RawRun::Collect(const Terminal& term, const std::string& state, const std::string& question) const {
  Result r{"", state, question};
  if (!typed_) return r;
  int last = term.rows() - 1;
  while (last >= 0 && term.RowText(last).empty()) --last;
  if (term.alt_screen()) {
    std::vector<std::string> rows = term.ScreenLines();
    rows.resize(static_cast<size_t>(last + 1));
    r.output = JoinLines(rows);
    return r;
  }
  // Lines as the program wrote them: a row the terminal wrapped goes on in
  // the next. The history is not pinned (a `yes` would grow it without end):
  // an output longer than the history keeps its last rows, echo gone.
  uint64_t end = term.lines_scrolled() + static_cast<uint64_t>(last + 1);
  std::vector<std::string> rows = SplitLines(JoinRows(RowsBetween(term, prompt_row_, end)));
  bool open = state == "running" || state == "needs_input";
  r.output = DropEchoAndPrompt(rows, line_, prompt_, open);
  // Back at the program's first prompt after a question was answered: that goes too.
  if (!open && !first_prompt_.empty()) r.output = DropEchoAndPrompt({first_prompt_, r.output}, "", first_prompt_, false);
  return r;
}

}  // namespace tuidriver
