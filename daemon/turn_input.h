// Questions inside a turn (an ask with "on_input":"wait"): the choices a
// needs_input question lists, parsed by the engine's needs_input_options,
// and the keys that answer it (messages.h builds the needs_input event). Pure functions over
// text, so they are tested on captured screens.
#ifndef TUIDRIVER_TURN_INPUT_H_
#define TUIDRIVER_TURN_INPUT_H_

#include <re2/re2.h>

#include <memory>
#include <string>
#include <vector>

#include "engine_config.h"
#include "messages.h"
#include "request.h"

namespace tuidriver {

// Parses the question text NeedsInput found (its matching row down to the
// end of the screen), with the engine's patterns compiled once: a question
// is parsed at every look while it settles.
class InputQuestionParser {
 public:
  explicit InputQuestionParser(const InputOptionsConfig& config);  // keeps a reference
  InputQuestion Parse(const std::string& text) const;

 private:
  InputQuestion ParseNamedChoices(const std::string& text) const;
  const InputOptionsConfig& config_;
  std::unique_ptr<RE2> option_;
  std::unique_ptr<RE2> selected_;
};


// The keys that answer `q` with choice number `option` (> 0); for free
// text (option 0) the keys that confirm it, once the caller typed it.
// False with *err when there is no such choice.
bool AnswerKeys(const InputQuestion& q, const InputOptionsConfig& config, int option,
                std::vector<std::string>* keys, std::string* err);


}  // namespace tuidriver

#endif  // TUIDRIVER_TURN_INPUT_H_
