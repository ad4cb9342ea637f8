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

}  // namespace tuidriver

#endif  // TUIDRIVER_MARKDOWN_TEXT_H_
