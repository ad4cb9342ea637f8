#include "turn_input.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <utility>

#include "text.h"

namespace tuidriver {
namespace {

// The question is the rows above its first choice (all of it when a choice
// shares the question's row, as Cline's do).
std::string RowsAbove(const std::vector<std::string>& lines, size_t first_option, const std::string& text) {
  std::string question;
  for (size_t i = 0; i < first_option && i < lines.size(); ++i) {
    std::string line = Trim(lines[i]);
    if (line.empty()) continue;
    if (!question.empty()) question += '\n';
    question += line;
  }
  return question.empty() ? text : question;
}

// Where `label` stands as a cell of its own on `row`: a space or the row's
// start before it, two spaces or the row's end after it (choices are drawn
// apart, so "Allow" is not found in "Allow once"). npos: nowhere.
size_t CellAt(const std::string& row, const std::string& label) {
  for (size_t at = row.find(label); at != std::string::npos; at = row.find(label, at + 1)) {
    size_t end = at + label.size();
    bool starts = at == 0 || row[at - 1] == ' ';
    bool ends = end == row.size() || row.compare(end, 2, "  ") == 0;
    if (starts && ends) return at;
  }
  return std::string::npos;
}

}  // namespace

InputQuestionParser::InputQuestionParser(const InputOptionsConfig& config) : config_(config) {
  if (!config.option.empty()) option_ = std::make_unique<RE2>(config.option);
  if (!config.selected.empty()) selected_ = std::make_unique<RE2>(config.selected);
}

InputQuestion InputQuestionParser::Parse(const std::string& text) const {
  if (!config_.choices.empty()) return ParseNamedChoices(text);
  InputQuestion q;
  std::vector<std::string> lines = SplitLines(text);
  size_t first_option = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string number, label;
    if (!option_ || !RE2::PartialMatch(lines[i], *option_, &number, &label)) continue;
    // Choices are numbered 1, 2, 3...: anything else is text that merely
    // looks like one (a numbered list in the question).
    int n = std::atoi(number.c_str());
    if (n != static_cast<int>(q.options.size()) + 1) continue;
    if (q.options.empty()) first_option = i;
    if (selected_ && RE2::PartialMatch(lines[i], *selected_)) q.selected = static_cast<int>(q.options.size());
    q.options.push_back({n, Trim(label)});
  }
  q.question = RowsAbove(lines, first_option, text);
  if (!q.options.empty() && q.selected < 0) q.selected = 0;
  return q;
}

// The engine's named choices on screen, numbered 1, 2, 3… as they are laid
// out (by row, then column: Kilo sometimes leaves "Allow always" out, or
// shows "Allow" alone), the first highlighted (a colour, not text).
InputQuestion InputQuestionParser::ParseNamedChoices(const std::string& text) const {
  InputQuestion q;
  std::vector<std::string> lines = SplitLines(text);
  std::vector<std::pair<std::pair<size_t, size_t>, std::string>> shown;  // ((row, column), label)
  for (const std::string& label : config_.choices) {
    for (size_t i = 0; i < lines.size(); ++i) {
      size_t col = CellAt(lines[i], label);
      if (col == std::string::npos) continue;
      shown.push_back({{i, col}, label});
      break;
    }
  }
  std::sort(shown.begin(), shown.end());
  for (const auto& choice : shown) q.options.push_back({static_cast<int>(q.options.size()) + 1, choice.second});
  q.question = RowsAbove(lines, shown.empty() ? lines.size() : shown[0].first.first, text);
  if (!q.options.empty()) q.selected = 0;
  return q;
}

bool AnswerKeys(const InputQuestion& q, const InputOptionsConfig& config, int option,
                std::vector<std::string>* keys, std::string* err) {
  keys->clear();
  if (option <= 0) {
    // Free text (the caller types it first), then confirmed.
    keys->insert(keys->end(), config.confirm.begin(), config.confirm.end());
    return true;
  }
  int pos = -1;
  for (size_t i = 0; i < q.options.size(); ++i) {
    if (q.options[i].index == option) pos = static_cast<int>(i);
  }
  if (pos < 0) {
    *err = q.options.empty() ? "the question lists no choices; answer with 'text'"
                             : "no choice " + std::to_string(option) + " (the question has " +
                                   std::to_string(q.options.size()) + ")";
    return false;
  }
  if (config.select == "digits") {
    keys->push_back(std::to_string(option));
    return true;
  }
  const std::vector<std::string>& step = pos > q.selected ? config.next : config.previous;
  for (int i = 0; i < std::abs(pos - q.selected); ++i) keys->insert(keys->end(), step.begin(), step.end());
  keys->insert(keys->end(), config.confirm.begin(), config.confirm.end());
  return true;
}

}  // namespace tuidriver
