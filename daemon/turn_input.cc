#include "turn_input.h"

#include <re2/re2.h>

#include <cstdlib>
#include <memory>

#include "text.h"

namespace tuidriver {
InputQuestion ParseInputQuestion(const std::string& text, const InputOptionsConfig& config) {
  InputQuestion q;
  std::vector<std::string> lines = SplitLines(text);
  std::unique_ptr<RE2> option, selected;
  if (!config.option.empty()) option = std::make_unique<RE2>(config.option);
  if (!config.selected.empty()) selected = std::make_unique<RE2>(config.selected);
  size_t first_option = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string number, label;
    if (!option || !RE2::PartialMatch(lines[i], *option, &number, &label)) continue;
    // Choices are numbered 1, 2, 3...: anything else is text that merely
    // looks like one (a numbered list in the question).
    int n = std::atoi(number.c_str());
    if (n != static_cast<int>(q.options.size()) + 1) continue;
    if (q.options.empty()) first_option = i;
    if (selected && RE2::PartialMatch(lines[i], *selected)) q.selected = static_cast<int>(q.options.size());
    q.options.push_back({n, Trim(label)});
  }
  std::string question;
  for (size_t i = 0; i < first_option && i < lines.size(); ++i) {
    std::string line = Trim(lines[i]);
    if (line.empty()) continue;
    if (!question.empty()) question += '\n';
    question += line;
  }
  q.question = question.empty() ? text : question;
  if (!q.options.empty() && q.selected < 0) q.selected = 0;
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
    *err = q.options.empty() ? "the question lists no numbered choices; answer with 'text'"
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
