// Watches a waiting ask for a question the program asks (needs_input): on
// screen (the engine's patterns, a full-screen program that took over), or
// seen from the process (needs_input_from_process: it waits reading the
// terminal). A question counts once it settled; with on_input "fail" the ask
// then fails, with "wait" it is reported once (an event) and waits for the
// `answer` request.
//
// Pure logic: it reads a Terminal, asks a ChildInput whether the program
// reads, and is driven with explicit times (Update(..., now) plus
// next_wakeup()), like the other parts.
#ifndef TUIDRIVER_QUESTION_WATCH_H_
#define TUIDRIVER_QUESTION_WATCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "child.h"
#include "clock.h"
#include "engine_config.h"
#include "request.h"
#include "terminal.h"
#include "turn_input.h"

namespace tuidriver {

class ScreenMatcher;

// Whether the program asks something now, judged from one look: it reads
// the terminal (`reader`, for an engine with needs_input_from_process;
// kUnknown where the process was not asked), a full-screen program of a
// line engine took over (a pager, an editor), or one of the engine's
// needs_input patterns shows; never while a line engine's prompt or
// continuation prompt shows. *question: what it asks; *certain: the process
// said so (no need to wait for the text to settle).
bool QuestionShows(const EngineConfig& config, const ScreenMatcher& matcher, const Terminal& term,
                   TerminalReader reader, std::string* question, bool* certain);

class QuestionWatch {
 public:
  // `config` and `matcher` must outlive the watch. `wait_input`: on_input "wait".
  QuestionWatch(const EngineConfig& config, const ScreenMatcher& matcher, bool wait_input)
      : config_(config), matcher_(matcher), wait_input_(wait_input), parser_(config.needs_input_options) {}

  // Looks again. `generation` and `last_change`: the screen's generation
  // and when it last changed. True when a question counts that the ask
  // cannot wait on (on_input "fail"): *question holds it.
  bool Update(const Terminal& term, const ChildInput& child, uint64_t generation, TimePoint last_change,
              TimePoint now, std::string* question);
  // A question was on screen at the last update.
  bool pending() const { return pending_; }
  // The program is being asked whether it reads (needs_input_from_process).
  bool probing() const { return probing_; }
  // Pending: when the question counts (max() once reported: then only new
  // output matters). Else the next probe while probing; else max().
  TimePoint next_wakeup() const;

  // on_input "wait": a needs_input event to send, once per question.
  bool TakeInputEvent(const RequestId& id, std::string* json);
  // A reported question is waiting for its answer.
  bool waiting_for_answer() const { return reported_ && !answered_; }
  // The keys that answer the reported question (`option`, or 0 for text).
  // False with *err when the option does not fit it.
  bool Answer(int option, std::vector<std::string>* keys, std::string* err);
  // The client sent the program input while a question was reported (keys
  // answer the choices of a CLI that does not number them).
  void InputSent() { responded_ = responded_ || reported_; }
  // When the reported question settled.
  TimePoint shown_at() const { return shown_at_; }
  // When an answer may go out: kAnswerAfterMs after the question settled.
  TimePoint answer_due() const { return shown_at_ + Ms(kAnswerAfterMs); }
  // The ask is typed again: no question seen or reported yet.
  void Reset();

  static constexpr int kProbeQuietMs = 100;  // output quiet this long before the process is asked
  static constexpr int kProbeEveryMs = 100;  // and again this often while it stays quiet
  static constexpr int kStableMs = 50;       // a question's text unchanged this long counts
  // A TUI may ignore keys for a moment after it shows a question, so that a
  // key meant for something else does not answer it (Claude drops them for
  // about half a second): an answer goes out no sooner than this after it.
  static constexpr int kAnswerAfterMs = 800;
  static constexpr int kMaxWaitMs = 400;     // a question first seen this long ago counts
  static constexpr int kGoneMs = 300;        // gone this long: the next question is a new one
  // An engine's question whose options are not drawn yet, that its
  // `incomplete` row says is not whole, or an earlier one of this ask drawn
  // again, counts only once first seen this long ago (see Settled).
  static constexpr int kOptionsLateMs = 1500;

 private:
  bool QuestionUp(const Terminal& term, const ChildInput& child, uint64_t generation, TimePoint last_change,
                  TimePoint now, std::string* question, bool* certain);
  TerminalReader ProbeReader(const ChildInput& child, uint64_t generation, TimePoint last_change, TimePoint now);
  bool Settled(const std::string& question, bool incomplete, TimePoint last_change, TimePoint now);
  bool CountsLate(const std::string& question) const;
  bool NextQuestion(const std::string& question, TimePoint now) const;
  void Report(const std::string& question, TimePoint now);

  const EngineConfig& config_;
  const ScreenMatcher& matcher_;
  const bool wait_input_;
  const InputQuestionParser parser_;

  // A question on screen, waiting to settle (its text as last seen, since
  // when, since when it has been up, and when it will count).
  bool pending_ = false;
  bool seen_ever_ = false;
  std::string seen_;
  TimePoint since_;
  TimePoint first_;
  TimePoint due_;

  // needs_input_from_process: the last answer, the screen it holds for, when
  // to ask next, and whether the ask waits for that (no prompt showing).
  TerminalReader reader_ = TerminalReader::kNotReading;
  uint64_t reader_generation_ = ~0ull;
  TimePoint next_probe_;
  bool probing_ = false;

  // on_input "wait": the question reported and not yet gone, whether it was
  // answered (`answer`), whether the client responded (`answer` or input),
  // and since when the screen has shown none.
  bool reported_ = false;
  bool answered_ = false;
  bool responded_ = false;
  bool event_pending_ = false;
  std::string reported_text_;
  InputQuestion input_question_;
  std::vector<std::string> asked_;  // the questions reported in this ask, as on screen
  TimePoint gone_since_;
  TimePoint shown_at_;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_QUESTION_WATCH_H_
