// How an ask's prompt is typed, the engine's way (submit.*): whole, typed or
// pasted in chunks, or a line at a time; wrapped into one line ({json}) or
// sent down the prompt pipe ({pipe}); the keys of an answer; and Enter
// pressed again when a paste took it in (submit.resubmit_ms). The keystrokes
// go out paced through its Typist.
//
// Pure logic: it reads the terminal's modes (bracketed paste, key modes),
// writes through a ChildInput and is driven with explicit times
// (Update(..., now) plus next_wakeup()). When to type the next line
// (LineTurn), and whether a lost Enter is to be pressed again (TurnWatch),
// the Ask's turn parts decide from the screen.
#ifndef TUIDRIVER_SUBMISSION_H_
#define TUIDRIVER_SUBMISSION_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "child.h"
#include "clock.h"
#include "engine_config.h"
#include "terminal.h"
#include "typist.h"

namespace tuidriver {

class Submission {
 public:
  // `config` must outlive the Submission.
  explicit Submission(const EngineConfig& config) : config_(config) {}

  // submit.mode `lines`: the lines to type, one at a time. With submit.wrap,
  // one line (the prompt goes down the prompt pipe first, for {pipe}).
  void SplitLines(const std::string& prompt, ChildInput* child);
  // The next line to type (TypeLine), or null: the prompt is all typed. At a
  // continuation prompt (`continuation`) after the last line comes, once, the
  // empty line that closes the block (submit.close_blocks).
  const std::string* NextLine(bool continuation);
  // Queues one line and its Enter; nothing when the helper runs the prompt
  // from the pipe (runs_from_pipe()).
  void TypeLine(const Terminal& term, const std::string& line);
  // Queues the whole prompt (submit.mode `paste` or `type`) and its Enter.
  void TypeWhole(const Terminal& term, const std::string& text);
  // Queues an answer: `text` typed, then `keys` one at a time a little
  // apart, none before `not_before`.
  void TypeAnswer(const Terminal& term, const std::string& text, const std::vector<std::string>& keys,
                  TimePoint not_before);

  // Writes what is due. `generation`: the screen's (Terminal::generation()).
  void Update(uint64_t generation, ChildInput* child, TimePoint now) { typist_.Update(generation, child, now); }
  // True once all that was queued went out.
  bool typed() const { return typist_.empty(); }
  // The prompt's Enter went out at `now`: resubmit_ms counts from here.
  void Submitted(TimePoint now) { typist_.Submitted(now); }
  TimePoint next_wakeup() const { return typist_.next_wakeup(); }
  // The screen's generation at the last write: unchanged means no echo yet.
  uint64_t written_generation() const { return typist_.written_generation(); }

  // submit.resubmit_ms: when to press Enter again, counted from the later
  // of `last_change` (the screen's) and the last Enter; max() when the
  // engine does not, or no more.
  TimePoint ResubmitDue(TimePoint last_change) const;
  // Checked at `due` and not pressed: the next chance comes with a change.
  void DeclineResubmit(TimePoint due) { typist_.Decline(due); }
  void Resubmit(const Terminal& term, ChildInput* child, TimePoint now);

  // Drops what is queued (the ask failed).
  void Clear() { typist_.Clear(); }
  // Drops what is queued and forgets the Enters pressed again (the ask is
  // typed again).
  void Restart() { typist_.Restart(); }

  // The prompt's number in the prompt pipe, 0 if none.
  uint64_t piped() const { return piped_; }
  // submit.pipe_only with the prompt in the pipe: nothing is typed, the
  // helper runs it from the pipe.
  bool runs_from_pipe() const { return piped_ > 0 && config_.submit.pipe_only; }
  // Voids a piped prompt the helper has not taken (`taken`: its echo mark
  // came), with submit.enter_only or submit.pipe_only, where an Enter alone
  // would run it.
  void DropUntaken(ChildInput* child, bool taken);

 private:
  std::string WrapPrompt(const std::string& prompt, ChildInput* child);
  std::string EnterBytes(const Terminal& term) const;

  const EngineConfig& config_;
  Typist typist_;  // the prompt's and answers' keystrokes, paced; resubmits
  std::vector<std::string> lines_;  // `lines`: the prompt's lines
  size_t next_line_ = 0;
  bool block_closed_ = false;
  uint64_t piped_ = 0;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_SUBMISSION_H_
