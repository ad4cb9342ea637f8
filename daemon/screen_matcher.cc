#include "screen_matcher.h"

#include <algorithm>

#include "json_writer.h"
#include "compile_regex.h"

namespace tuidriver {
namespace {

std::unique_ptr<RE2> CompileOrNull(const std::string& pattern) {
  if (pattern.empty()) return nullptr;
  std::string err;
  return CompileRegex(pattern, &err);  // validated at load; never match if not
}

}  // namespace

std::string CursorLineText(const Terminal& term) {
  Cursor cur = term.cursor();
  return term.RowPrefix(cur.row, cur.col);
}

ScreenMatcher::Compiled ScreenMatcher::Compile(const ScreenPattern& p) {
  Compiled c;
  c.re = CompileOrNull(p.pattern);
  c.scope = p.scope;
  return c;
}

ScreenMatcher::ScreenMatcher(const EngineConfig& config)
    : prompt_(Compile(config.prompt)),
      continuation_(Compile(config.continuation_prompt)),
      interrupt_armed_(Compile(config.interrupt_armed)),
      reply_start_(CompileOrNull(config.reply.start)),
      reply_end_(CompileOrNull(config.reply.end)),
      strip_(CompileOrNull(config.reply.strip)),
      tool_output_(CompileOrNull(config.reply.tool_output)),
      other_start_(CompileOrNull(config.reply.other_start)),
      question_start_(CompileOrNull(config.needs_input_options.question_start)),
      question_incomplete_(Compile({config.needs_input_options.incomplete, MatchScope::kScreen})),
      prompt_osc_(config.prompt_osc),
      prompt_mark_(config.prompt_mark),
      busy_osc_(config.busy_osc),
      busy_osc_pattern_(CompileOrNull(config.busy_osc_pattern)),
      busy_until_osc_(config.busy_until_osc),
      busy_title_(CompileOrNull(config.busy_title)) {
  for (const ScreenPattern& p : config.started) started_.push_back(Compile(p));
  for (const ScreenPattern& p : config.busy) busy_.push_back(Compile(p));
  for (const ScreenPattern& p : config.needs_input) needs_input_.push_back(Compile(p));
  for (const std::string& p : config.reply.chrome) {
    if (auto re = CompileOrNull(p)) chrome_.push_back(std::move(re));
  }
  for (const DialogRule& d : config.dialogs) {
    if (auto re = CompileOrNull(d.pattern)) dialogs_.push_back({std::move(re), d.modes, d.name});
  }
}

bool ScreenMatcher::Matches(const Compiled& c, const Terminal& term, int* row) {
  if (!c.re) return false;
  if (c.scope == MatchScope::kCursorLine) {
    *row = term.cursor().row;
    return RE2::PartialMatch(CursorLineText(term), *c.re);
  }
  for (int r = 0; r < term.rows(); ++r) {
    if (RE2::PartialMatch(term.RowText(r), *c.re)) {
      *row = r;
      return true;
    }
  }
  return false;
}

bool ScreenMatcher::MarkOnScreen(const Terminal& term, int* row, int* col) const {
  if (prompt_osc_ <= 0) return false;
  Terminal::OscPlace mark = term.osc_place(prompt_osc_);
  if (!mark.held || mark.alt != term.alt_screen() || term.osc(prompt_osc_) != prompt_mark_) return false;
  if (mark.row < term.lines_scrolled() || mark.row >= term.lines_scrolled() + static_cast<uint64_t>(term.rows())) {
    return false;
  }
  *row = static_cast<int>(mark.row - term.lines_scrolled());
  *col = mark.col;
  return true;
}

bool ScreenMatcher::PromptText(const Terminal& term, std::string* text, std::string* before) const {
  std::string line = CursorLineText(term);
  if (prompt_osc_ <= 0) {
    *text = line;
    before->clear();
    return true;
  }
  int row, col;
  Cursor cur = term.cursor();
  if (!MarkOnScreen(term, &row, &col) || row != cur.row || col > cur.col) return false;
  *before = term.RowPrefix(cur.row, col);
  *text = line.substr(std::min(before->size(), line.size()));
  return true;
}

bool ScreenMatcher::PromptMatches(const Compiled& c, const Terminal& term, int* row) const {
  if (prompt_osc_ <= 0 || c.scope != MatchScope::kCursorLine) return Matches(c, term, row);
  std::string text, before;
  *row = term.cursor().row;
  return c.re && PromptText(term, &text, &before) && RE2::PartialMatch(text, *c.re);
}

bool ScreenMatcher::PromptVisible(const Terminal& term) const {
  int row;
  return PromptMatches(prompt_, term, &row);
}

std::string ScreenMatcher::TextBeforePrompt(const Terminal& term) const {
  std::string line, before;
  if (!PromptText(term, &line, &before)) return "";
  for (const Compiled* c : {&prompt_, &continuation_}) {
    if (!c->re || c->scope != MatchScope::kCursorLine) continue;
    re2::StringPiece match;
    if (c->re->Match(line, 0, line.size(), RE2::UNANCHORED, &match, 1)) {
      return before + line.substr(0, static_cast<size_t>(match.data() - line.data()));
    }
  }
  return "";
}

bool ScreenMatcher::ContinuationVisible(const Terminal& term) const {
  int row;
  return PromptMatches(continuation_, term, &row);
}

namespace {

// Whether `re` matches `text` cut at some character boundary short of its
// end: a prompt with input typed after it (the prompt patterns end in `$`).
bool MatchesAPrefix(const RE2& re, const std::string& text) {
  size_t limit = std::min<size_t>(text.size(), 256);  // a prompt is short
  for (size_t end = limit; end > 0; --end) {
    if (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) continue;
    if (end < text.size() && RE2::PartialMatch(re2::StringPiece(text.data(), end), re)) return true;
  }
  return false;
}

}  // namespace

bool ScreenMatcher::UnfinishedInput(const Terminal& term, std::string* text) const {
  Cursor cur = term.cursor();
  if (ContinuationVisible(term)) {
    *text = CursorLineText(term);
    return true;
  }
  // The rows from the prompt's start to the cursor: typed text may have
  // wrapped onto the rows below it.
  int row = cur.row, col = 0;
  if (prompt_osc_ > 0) {
    if (!MarkOnScreen(term, &row, &col) || row > cur.row || (row == cur.row && col >= cur.col)) return false;
    for (int r = row; r < cur.row; ++r) {
      if (!term.RowWrapped(r)) return false;  // the mark is on an earlier line
    }
  }
  std::string typed;
  for (int r = row; r <= cur.row; ++r) {
    std::string whole = term.RowPrefix(r, r == cur.row ? cur.col : term.cols());
    typed += r == row ? whole.substr(std::min(whole.size(), term.RowPrefix(r, col).size())) : whole;
  }
  for (const Compiled* c : {&prompt_, &continuation_}) {
    if (c->re && c->scope == MatchScope::kCursorLine && MatchesAPrefix(*c->re, typed)) {
      *text = typed;
      return true;
    }
  }
  return false;
}

bool ScreenMatcher::UpdateStarted(const Terminal& term, StartedLatch* latch) const {
  if (started_.empty() || latch->seen) return true;
  auto latch_row = [&](int row, const std::string& text) {
    for (size_t i = 0; i < started_.size(); ++i) {
      const Compiled& c = started_[i];
      if (!c.re || c.scope != MatchScope::kScreen || !RE2::PartialMatch(text, *c.re)) continue;
      latch->seen = true;
      latch->match = {"started", static_cast<int>(i), "", c.re->pattern(), row, text, "started"};
      return true;
    }
    return false;
  };
  // History rows never change: each is looked at once.
  uint64_t from = std::max(latch->next_row, term.first_retained_row());
  latch->next_row = term.lines_scrolled();
  std::string text;
  bool wrapped;
  for (uint64_t r = from; r < term.lines_scrolled(); ++r) {
    if (term.LineAt(r, &text, &wrapped) && latch_row(-1, text)) return true;
  }
  for (int r = 0; r < term.rows(); ++r) {
    if (latch_row(r, term.RowText(r))) return true;
  }
  for (size_t i = 0; i < started_.size(); ++i) {  // a cursor-line pattern: where the cursor is
    int row;
    if (started_[i].scope == MatchScope::kCursorLine && Matches(started_[i], term, &row)) {
      latch->seen = true;
      latch->match = {"started", static_cast<int>(i), "", started_[i].re->pattern(), row,
                      CursorLineText(term), "started"};
      return true;
    }
  }
  return false;
}

bool ScreenMatcher::Busy(const Terminal& term) const {
  int row;
  for (const Compiled& c : busy_) {
    if (Matches(c, term, &row)) return true;
  }
  if (busy_osc_ > 0 && busy_osc_pattern_) {
    std::string payload = term.osc(busy_osc_);
    if (payload.empty()) return busy_until_osc_;
    if (RE2::PartialMatch(payload, *busy_osc_pattern_)) return true;
  }
  if (busy_title_ && RE2::PartialMatch(term.title(), *busy_title_)) return true;
  return false;
}

bool ScreenMatcher::IsChrome(const std::string& row) const {
  for (const auto& re : chrome_) {
    if (RE2::PartialMatch(row, *re)) return true;
  }
  return false;
}

void ScreenMatcher::StripRow(std::string* row) const {
  // Every match goes; a group in the pattern is what of a match stays (a
  // row's indent before Qwen's line numbers in a code block).
  if (strip_) RE2::GlobalReplace(row, *strip_, strip_->NumberOfCapturingGroups() > 0 ? "\\1" : "");
}

bool ScreenMatcher::IsReplyEnd(const std::string& row) const {
  return reply_end_ && RE2::PartialMatch(row, *reply_end_);
}

bool ScreenMatcher::IsToolOutput(const std::string& row) const {
  return tool_output_ && RE2::PartialMatch(row, *tool_output_);
}

bool ScreenMatcher::IsOtherStart(const std::string& row) const {
  return other_start_ && RE2::PartialMatch(row, *other_start_);
}

bool ScreenMatcher::IsReplyStart(const std::string& row, size_t* prefix_len) const {
  if (!reply_start_) return false;
  re2::StringPiece input(row);
  re2::StringPiece match;
  if (!reply_start_->Match(input, 0, input.size(), RE2::ANCHOR_START, &match, 1)) {
    return false;
  }
  *prefix_len = match.size();
  return true;
}

int ScreenMatcher::MatchDialog(const Terminal& term, const std::string& mode) const {
  if (dialogs_.empty()) return -1;
  std::string screen;
  for (const std::string& line : term.ScreenLines()) screen += line + "\n";
  for (size_t i = 0; i < dialogs_.size(); ++i) {
    const Dialog& d = dialogs_[i];
    bool mode_ok = d.modes.empty();
    for (const std::string& m : d.modes) mode_ok |= (m == mode);
    if (mode_ok && RE2::PartialMatch(screen, *d.re)) return static_cast<int>(i);
  }
  return -1;
}

bool ScreenMatcher::NeedsInput(const Terminal& term, std::string* question) const {
  for (const Compiled& c : needs_input_) {
    int row;
    if (!Matches(c, term, &row)) continue;
    std::vector<std::string> lines = term.ScreenLines();
    for (int r = row - 1; question_start_ && r >= 0; --r) {
      if (RE2::PartialMatch(lines[static_cast<size_t>(r)], *question_start_)) {
        row = r;
        break;
      }
    }
    size_t last = lines.size();
    while (last > static_cast<size_t>(row) && lines[last - 1].empty()) --last;
    question->clear();
    for (size_t r = static_cast<size_t>(row); r < last; ++r) {
      if (!question->empty()) *question += "\n";
      *question += lines[r];
    }
    return true;
  }
  return false;
}

bool ScreenMatcher::QuestionIncomplete(const Terminal& term) const {
  int row;
  return Matches(question_incomplete_, term, &row);
}

}  // namespace tuidriver

