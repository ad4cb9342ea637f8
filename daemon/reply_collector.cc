#include "reply_collector.h"

#include <cstdlib>
#include <utility>

namespace tuidriver {
namespace {

void AppendSegment(const std::vector<Row>& rows, std::string* text, bool* has) {
  if (rows.empty()) return;
  if (*has) *text += '\n';
  *text += JoinRows(rows);
  *has = true;
}

}  // namespace

void ReplyCollector::Start(const Terminal& term, const EchoTracker& echo) {
  if (config_.exit_osc > 0) exit_report_ = term.osc(config_.exit_osc);
  if (config_.submit.mode == SubmitMode::kLines) {
    start_row_ = CursorRow(term);
    return;
  }
  start_row_ = term.lines_scrolled();
  start_reply_ = config_.reply.start.empty() ? std::string() : WholeText(term, echo, true);
}

void ReplyCollector::Reset() {
  seen_rows_.clear();
  rows_missing_ = false;
}

void ReplyCollector::LineTyped(const Terminal& term, const EchoTracker& echo, const std::string& line) {
  output_start_ = echo.row() + static_cast<uint64_t>(EchoRows(echo.prompt_cols(), line, term.cols()));
  output_ended_ = false;
}

// Where the end mark is, not where the prompt is now, ends the output: the
// terminal noted its place as it came, so late output the helper printed
// after it (above a fresh prompt) stays out, however late this runs.
void ReplyCollector::FollowEndMarker(const Terminal& term, const EchoTracker& echo) {
  if (config_.end_osc <= 0 || output_ended_ || !echo.redrawn() || term.osc(config_.end_osc) != echo.report()) return;
  output_ended_ = true;
  output_end_ = term.osc_row(config_.end_osc);
  if (!term.LineBefore(output_end_, term.osc_col(config_.end_osc), &output_tail_)) output_tail_.clear();
}

// The line's output: rows from after its echo up to the prompt the cursor
// now sits on (or the end mark).
void ReplyCollector::CloseLine(const Terminal& term, const EchoTracker& echo, uint64_t written_generation) {
  uint64_t end = output_ended_ ? output_end_ : CursorRow(term);
  uint64_t first = output_start_;
  if (end <= echo.row() || echo.Wiped(term, written_generation)) first = term.lines_scrolled();  // screen was cleared
  std::vector<Row> rows = RowsBetween(term, first, end);
  // Output without a final newline ends on the prompt's own row.
  std::string before = output_ended_ ? output_tail_ : end > echo.row() ? matcher_.TextBeforePrompt(term) : "";
  if (!before.empty()) rows.push_back({before, false});
  AppendSegment(rows, &finished_output_, &has_output_);
}

// Everything from the ask's first row down to the input prompt, which is
// where the cursor waits once the program is done.
std::vector<Row> ReplyCollector::AskRows(const Terminal& term) const {
  uint64_t end = CursorRow(term);
  if (end <= start_row_) end = term.lines_scrolled() + static_cast<uint64_t>(term.rows());
  return RowsBetween(term, start_row_, end);
}

// A reply taller than a screen that never scrolls into the history is only
// ever seen in pieces.
void ReplyCollector::RememberRows(const Terminal& term) {
  bool headless = false;
  std::vector<std::string> window = MarkedReplyRows(AskRows(term), prompt_, matcher_, config_.reply, true, &headless);
  if (headless) rows_missing_ |= !seen_rows_.empty() && !MergeReplyRows(&seen_rows_, window);
  else if (!window.empty()) seen_rows_ = std::move(window);
}

std::string ReplyCollector::Text(const Terminal& term, const EchoTracker& echo, bool final, bool waiting) const {
  if (config_.submit.mode != SubmitMode::kLines) return WholeText(term, echo, final);
  return LinesText(term, final, waiting);
}

std::string ReplyCollector::WholeText(const Terminal& term, const EchoTracker& echo, bool final) const {
  std::vector<Row> rows = AskRows(term);
  // A marked reply leaves out only the row being drawn, so a paragraph
  // streams row by row. When only its tail shows, the rows seen before
  // come first.
  if (!config_.reply.start.empty()) {
    bool headless = false;
    std::vector<std::string> body = MarkedReplyRows(rows, prompt_, matcher_, config_.reply, !final, &headless);
    if (headless) {
      std::vector<std::string> seen = seen_rows_;
      MergeReplyRows(&seen, body);
      body.swap(seen);
    }
    return JoinReplyRows(std::move(body), config_.reply, term.cols());
  }
  std::string text = MarkedOrPlain(term, echo, rows);
  if (final) return text;
  // While the program is still writing, its last line may change.
  size_t nl = text.rfind('\n');
  return nl == std::string::npos ? std::string() : text.substr(0, nl + 1);
}

std::string ReplyCollector::MarkedOrPlain(const Terminal& term, const EchoTracker& echo,
                                          const std::vector<Row>& rows) const {
  if (!config_.reply.start.empty()) {
    return ExtractMarkedReply(rows, prompt_, matcher_, config_.reply, term.cols());
  }
  // No reply marker: everything after the echo of the prompt, up to the
  // prompt row.
  uint64_t first = echo.row() + static_cast<uint64_t>(EchoRows(echo.prompt_cols(), prompt_, term.cols()));
  uint64_t end = CursorRow(term);
  std::vector<Row> out;
  for (size_t i = 0; i < rows.size(); ++i) {
    uint64_t abs = start_row_ + i;
    if (abs >= first && abs < end && !matcher_.IsChrome(rows[i].text)) out.push_back(rows[i]);
  }
  return JoinRows(out);
}

std::string ReplyCollector::LinesText(const Terminal& term, bool final, bool waiting) const {
  std::string text = finished_output_;
  if (final || !waiting) return text;
  // Completed rows of the line being answered; the cursor's row may still grow.
  uint64_t end = output_ended_ ? output_end_ : CursorRow(term);
  if (end <= output_start_) return text;
  std::vector<Row> rows = RowsBetween(term, output_start_, end);
  while (!rows.empty() && rows.back().wrapped) rows.pop_back();
  bool has = has_output_;
  AppendSegment(rows, &text, &has);
  if (!rows.empty()) text += '\n';  // those rows are complete lines
  return text;
}

std::string ReplyCollector::Unfinished(const Terminal& term, const EchoTracker& echo, bool waiting) const {
  std::string text = Text(term, echo, false, waiting);
  if (config_.submit.mode != SubmitMode::kLines || !waiting) return text;
  if (CursorRow(term) < output_start_) return text;
  std::string tail = CursorLineText(term);
  size_t end = tail.find_last_not_of(' ');
  if (end == std::string::npos) return text;
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text + tail;
}

bool ReplyCollector::ShowsStartReply(const Terminal& term, const EchoTracker& echo) const {
  return !start_reply_.empty() && Text(term, echo, true, false) == start_reply_;
}

// Not while the screen still gives the reply it gave at Start, busy or
// not, nor any part of it: Codex says it is working before it draws the
// new echo, Claude may redraw the old turn in between, and the previous
// turn's reply (same prompt) must not stream as this one's. A new reply
// that begins like the old one streams once it differs or outgrows it.
bool ReplyCollector::NewSoFar(const Terminal& term, const EchoTracker& echo, std::string* text) const {
  if (ShowsStartReply(term, echo)) return false;
  *text = Text(term, echo, false, true);
  const std::string& old = start_reply_;
  return old.empty() || text->size() > old.size() || old.compare(0, text->size(), *text) != 0;
}

// The report is "SEQ;CODE", SEQ new for each.
bool ReplyCollector::Exited(const Terminal& term, int* code) const {
  std::string report = config_.exit_osc > 0 ? term.osc(config_.exit_osc) : exit_report_;
  size_t semi = report.find(';');
  if (report == exit_report_ || semi == std::string::npos) return false;
  *code = atoi(report.c_str() + semi + 1);
  return true;
}

void ReplyCollector::FollowResize(const Terminal& term) {
  start_row_ = term.RowAfterResize(start_row_);
  output_start_ = term.RowAfterResize(output_start_);
  output_end_ = term.RowAfterResize(output_end_);
}

}  // namespace tuidriver
