// Turning rendered rows into the clean text of a reply. Pure functions over
// rows of text, so they are tested on captured screens.
#ifndef TUIDRIVER_REPLY_EXTRACTOR_H_
#define TUIDRIVER_REPLY_EXTRACTOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine_config.h"

namespace tuidriver {

class ScreenMatcher;
class Terminal;

struct Row {
  std::string text;
  bool wrapped = false;  // the terminal wrapped this row onto the next
};

// Rows with absolute numbers in [first, end) that the terminal still holds.
std::vector<Row> RowsBetween(const Terminal& term, uint64_t first, uint64_t end);

// Joins rows into lines: a wrapped row continues on the next row with no
// line break; other rows end with "\n" (none after the last).
std::string JoinRows(const std::vector<Row>& rows);

// How many rows the echo of `text` typed after a prompt of `prompt_cols`
// columns takes on a screen `cols` wide.
int EchoRows(int prompt_cols, const std::string& text, int cols);

// The reply of an agent TUI: rows after the last echo of the prompt's first
// line, from the first reply.start row up to the last reply.end row (or the
// end; callers pass rows up to the input prompt's row), with
// chrome rows and tools' reports (reply.tool_output) dropped and markers and
// indents removed. `cols` is the screen
// width, used to undo the program's own word wrap when reply.unwrap is set.
// `partial` (a reply still being drawn): the reply's last row is left out,
// since the program may still be writing it; every other row is complete.
// Empty when the screen shows only the reply's tail (see MarkedReplyRows).
std::string ExtractMarkedReply(const std::vector<Row>& rows,
                               const std::string& prompt,
                               const ScreenMatcher& matcher,
                               const ReplyConfig& config, int cols,
                               bool partial = false);

// The same in steps, for a reply taller than the screen that the program
// never scrolls into the history (Codex redraws its whole view in place and
// pins the prompt's echo above the reply's end), so no one screen shows it
// whole. MarkedReplyRows: the reply's rows as ExtractMarkedReply reads them,
// markers and indents removed, not yet unwrapped; *headless when the row after
// the echo continues a reply whose first rows are gone. MergeReplyRows: a
// later screen's rows `window` placed after the rows `*seen` so far, where the
// end of `*seen` shows again at the start of `window`; false, `*seen` left
// alone, when they share no rows (rows in between were never on screen).
// JoinReplyRows: unwrapped (reply.unwrap) and joined into the reply's text.
std::vector<std::string> MarkedReplyRows(const std::vector<Row>& rows, const std::string& prompt,
                                         const ScreenMatcher& matcher, const ReplyConfig& config,
                                         bool partial, bool* headless);
bool MergeReplyRows(std::vector<std::string>* seen, const std::vector<std::string>& window);
std::string JoinReplyRows(std::vector<std::string> rows, const ReplyConfig& config, int cols);

// Undoes a program's own word wrap: a row is joined to the next with a
// space when the next row's first word would not have fit after it within
// `width` columns. Rows are already stripped of markers and indents.
std::vector<std::string> UnwrapWordWrapped(const std::vector<std::string>& rows,
                                           int width);

}  // namespace tuidriver

#endif  // TUIDRIVER_REPLY_EXTRACTOR_H_
