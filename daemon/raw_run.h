// A line run in a raw session (the `run` request; MCP's `run` is this):
// what a person does at a shell. Once the program is done with what came
// before (quiet, and not running), the line is typed with Enter; the run
// ends when the output has been quiet idle_ms and the program no longer
// runs (back at its prompt, asking a question, or full screen), or when
// time runs out (the program is left running). Its output is the rows
// printed after the line, without the line's echo (however it wrapped, and
// each later line's continuation prompt) and without the prompt that came
// back. The state is ProgramState's judgement, the one `status` gives.
//
// Pure logic with explicit times: the session gives it the screen, the
// program and the last output's time.
#ifndef TUIDRIVER_RAW_RUN_H_
#define TUIDRIVER_RAW_RUN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "child.h"
#include "clock.h"
#include "program_state.h"
#include "request.h"
#include "terminal.h"

namespace tuidriver {

class RawRun {
 public:
  enum class Step {
    kGoing,
    kDone,          // *result holds the output
    kStillRunning,  // the command before never ended: the line was not typed
  };
  struct Result {
    std::string output;
    std::string state;     // ready, needs_input, fullscreen, running (time ran out), exited
    std::string question;  // needs_input: what the program asks
  };

  RawRun(const Request& r, TimePoint now);

  // Types the line when the program is done with what came before, then
  // judges whether the run is over.
  Step Update(const Terminal& term, SessionChild* child, const ProgramState& state, TimePoint last_output,
              TimePoint now, Result* result);
  // The program exited: what it printed after the line.
  Result Exited(const Terminal& term);
  // Cancelled: the program is interrupted as C-c would (when the line went out).
  void Cancel(SessionChild* child);
  TimePoint next_wakeup() const { return next_look_; }

  const RequestId& id() const { return id_; }
  long timeout_ms() const { return timeout_ms_; }

  static constexpr long kDefaultTimeoutMs = 30000;
  static constexpr int kSettleMs = 150;  // quiet before typing into a program not at its prompt
  static constexpr int kSettleLimitMs = 1000;  // typed then even if never quiet (a spinner), unless running
  static constexpr int kLookMs = 100;    // quiet but running: look again this often

 private:
  void Type(const Terminal& term, SessionChild* child, TimePoint now);
  Result Collect(const Terminal& term, const std::string& state, const std::string& question) const;

  RequestId id_;
  std::string line_;
  long timeout_ms_;
  int idle_ms_;
  TimePoint received_;
  TimePoint deadline_;
  bool typed_ = false;
  TimePoint typed_at_;
  uint64_t prompt_row_ = 0;  // absolute: the row the line was typed on
  std::string prompt_;       // that row's text before the cursor
  std::string first_prompt_;  // the program's prompt as first shown
  TimePoint next_look_;
};

// A run's rows as text without the typed `line`'s echo on the prompt row
// (`prompt` before it; the echo may wrap), each later line's echo after a
// continuation prompt ("> ", "... ") and, unless `open` (the program still
// runs or asks), the prompt row that ends them.
std::string DropEchoAndPrompt(const std::vector<std::string>& rows, const std::string& line,
                              const std::string& prompt, bool open);

}  // namespace tuidriver

#endif  // TUIDRIVER_RAW_RUN_H_