namespace tuidriver {

std::string ScreenMatcher::MatchedText(const Compiled& c, const Terminal& term, int row) {
  return c.scope == MatchScope::kCursorLine ? CursorLineText(term) : term.RowText(row);
}

void ScreenMatcher::ExplainBusy(const Terminal& term, std::vector<RuleMatch>* out) const {
  for (size_t i = 0; i < busy_.size(); ++i) {
    int row;
    if (Matches(busy_[i], term, &row)) {
      out->push_back({"busy", static_cast<int>(i), "", busy_[i].re->pattern(), row,
                      MatchedText(busy_[i], term, row), "busy"});
    }
  }
  if (busy_osc_ > 0 && busy_osc_pattern_) {
    std::string payload = term.osc(busy_osc_);
    if (payload.empty() && busy_until_osc_) {
      out->push_back({"busy_osc", -1, "", "busy_until_osc: no OSC " + std::to_string(busy_osc_) + " yet",
                      -1, "", "busy"});
    } else if (!payload.empty() && RE2::PartialMatch(payload, *busy_osc_pattern_)) {
      out->push_back({"busy_osc", -1, "", busy_osc_pattern_->pattern(), -1, payload, "busy"});
    }
  }
  if (busy_title_ && RE2::PartialMatch(term.title(), *busy_title_)) {
    out->push_back({"busy_title", -1, "", busy_title_->pattern(), -1, term.title(), "busy"});
  }
}

std::vector<RuleMatch> ScreenMatcher::Explain(const Terminal& term, const std::string& mode) const {
  std::vector<RuleMatch> out;
  std::vector<std::string> lines = term.ScreenLines();
  std::string screen;
  for (const std::string& line : lines) screen += line + "\n";
  for (size_t i = 0; i < dialogs_.size(); ++i) {
    const Dialog& d = dialogs_[i];
    bool mode_ok = d.modes.empty();
    for (const std::string& m : d.modes) mode_ok |= (m == mode);
    re2::StringPiece hit;
    if (!mode_ok || !d.re->Match(screen, 0, screen.size(), RE2::UNANCHORED, &hit, 1)) continue;
    // The row where the match begins.
    size_t at = static_cast<size_t>(hit.data() - screen.data());
    int row = static_cast<int>(std::count(screen.begin(), screen.begin() + static_cast<long>(at), '\n'));
    out.push_back({"dialog", static_cast<int>(i), d.name, d.re->pattern(), row,
                   lines[static_cast<size_t>(row)], "dialog"});
  }
  for (size_t i = 0; i < needs_input_.size(); ++i) {
    int row;
    if (Matches(needs_input_[i], term, &row)) {
      out.push_back({"needs_input", static_cast<int>(i), "", needs_input_[i].re->pattern(), row,
                     MatchedText(needs_input_[i], term, row), "needs_input"});
    }
  }
  ExplainBusy(term, &out);
  int row;
  std::string text, before;
  if (PromptMatches(prompt_, term, &row)) {
    // (With a mark, the text the pattern saw: from the mark on.)
    if (prompt_osc_ <= 0 || !PromptText(term, &text, &before)) text = MatchedText(prompt_, term, row);
    out.push_back({"prompt", -1, "", prompt_.re->pattern(), row, text, "ready"});
  }
  return out;
}

namespace {

std::string MatchJson(const RuleMatch& m) {
  JsonObject o;
  o.Add("rule", m.rule);
  if (m.index >= 0) o.Add("index", m.index);
  if (!m.name.empty()) o.Add("name", m.name);
  o.Add("pattern", m.pattern);
  if (m.row >= 0) o.Add("row", m.row);
  else o.AddNull("row");
  o.Add("text", m.text);
  return o.Finish();
}

}  // namespace

std::string ScreenMatcher::ExplainJson(const std::vector<RuleMatch>& matches) {
  JsonObject o;
  if (matches.empty()) {
    o.Add("verdict", "unknown").AddNull("rule")
        .Add("note", "no rule matched: no dialog, question, busy pattern, busy OSC or title, "
                     "or prompt of this engine is on screen");
    o.AddRaw("also", "[]");
    return o.Finish();
  }
  const RuleMatch& first = matches.front();
  std::string where = first.row >= 0 ? "row " + std::to_string(first.row)
                      : first.rule == "busy_title" ? std::string("the window title")
                                                   : std::string("the OSC payload");
  std::string rule = first.rule + (first.index >= 0 ? "[" + std::to_string(first.index) + "]" : "");
  if (!first.name.empty()) rule += " (" + first.name + ")";
  std::string note = first.text.empty() && first.row < 0
                         ? rule + " decided it: " + first.pattern
                         : rule + " matched " + where + ": " + first.text;
  std::string also = "[";
  for (size_t i = 1; i < matches.size(); ++i) also += (i > 1 ? "," : "") + MatchJson(matches[i]);
  also += "]";
  o.Add("verdict", first.verdict).AddRaw("rule", MatchJson(first)).Add("note", note).AddRaw("also", also);
  return o.Finish();
}

std::string ScreenMatcher::ExplainJson(const std::vector<RuleMatch>& matches, const StartedLatch& latch,
                                       bool starting) const {
  std::string screen = ExplainJson(matches);
  if (started_.empty()) return screen;
  JsonObject started;
  started.Add("seen", latch.seen);
  if (latch.seen) started.AddRaw("rule", MatchJson(latch.match));
  std::vector<std::string> patterns;
  for (const Compiled& c : started_) patterns.push_back(c.re ? c.re->pattern() : "");
  started.AddStringArray("patterns", patterns);
  if (!starting || latch.seen) {
    screen.pop_back();  // the closing brace: "started" joins the object
    return screen + ",\"started\":" + started.Finish() + "}";
  }
  std::string list;
  for (size_t i = 0; i < patterns.size(); ++i) {
    list += (i ? ", " : "") + std::string("started[") + std::to_string(i) + "] " + patterns[i];
  }
  std::string also = "[";
  for (size_t i = 0; i < matches.size(); ++i) also += (i ? "," : "") + MatchJson(matches[i]);
  also += "]";
  std::string seen_on_screen = matches.empty() ? "no rule matches the screen"
                                               : matches.front().rule + " matches the screen";
  JsonObject o;
  o.Add("verdict", "starting").AddNull("rule")
      .Add("note", "starting: none of the engine's `started` patterns has been seen yet (" + list +
                       "); " + seen_on_screen)
      .AddRaw("also", also).AddRaw("started", started.Finish());
  return o.Finish();
}

}  // namespace tuidriver
