#include "markdown_text.h"

#include <cctype>
#include <cstring>
#include <string_view>
#include <vector>

namespace tuidriver {
namespace {

bool IsFence(const std::string& line) {
  size_t at = line.find_first_not_of(' ');
  return at != std::string::npos && (line.compare(at, 3, "```") == 0 || line.compare(at, 3, "~~~") == 0);
}

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || (c & 0x80); }

// A table's rule row: only pipes, dashes, colons and blanks.
bool IsTableRule(const std::string& line) {
  return line.find('-') != std::string::npos && line.find('|') != std::string::npos &&
         line.find_first_not_of("|-: ") == std::string::npos;
}

// [label](target) -> label; ![alt](target) -> alt.
std::string DropLinkTargets(const std::string& line) {
  std::string out;
  for (size_t i = 0; i < line.size(); ++i) {
    size_t close = line[i] == '[' ? line.find("](", i) : std::string::npos;
    size_t end = close == std::string::npos ? std::string::npos : line.find(')', close);
    if (end == std::string::npos) {
      out += line[i];
      continue;
    }
    if (!out.empty() && out.back() == '!') out.pop_back();
    out += line.substr(i + 1, close - i - 1);
    i = end;
  }
  return out;
}

// Emphasis marks and backticks: a run of * _ ~ ` that does not sit between
// two word characters (snake_case keeps its underscore).
std::string DropMarks(const std::string& line) {
  std::string out;
  for (size_t i = 0; i < line.size();) {
    size_t j = i;
    while (j < line.size() && (line[j] == '*' || line[j] == '_' || line[j] == '~' || line[j] == '`')) ++j;
    if (j == i) {
      out += line[i++];
      continue;
    }
    bool inside_word = i > 0 && j < line.size() && IsWordChar(line[i - 1]) && IsWordChar(line[j]);
    bool bullet = j == i + 1 && line[i] == '*' && j < line.size() && line[j] == ' ' &&
                  line.find_first_not_of(' ') == i;  // "* item" is a list, not a mark
    if (inside_word || bullet) out += line.substr(i, j - i);
    i = j;
  }
  return out;
}

std::string PlainLine(std::string line) {
  size_t at = line.find_first_not_of(' ');
  if (at != std::string::npos && line[at] == '>') line.erase(at, line.compare(at, 2, "> ") == 0 ? 2 : 1);
  at = line.find_first_not_of(' ');
  if (at != std::string::npos && line[at] == '#') {
    size_t hashes = line.find_first_not_of('#', at);
    if (hashes != std::string::npos && hashes - at <= 6 && line[hashes] == ' ') line.erase(at, hashes - at + 1);
  }
  line = DropMarks(DropLinkTargets(line));
  if (line.find('|') != std::string::npos && line.find_first_not_of(' ') != std::string::npos &&
      line[line.find_first_not_of(' ')] == '|') {
    std::string cells;
    for (char c : line) cells += c == '|' ? std::string("  ") : std::string(1, c);
    size_t start = cells.find_first_not_of(' ');
    size_t end = cells.find_last_not_of(' ');
    line = start == std::string::npos ? std::string() : cells.substr(start, end - start + 1);
  }
  return line;
}

}  // namespace

std::string MarkdownText(const std::string& markdown) {
  std::string out;
  bool in_code = false;
  bool first = true;
  size_t from = 0;
  while (from <= markdown.size()) {
    size_t nl = markdown.find('\n', from);
    std::string line = markdown.substr(from, nl == std::string::npos ? std::string::npos : nl - from);
    from = nl == std::string::npos ? markdown.size() + 1 : nl + 1;
    if (IsFence(line)) {
      in_code = !in_code;
      continue;
    }
    if (!in_code && IsTableRule(line)) continue;
    if (!first) out += '\n';
    first = false;
    out += in_code ? line : PlainLine(line);
  }
  return out;
}

namespace {

// Letters and digits (any byte of a multi-byte UTF-8 character counts as one).
bool IsWordByte(char c) { return std::isalnum(static_cast<unsigned char>(c)) || (c & 0x80); }

// A word of a text and where it starts.
struct Word {
  std::string text;
  size_t at;
};

// The words of `text` in order, URLs left out: a TUI may show a link's
// target beside its label, or only the label.
std::vector<Word> ShownWords(const std::string& text) {
  std::vector<Word> words;
  size_t i = 0;
  while (i < text.size()) {
    if (text.compare(i, 7, "http://") == 0 || text.compare(i, 8, "https://") == 0) {
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) && text[i] != ')' &&
             text[i] != '>' && text[i] != ']') {
        ++i;
      }
      continue;
    }
    if (!IsWordByte(text[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && IsWordByte(text[i])) ++i;
    words.push_back({text.substr(start, i - start), start});
  }
  return words;
}

// Where in `text` the last showing of `markdown`'s words, in order, begins
// (the TUI may add words of its own between them); npos when `text` does not
// show them all, 0 for a markdown without words.
size_t AnswerStart(const std::string& text, const std::string& markdown) {
  std::vector<Word> want = ShownWords(MarkdownText(markdown));
  std::vector<Word> shown = ShownWords(text);
  if (want.empty()) return 0;
  size_t next = want.size();  // matched from the end: the latest start that still shows every word
  for (size_t i = shown.size(); i-- > 0;) {
    if (shown[i].text == want[next - 1].text && --next == 0) return shown[i].at;
  }
  return std::string::npos;
}

// The sentence punctuation that ends `text` ("." of "says hi."), blanks after it aside.
std::string_view ClosingPunctuation(std::string_view text) {
  size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string_view::npos) return {};
  size_t start = end + 1;
  while (start > 0 && std::strchr(".!?:;,", text[start - 1]) != nullptr) --start;
  return text.substr(start, end + 1 - start);
}

}  // namespace

bool ShowsAllWordsOf(const std::string& text, const std::string& markdown) {
  // A last piece still unpainted may be punctuation alone (Copilot drew
  // "says hi" and the "." after it later), which the words do not tell.
  return AnswerStart(text, markdown) != std::string::npos &&
         ClosingPunctuation(text) == ClosingPunctuation(MarkdownText(markdown));
}

std::string FromAnswerStart(const std::string& text, const std::string& markdown) {
  size_t at = AnswerStart(text, markdown);
  if (at == std::string::npos || at == 0) return text;
  size_t line = text.rfind('\n', at);
  return line == std::string::npos ? text : text.substr(line + 1);
}

}  // namespace tuidriver
