#include "reply_extractor.h"

#include <algorithm>
#include <cctype>

#include "screen_matcher.h"
#include "terminal.h"
#include "text.h"
#include "utf8.h"

namespace tuidriver {
namespace {

std::string FirstLine(const std::string& s) {
  return s.substr(0, s.find('\n'));
}

// Logical lines: wrapped rows joined. `last_row_at`, if given, gets for
// each line the byte offset where its last row begins.
std::vector<std::string> LogicalLines(const std::vector<Row>& rows,
                                      std::vector<size_t>* last_row_at = nullptr) {
  std::vector<std::string> lines;
  std::vector<size_t> at;
  bool continued = false;
  for (const Row& r : rows) {
    if (continued) {
      at.back() = lines.back().size();
      lines.back() += r.text;
    } else {
      lines.push_back(r.text);
      at.push_back(0);
    }
    continued = r.wrapped;
  }
  if (last_row_at) last_row_at->swap(at);
  return lines;
}

// Partial reply: the last body row may still be drawn, so it is left out
// (of a terminal-wrapped line, only its last row). `from` maps each body
// line to the offset of its last row in the logical line it came from.
void DropRowBeingDrawn(std::vector<std::string>* body, const std::vector<size_t>& from) {
  if (body->empty()) return;
  size_t keep = from[body->size() - 1];
  if (keep == 0) {
    body->pop_back();
  } else {
    body->back() = TrimRight(body->back().substr(0, std::min(keep, body->back().size())));
  }
  while (!body->empty() && body->back().empty()) body->pop_back();
}

// The echo's text without a short field right-aligned after it on its row
// (Copilot shows the time there: `❯ say hello            22:04`).
std::string WithoutRightAlignedField(const std::string& rest) {
  size_t gap = rest.rfind("   ");
  if (gap == std::string::npos) return rest;
  std::string field = Trim(rest.substr(gap));
  if (field.empty() || field.find(' ') != std::string::npos || StringColumns(field) > 8) return rest;
  return TrimRight(rest.substr(0, gap));
}

// True when `line` shows `needle` right after an input-prompt marker: a few
// columns holding a symbol but no letter or digit ("› ", "❯ ", " > "), and
// nothing but the prompt's first line (or the start of it, when wrapped)
// after it: "  - second item" in a reply is no echo of the prompt "second".
bool EchoedAfterMarker(const std::string& line, const std::string& needle, const std::string& first_line) {
  size_t pos = line.find(needle);
  if (pos == std::string::npos) return false;
  std::string rest = Trim(line.substr(pos));
  if (first_line.compare(0, rest.size(), rest) != 0) {
    rest = WithoutRightAlignedField(rest);
    if (first_line.compare(0, rest.size(), rest) != 0) return false;
  }
  std::string marker = Trim(line.substr(0, pos));
  if (marker.empty() || StringColumns(marker) > 4) return false;
  // A list bullet in a reply ("- the prompt", "• the prompt") is no input marker.
  static const char* const kBullets[] = {"-", "*", "+", "\u2022", "\u00b7", "\u2013"};
  for (const char* bullet : kBullets) {
    if (marker == bullet) return false;
  }
  for (char ch : marker) {
    if (std::isalnum(static_cast<unsigned char>(ch))) return false;
  }
  return true;
}

// The last line at or after `from` that echoes the prompt's first line (its
// first 40 columns, since a long echo may be wrapped or cut): right after an
// input marker, else (a program that echoes without one) at the start of the
// line. A line that merely contains the text (a reply saying "Third" to the
// prompt "hi") is not its echo, nor is a reply's first line ("● hi there").
int FindEcho(const std::vector<std::string>& lines, int from, int end,
             const std::string& prompt, const ScreenMatcher& matcher) {
  std::string first_line = Trim(FirstLine(prompt));
  std::string needle = first_line.substr(0, 40);
  if (needle.empty()) return -1;
  size_t prefix;
  for (int i = end - 1; i >= from; --i) {
    const std::string& line = lines[static_cast<size_t>(i)];
    if (EchoedAfterMarker(line, needle, first_line) && !matcher.IsReplyStart(line, &prefix)) return i;
  }
  for (int i = end - 1; i >= from; --i) {
    if (Trim(lines[static_cast<size_t>(i)]).compare(0, needle.size(), needle) == 0) return i;
  }
  return -1;
}

// The first line after the echo that is a reply's continuation row (indented,
// neither chrome nor a tool's report): a TUI that pins the prompt's echo above
// the end of a long reply (Codex) shows no reply.start row any more.
bool ContinuesAReply(const std::string& line, const ScreenMatcher& matcher, const ReplyConfig& config) {
  const std::string& indent = config.continuation_indent;
  return !indent.empty() && line.compare(0, indent.size(), indent) == 0 && !Trim(line).empty() &&
         !matcher.IsChrome(line) && !matcher.IsToolOutput(line);
}

// Whether the reply.start row lines[i] heads a tool's block: its report
// (reply.tool_output) follows, after the rows the head's own text wrapped
// onto (Cline wraps a long command in its indent: ` * run_commands(echo …`,
// `   …txt)`, `   ⎿ output`).
bool HeadsAToolBlock(const std::vector<std::string>& lines, int i, int end, const ScreenMatcher& matcher,
                     const ReplyConfig& config) {
  size_t prefix;
  for (int j = i + 1; j < end; ++j) {
    const std::string& line = lines[static_cast<size_t>(j)];
    if (matcher.IsToolOutput(line)) return true;
    if (!ContinuesAReply(line, matcher, config) || matcher.IsReplyStart(line, &prefix)) return false;
  }
  return false;
}

// The reply's lines in lines[from, end): reply.start rows without their
// marker, later rows without the continuation indent; chrome rows, tools'
// reports and what reply.other_start begins left out. *last_row gets, per
// line, where its last row begins.
// *headless: no reply.start row, the first line after the echo continues a
// reply (its tail, when nothing but a later reply.start row follows).
void CollectBody(const std::vector<std::string>& lines, const std::vector<size_t>& last_row_at,
                 int from, int end, const ScreenMatcher& matcher, const ReplyConfig& config,
                 std::vector<std::string>* body, std::vector<size_t>* last_row, bool* headless) {
  bool started = false;
  bool left_out = false;  // in a tool's report or a notice, up to the next reply.start
  bool first_content = true;
  *headless = false;
  for (int i = from; i < end; ++i) {
    const std::string& line = lines[static_cast<size_t>(i)];
    size_t at = last_row_at[static_cast<size_t>(i)];
    size_t prefix = 0;
    // Chrome is never part of a reply, even where it looks like a reply's
    // first row (pi's spinner row is indented as its text is).
    if (matcher.IsChrome(line)) continue;
    if (matcher.IsReplyStart(line, &prefix)) {
      if (*headless) {  // the reply begins here after all
        body->clear();
        last_row->clear();
        *headless = false;
      }
      left_out = HeadsAToolBlock(lines, i, end, matcher, config);
      if (left_out) continue;
      started = true;
      body->push_back(TrimRight(line.substr(prefix)));
      last_row->push_back(at > prefix ? at - prefix : 0);
      continue;
    }
    if (matcher.IsOtherStart(line)) {  // a notice below the reply, not part of it
      left_out = true;
      continue;
    }
    if (!started && first_content && !Trim(line).empty()) {
      first_content = false;
      started = *headless = ContinuesAReply(line, matcher, config);
    }
    if (!started || left_out) continue;
    const std::string& indent = config.continuation_indent;
    size_t cut = !indent.empty() && line.compare(0, indent.size(), indent) == 0 ? indent.size() : 0;
    body->push_back(TrimRight(line.substr(cut)));
    last_row->push_back(at > cut ? at - cut : 0);
  }
}

}  // namespace

std::vector<Row> RowsBetween(const Terminal& term, uint64_t first, uint64_t end) {
  std::vector<Row> rows;
  if (first < term.first_retained_row()) first = term.first_retained_row();
  for (uint64_t r = first; r < end; ++r) {
    Row row;
    if (!term.LineAt(r, &row.text, &row.wrapped, true)) break;
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string JoinRows(const std::vector<Row>& rows) {
  std::string out;
  for (size_t i = 0; i < rows.size(); ++i) {
    out += rows[i].text;
    if (i + 1 < rows.size() && !rows[i].wrapped) out += '\n';
  }
  return out;
}

int EchoRows(int prompt_cols, const std::string& text, int cols) {
  if (cols <= 0) return 1;
  int width = prompt_cols + StringColumns(text);
  return width <= cols ? 1 : (width + cols - 1) / cols;
}

std::vector<std::string> UnwrapWordWrapped(const std::vector<std::string>& rows,
                                           int width) {
  const int kWrapSlack = 2;
  const int kProseWordColumns = 20;  // "supercalifragilistic"; longer ones are URLs, paths, code
  // A TUI may wrap a little short of the edge (margins): when rows run close
  // to the edge, the longest one shows where it really wraps.
  int longest = 0;
  for (const std::string& row : rows) longest = std::max(longest, StringColumns(row));
  if (longest >= width - 8 && longest < width) width = longest;
  std::vector<std::string> out;
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string& row = rows[i];
    bool join = false;
    bool inside_word = false;
    if (i > 0 && !row.empty() && !rows[i - 1].empty()) {
      const std::string& prev = rows[i - 1];
      // A word-wrapper breaks a line where the next word would not fit.
      std::string first_word = row.substr(0, row.find(' '));
      int prev_cols = StringColumns(prev);
      // Wrappers differ by a column or two at the edge (a trailing space
      // kept, a margin): allow that much slack.
      join = prev_cols + 1 + StringColumns(first_word) > width - kWrapSlack;
      // A word longer than a row (a long URL, a code line) is broken inside
      // it, on a full row, where there was no space (Claude starts such a
      // word on the row it reaches, as wrap-ansi does). A full row can also
      // end with a whole word; the two are told apart by length: a break
      // inside a word happens only when the word cannot fit on one row. On
      // rows over twice as wide as a long word of prose, two such words
      // never fill more than a row together; narrower rows keep the space.
      size_t last_space = prev.rfind(' ');
      std::string last_word = last_space == std::string::npos ? prev : prev.substr(last_space + 1);
      inside_word = join && width > 2 * kProseWordColumns && prev_cols == width && row[0] != ' ' &&
                    StringColumns(last_word) + StringColumns(first_word) > width;
    }
    if (inside_word) {
      out.back() += row;
    } else if (join) {
      // A wrapper that kept the space at the break (at the row's end, or
      // at the next row's start, as Qwen Code's does) already gave it.
      bool spaced = out.back().back() == ' ' || row[0] == ' ';
      out.back() += (spaced ? "" : " ") + row;
    } else {
      out.push_back(row);
    }
  }
  return out;
}

std::string ExtractMarkedReply(const std::vector<Row>& rows, const std::string& prompt,
                               const ScreenMatcher& matcher, const ReplyConfig& config,
                               int cols, bool partial) {
  bool headless = false;
  std::vector<std::string> body = MarkedReplyRows(rows, prompt, matcher, config, partial, &headless);
  return headless ? std::string() : JoinReplyRows(body, config, cols);
}

std::string JoinReplyRows(std::vector<std::string> body, const ReplyConfig& config, int cols) {
  if (config.unwrap) body = UnwrapWordWrapped(body, cols - static_cast<int>(config.continuation_indent.size()));
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (i) out += '\n';
    out += body[i];
  }
  return out;
}

bool MergeReplyRows(std::vector<std::string>* seen, const std::vector<std::string>& window) {
  // The longest run of rows that ends *seen and begins `window`, with text in it.
  for (size_t k = std::min(seen->size(), window.size()); k > 0; --k) {
    auto common = window.begin() + static_cast<long>(k);
    if (!std::equal(window.begin(), common, seen->end() - static_cast<long>(k))) continue;
    if (std::all_of(window.begin(), common, [](const std::string& r) { return Trim(r).empty(); })) break;
    seen->erase(seen->end() - static_cast<long>(k), seen->end());
    seen->insert(seen->end(), window.begin(), window.end());
    return true;
  }
  return window.empty();
}

std::vector<std::string> MarkedReplyRows(const std::vector<Row>& rows, const std::string& prompt,
                                         const ScreenMatcher& matcher, const ReplyConfig& config,
                                         bool partial, bool* headless) {
  *headless = false;
  std::vector<Row> stripped = rows;
  for (Row& row : stripped) matcher.StripRow(&row.text);
  std::vector<size_t> last_row_at;
  std::vector<std::string> lines = LogicalLines(stripped, &last_row_at);
  // The reply ends at the last `end` row (the input box's top border sits
  // just above the prompt, where the rows handed to us stop). An echo below
  // that row is this turn's, whose own end row is not drawn yet (opencode
  // ends each reply with a footer): the last one on the screen ends an
  // earlier turn, and the echo above it would be that turn's.
  int end = static_cast<int>(lines.size());
  int last_end = -1;
  for (int i = end - 1; i >= 0; --i) {
    if (matcher.IsReplyEnd(lines[static_cast<size_t>(i)])) {
      last_end = i;
      break;
    }
  }
  int echo = FindEcho(lines, last_end + 1, end, prompt, matcher);
  if (echo < 0 && last_end >= 0) {
    end = last_end;
    echo = FindEcho(lines, 0, end, prompt, matcher);
  }
  // No echo yet: whatever is on the screen belongs to earlier turns.
  if (echo < 0) return {};
  // The echo of a multi-line prompt spans several rows: skip to its last.
  std::string last_line = Trim(prompt.substr(prompt.rfind('\n') == std::string::npos ? 0 : prompt.rfind('\n') + 1));
  if (echo >= 0 && prompt.find('\n') != std::string::npos && !last_line.empty()) {
    if (last_line.size() > 40) last_line.resize(40);
    for (int i = echo; i < end; ++i) {
      if (lines[static_cast<size_t>(i)].find(last_line) != std::string::npos) { echo = i; break; }
    }
  }
  std::vector<std::string> body;
  std::vector<size_t> body_last_row;  // per body line: where its last row begins
  CollectBody(lines, last_row_at, echo + 1, end, matcher, config, &body, &body_last_row, headless);
  while (!body.empty() && body.back().empty()) body.pop_back();
  if (partial) DropRowBeingDrawn(&body, body_last_row);
  return body;
}

}  // namespace tuidriver
