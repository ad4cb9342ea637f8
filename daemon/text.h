// Line and space helpers on plain text, shared by the ask, the reply
// extractor and the question parser. Spaces only: screen rows hold no tabs.
#ifndef TUIDRIVER_TEXT_H_
#define TUIDRIVER_TEXT_H_

#include <string>
#include <vector>

namespace tuidriver {

// Every line of `text`, split at '\n': "a\nb\n" is {"a", "b", ""}.
std::vector<std::string> SplitLines(const std::string& text);
// The lines joined with '\n' between them: SplitLines' inverse.
std::string JoinLines(const std::vector<std::string>& lines);
// Without trailing spaces.
std::string TrimRight(const std::string& s);
// Without leading and trailing spaces.
std::string Trim(const std::string& s);

}  // namespace tuidriver

#endif  // TUIDRIVER_TEXT_H_
