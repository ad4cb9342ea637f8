// An ask's reply as the screen gives it. For a line-by-line REPL (submit.mode
// `lines`): each line's output, from after its echo (or the helper's echo
// mark) to the next prompt (or the helper's end mark), joined. For a TUI: the
// rows from the ask's first row down to the input prompt, cut by the engine's
// reply marker (reply_extractor.h), with the rows of a reply taller than the
// screen gathered from every screen they were drawn on, and the reply the
// screen gave before the ask began kept to tell it from this one's. And
// whether the submission exited, by the helper's report.
//
// Pure logic over a Terminal, with no time of its own: the Ask's LineTurn
// tells it when a line is typed and closed, and the Ask asks it for the
// text.
#ifndef TUIDRIVER_REPLY_COLLECTOR_H_
#define TUIDRIVER_REPLY_COLLECTOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "echo_tracker.h"
#include "engine_config.h"
#include "reply_extractor.h"
#include "screen_matcher.h"
#include "terminal.h"

namespace tuidriver {

class ReplyCollector {
 public:
  // `config`, `matcher` and `prompt` (sanitised, as typed) must outlive it.
  ReplyCollector(const EngineConfig& config, const ScreenMatcher& matcher, const std::string& prompt)
      : config_(config), matcher_(matcher), prompt_(prompt) {}

  // The ask starts at the cursor (`lines`) or at the screen's top; a marked
  // reply already on screen is noted (ShowsStartReply).
  void Start(const Terminal& term, const EchoTracker& echo);
  // The ask is typed again: the rows gathered so far are forgotten.
  void Reset();
  // A line was typed (echo.LineTyped): its output starts after its echo.
  void LineTyped(const Terminal& term, const EchoTracker& echo, const std::string& line);
  // The helper's echo mark came: the line's output starts at its row.
  void OutputFrom(uint64_t row) { output_start_ = row; }
  // The helper's end mark of the line whose echo mark was followed (the
  // same payload) ends its output.
  void FollowEndMarker(const Terminal& term, const EchoTracker& echo);
  // The line's output is complete (a prompt came back): it joins the text.
  void CloseLine(const Terminal& term, const EchoTracker& echo, uint64_t written_generation);
  // A marked reply's complete rows as the screen shows them now, added to
  // those seen before.
  void RememberRows(const Terminal& term);

  // The reply so far. `final`: the program is done, its last line is
  // complete. `waiting`: a typed line's output is being drawn (`lines`).
  std::string Text(const Terminal& term, const EchoTracker& echo, bool final, bool waiting) const;
  // A failed ask's text: what it printed so far, with the unfinished last
  // line (a question, a partial line) of a `lines` engine.
  std::string Unfinished(const Terminal& term, const EchoTracker& echo, bool waiting) const;
  // The screen gives the marked reply it gave at Start.
  bool ShowsStartReply(const Terminal& term, const EchoTracker& echo) const;
  // ask_stream: the reply so far (while a line's output is drawn), unless
  // the screen may still give the reply it gave at Start: that reply, or
  // its beginning.
  bool NewSoFar(const Terminal& term, const EchoTracker& echo, std::string* text) const;
  // The helper reported the submission's own exit (exit_osc, a report new
  // since Start): its status in *code.
  bool Exited(const Terminal& term, int* code) const;
  // The terminal was just resized: the rows kept follow their text.
  void FollowResize(const Terminal& term);

  uint64_t start_row() const { return start_row_; }
  // `lines`: the output of the lines closed so far.
  const std::string& finished_output() const { return finished_output_; }
  bool output_ended() const { return output_ended_; }  // the end mark came
  const std::string& start_reply() const { return start_reply_; }
  bool rows_missing() const { return rows_missing_; }  // some rows were never on screen

 private:
  // Rows from the ask's first row down to the input prompt.
  std::vector<Row> AskRows(const Terminal& term) const;
  std::string WholeText(const Terminal& term, const EchoTracker& echo, bool final) const;
  std::string MarkedOrPlain(const Terminal& term, const EchoTracker& echo, const std::vector<Row>& rows) const;
  std::string LinesText(const Terminal& term, bool final, bool waiting) const;

  const EngineConfig& config_;
  const ScreenMatcher& matcher_;
  const std::string& prompt_;
  uint64_t start_row_ = 0;  // the ask's first row: history from here is pinned
  // `lines`: output of the lines already answered, and where the current
  // line's output starts.
  std::string finished_output_;
  bool has_output_ = false;
  uint64_t output_start_ = 0;
  // Whether the helper has marked where the line's output ends (end_osc),
  // the row of its mark and the text left of it there (output without a
  // final newline).
  bool output_ended_ = false;
  uint64_t output_end_ = 0;
  std::string output_tail_;
  std::string start_reply_;             // marked replies: what the screen gave at Start
  std::string exit_report_;             // exit_osc's payload at Start
  std::vector<std::string> seen_rows_;  // marked replies: the rows seen so far
  bool rows_missing_ = false;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_REPLY_COLLECTOR_H_
