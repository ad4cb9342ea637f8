// The words a reader of rendered markdown sees, for a reply whose text no
// screen ever showed whole (a TUI that skips rows of a long answer it never
// scrolls into the history): marks removed, the words and lines kept.
#ifndef TUIDRIVER_MARKDOWN_TEXT_H_
#define TUIDRIVER_MARKDOWN_TEXT_H_

#include <string>

namespace tuidriver {

// Fence lines dropped (the code between them kept as it is); outside code:
// heading marks, emphasis marks (*, **, _, __, ~~) around words, backticks and
// blockquote marks removed; [label](target) and ![alt](target) become their
// label; a table's rule row is dropped and its cells are joined by two spaces.
std::string MarkdownText(const std::string& markdown);

// Whether `text` (a reply as the screen showed it) holds every word of
// `markdown`'s rendering, in order (URLs aside; the TUI may add words of its
// own between them), and ends with the same sentence punctuation. A TUI
// that draws rows after it says it is done leaves text cut short ("It adds
// two nu", "says hi" without its ".") or with blank rows (opencode's code
// blocks, highlighted later): then the reply's text is built from the
// markdown instead.
bool ShowsAllWordsOf(const std::string& text, const std::string& markdown);

// `text` from the line where the last showing of `markdown`'s words (in
// order) begins: what the TUI drew above the answer in the reply's area (a
// tool's report of its command and output, as pi draws it) is not the
// answer. `text` as it is when it does not show every word.
std::string FromAnswerStart(const std::string& text, const std::string& markdown);

}  // namespace tuidriver

#endif  // TUIDRIVER_MARKDOWN_TEXT_H_
