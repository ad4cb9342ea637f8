// The engine's screen patterns, compiled once, and the questions the
// daemon asks of a screen: is the input prompt showing, is the program
// busy, is a dialog or an unanswered question on screen.
#ifndef TUIDRIVER_SCREEN_MATCHER_H_
#define TUIDRIVER_SCREEN_MATCHER_H_

#include <re2/re2.h>

#include <memory>
#include <string>
#include <vector>

#include "engine_config.h"
#include "terminal.h"

namespace tuidriver {

// The text a cursor-scoped pattern sees: the cursor's row from column 0 up
// to the cursor, blanks kept (a prompt such as ">>> " ends in one), and
// nothing after it (placeholder text in an input box is not typed text).
std::string CursorLineText(const Terminal& term);

// One engine rule that matches the current screen, for status.explain.
struct RuleMatch {
  std::string rule;     // busy, busy_osc, busy_title, prompt, dialog, needs_input
  int index = -1;       // its entry in the engine file's list (busy, dialogs, needs_input)
  std::string name;     // dialogs: the rule's name
  std::string pattern;  // the pattern that matched
  int row = -1;         // screen row that matched; -1 for title and OSC
  std::string text;     // that row's text, or the title or OSC payload
  std::string verdict;  // what it makes the screen: busy, ready, dialog, needs_input
};

// The engine's `started` patterns, latched: once one has been seen, on the
// screen or in the history above it, it stays met after it scrolls away (a
// resumed conversation scrolls a banner off at once).
struct StartedLatch {
  bool seen = false;
  RuleMatch match;        // rule "started": its index, pattern and row text;
                          // row: the screen row it was seen on, -1 in the history
  uint64_t next_row = 0;  // history rows before this absolute row were looked at
};

class ScreenMatcher {
 public:
  // The config must have been validated (all patterns compile). Keeps no
  // reference to it.
  explicit ScreenMatcher(const EngineConfig& config);

  bool PromptVisible(const Terminal& term) const;
  // Text on the cursor line before the input (or continuation) prompt: the
  // end of output that had no final newline ("hello>>> "). Empty when no
  // cursor-line prompt shows.
  std::string TextBeforePrompt(const Terminal& term) const;
  bool ContinuationVisible(const Terminal& term) const;
  // Input a person left unfinished at a line REPL: text typed after the
  // input or continuation prompt without its Enter, or a continuation
  // prompt (a block begun). *text: the rows from the prompt to the cursor.
  bool UnfinishedInput(const Terminal& term, std::string* text) const;
  // Looks for a `started` pattern in the rows not looked at yet (the
  // history since latch->next_row, then the screen) and latches it. True
  // once one was seen, or when the engine lists none.
  bool UpdateStarted(const Terminal& term, StartedLatch* latch) const;
  // Any busy pattern on screen, or the busy OSC or window title says so.
  bool Busy(const Terminal& term) const;
  // An interrupt key armed the interrupt: the next must follow (PacedKeys).
  bool InterruptArmed(const Terminal& term) const {
    int row;
    return Matches(interrupt_armed_, term, &row);
  }
  // Prompt showing and not busy: the program waits for input.
  bool Ready(const Terminal& term) const {
    return PromptVisible(term) && !Busy(term);
  }

  bool IsChrome(const std::string& row) const;
  bool IsReplyEnd(const std::string& row) const;
  // Removes reply.strip's match from the row.
  void StripRow(std::string* row) const;
  bool IsToolOutput(const std::string& row) const;
  // reply.other_start: the row begins something that is not the reply.
  bool IsOtherStart(const std::string& row) const;
  // Matches reply.start at the start of row; *prefix_len is the match length.
  bool IsReplyStart(const std::string& row, size_t* prefix_len) const;

  // The first dialog rule for `mode` whose pattern is on screen, or -1.
  int MatchDialog(const Terminal& term, const std::string& mode) const;
  // An unanswered question on screen: fills *question with the screen
  // text from the matching row down.
  bool NeedsInput(const Terminal& term, std::string* question) const;
  // needs_input_options.incomplete shows: the question is still being drawn.
  bool QuestionIncomplete(const Terminal& term) const;

  // Every rule that matches the screen, the deciding one first, in the
  // order the daemon weighs them: a dialog rule for `mode` (answered by
  // keys), a needs_input question, a busy rule (pattern, OSC, title), the
  // prompt (ready). Empty: no rule matched.
  std::vector<RuleMatch> Explain(const Terminal& term, const std::string& mode) const;
  // status.explain: the deciding rule and what it matched, or that none did.
  static std::string ExplainJson(const std::vector<RuleMatch>& matches);
  // The same, with what the `started` patterns decide: "started" says which
  // was seen (or that none was); while `starting` and none was seen, that is
  // what holds the session, so the verdict is "starting".
  std::string ExplainJson(const std::vector<RuleMatch>& matches, const StartedLatch& latch,
                          bool starting) const;

 private:
  struct Compiled {
    std::unique_ptr<RE2> re;
    MatchScope scope = MatchScope::kScreen;
  };
  static Compiled Compile(const ScreenPattern& p);
  // With prompt_osc: where the prompt's mark is, as a screen row and column,
  // when the session's mark is on screen (on the screen shown); false if not.
  bool MarkOnScreen(const Terminal& term, int* row, int* col) const;
  // The text the prompt patterns see: with prompt_osc, the cursor's row from
  // the mark to the cursor (false when the mark is not on that row), and in
  // *before what is left of the mark; else the whole CursorLineText.
  bool PromptText(const Terminal& term, std::string* text, std::string* before) const;
  // prompt_ or continuation_ on the cursor's row, as PromptText gives it.
  bool PromptMatches(const Compiled& c, const Terminal& term, int* row) const;
  static bool Matches(const Compiled& c, const Terminal& term, int* row);
  static std::string MatchedText(const Compiled& c, const Terminal& term, int row);
  void ExplainBusy(const Terminal& term, std::vector<RuleMatch>* out) const;

  Compiled prompt_;
  Compiled continuation_;
  Compiled interrupt_armed_;
  std::vector<Compiled> started_;
  std::vector<Compiled> busy_;
  std::vector<Compiled> needs_input_;
  std::vector<std::unique_ptr<RE2>> chrome_;
  std::unique_ptr<RE2> reply_start_;
  std::unique_ptr<RE2> reply_end_;
  std::unique_ptr<RE2> strip_;
  std::unique_ptr<RE2> tool_output_;
  std::unique_ptr<RE2> other_start_;
  std::unique_ptr<RE2> question_start_;
  Compiled question_incomplete_;
  int prompt_osc_ = 0;
  std::string prompt_mark_;
  int busy_osc_ = 0;
  std::unique_ptr<RE2> busy_osc_pattern_;
  bool busy_until_osc_ = false;
  std::unique_ptr<RE2> busy_title_;
  struct Dialog {
    std::unique_ptr<RE2> re;
    std::vector<std::string> modes;
    std::string name;
  };
  std::vector<Dialog> dialogs_;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_SCREEN_MATCHER_H_
