#include "reply_collector.h"

#include <gtest/gtest.h>

#include "echo_tracker.h"
#include "engine_config.h"
#include "screen_matcher.h"
#include "terminal.h"
#include "test_fakes.h"

namespace tuidriver {
namespace {

// A line-by-line REPL, its helper marking each line's echo and end as
// python_repl.py does when the engine asks for it.
EngineConfig Repl(int echo_osc = 0, int end_osc = 0) {
  EngineConfig c;
  c.prompt = {">>> $", MatchScope::kCursorLine};
  c.submit.mode = SubmitMode::kLines;
  c.echo_osc = echo_osc;
  c.end_osc = end_osc;
  return c;
}

// Types each line the way the Ask does: the echo tracker, then the reply.
struct Typing {
  Typing(const EngineConfig& c, const std::string& p)
      : matcher(c), prompt(p), echo(c.echo_osc), reply(c, matcher, prompt) {}
  void Line(const Terminal& term, const std::string& line) {
    echo.LineTyped(term, line);
    reply.LineTyped(term, echo, line);
    written = term.generation();
  }
  ScreenMatcher matcher;
  std::string prompt;  // before `reply`, which holds it
  EchoTracker echo;
  ReplyCollector reply;
  uint64_t written = 0;
};

TEST(ReplyCollector, EachLinesOutputIsJoined) {
  EngineConfig c = Repl();
  Terminal term(40, 10, 100);
  Feed(&term, ">>> ");
  Typing t(c, "print(1)\nprint(2)");
  t.reply.Start(term, t.echo);
  t.Line(term, "print(1)");
  Feed(&term, "print(1)\r\n1\r\n");
  EXPECT_EQ("1\n", t.reply.Text(term, t.echo, false, true));  // a complete row, while the line runs
  EXPECT_EQ("", t.reply.Text(term, t.echo, false, false));    // nothing closed yet, still typing
  Feed(&term, ">>> ");
  t.reply.CloseLine(term, t.echo, t.written);
  EXPECT_EQ("1", t.reply.finished_output());
  t.Line(term, "print(2)");
  Feed(&term, "print(2)\r\n2\r\n>>> ");
  t.reply.CloseLine(term, t.echo, t.written);
  EXPECT_EQ("1\n2", t.reply.Text(term, t.echo, true, true));
}

TEST(ReplyCollector, OutputWithoutAFinalNewlineEndsOnThePromptsRow) {
  EngineConfig c = Repl();
  Terminal term(40, 10, 100);
  Feed(&term, ">>> ");
  Typing t(c, "p()");
  t.reply.Start(term, t.echo);
  t.Line(term, "p()");
  Feed(&term, "p()\r\none\r\ntwo>>> ");
  t.reply.CloseLine(term, t.echo, t.written);
  EXPECT_EQ("one\ntwo", t.reply.Text(term, t.echo, true, false));
}

TEST(ReplyCollector, AClearedScreensOutputStartsAtTheTop) {
  EngineConfig c = Repl();
  Terminal term(40, 10, 100);
  Feed(&term, "a\r\nb\r\n>>> ");
  Typing t(c, "cls()");
  t.reply.Start(term, t.echo);
  t.Line(term, "cls()");
  Feed(&term, "\x1b[H\x1b[2Jhi\r\n>>> ");  // cleared before the echo showed
  t.reply.CloseLine(term, t.echo, t.written);
  EXPECT_EQ("hi", t.reply.finished_output());
}

TEST(ReplyCollector, AnUnfinishedLineEndsWithWhatTheCursorsRowShows) {
  EngineConfig c = Repl();
  Terminal term(40, 10, 100);
  Feed(&term, ">>> ");
  Typing t(c, "input()");
  t.reply.Start(term, t.echo);
  t.Line(term, "input()");
  Feed(&term, "input()\r\nready\r\nName? ");
  EXPECT_EQ("ready\nName? ", t.reply.Unfinished(term, t.echo, true));
  EXPECT_EQ("", t.reply.Unfinished(term, t.echo, false));  // still typing: no line's output yet
}

TEST(ReplyCollector, TheHelpersMarksBoundTheOutput) {
  constexpr int kEcho = 7703, kEnd = 7705;
  EngineConfig c = Repl(kEcho, kEnd);
  c.prompt = {"td>>> $", MatchScope::kCursorLine};
  Terminal term(40, 10, 100);
  Feed(&term, "td>>> ");
  Typing t(c, "run(1)");
  t.reply.Start(term, t.echo);
  t.Line(term, "run(1)");
  // The helper redraws the echo as the code, marks it, prints, marks the
  // end, then shows late output above a fresh prompt.
  Feed(&term, "run(1)\r\n\x1b[1A\r\x1b[Jtd>>> code\r\n\x1b]7703;1\x07out\r\n\x1b]7705;1\x07td>>> LATE\r\ntd>>> ");
  t.reply.FollowEndMarker(term, t.echo);
  EXPECT_FALSE(t.reply.output_ended()) << "not before the echo's mark was followed";
  ASSERT_TRUE(t.echo.FollowMarker(term));
  t.reply.OutputFrom(term.osc_row(kEcho));
  t.reply.FollowEndMarker(term, t.echo);
  EXPECT_TRUE(t.reply.output_ended());
  t.reply.CloseLine(term, t.echo, t.written);
  EXPECT_EQ("out", t.reply.finished_output());
}

// An agent TUI without a reply marker: the rows after the prompt's echo.
TEST(ReplyCollector, APlainReplyIsTheRowsAfterTheEcho) {
  EngineConfig c;
  c.prompt = {"^> ", MatchScope::kScreen};
  c.submit.mode = SubmitMode::kType;
  Terminal term(40, 10, 100);
  Feed(&term, "> ");
  Typing t(c, "hello");
  t.reply.Start(term, t.echo);
  t.echo.PromptTyped(term);
  Feed(&term, "hello\r\nworld\r\nand more\r\n> ");
  EXPECT_EQ("world\nand more", t.reply.Text(term, t.echo, true, true));
  EXPECT_EQ("world\n", t.reply.Text(term, t.echo, false, true));  // the last line may still change
}

EngineConfig Marked() {
  EngineConfig c;
  c.prompt = {"^> ", MatchScope::kScreen};
  c.submit.mode = SubmitMode::kPaste;
  c.reply.start = "^\\* ";
  return c;
}

TEST(ReplyCollector, TheReplyOnScreenAtStartIsKnownAgain) {
  EngineConfig c = Marked();
  Terminal term(40, 10, 100);
  Feed(&term, "> hi\r\n* old answer\r\n> ");
  Typing t(c, "hi");
  t.reply.Start(term, t.echo);
  EXPECT_EQ("old answer", t.reply.start_reply());
  EXPECT_TRUE(t.reply.ShowsStartReply(term, t.echo));
  Feed(&term, "\x1b[H\x1b[2J> hi\r\n* new answer\r\n> ");
  EXPECT_FALSE(t.reply.ShowsStartReply(term, t.echo));
  EXPECT_EQ("new answer", t.reply.Text(term, t.echo, true, true));
}

// Codex pins the prompt's echo above the end of a reply taller than the
// screen: the reply is gathered from each screen it was drawn on.
TEST(ReplyCollector, ATallReplyIsGatheredFromEveryScreen) {
  EngineConfig c;
  std::string err;
  ASSERT_TRUE(LoadEngineFile(TUIDRIVER_SOURCE_DIR "/engines/codex.json", &c, &err)) << err;
  Terminal term(40, 12, 100);
  Typing t(c, "tall");
  t.reply.Start(term, t.echo);
  Feed(&term, "\x1b[H\x1b[2J\xe2\x80\xba tall\r\n\xe2\x80\xa2 row 0\r\n\r\n  row 1\r\n\r\n  row 2\r\n\r\n");
  t.reply.RememberRows(term);
  // The last row was left out as still being drawn; the next screen shows
  // the reply's tail from the last row kept.
  Feed(&term, "\x1b[H\x1b[2J\xe2\x80\xba tall\r\n  row 1\r\n\r\n  row 2\r\n\r\n  row 3\r\n\r\n");
  EXPECT_EQ("row 0\n\nrow 1\n\nrow 2\n\nrow 3", t.reply.Text(term, t.echo, true, true));
  t.reply.RememberRows(term);
  EXPECT_FALSE(t.reply.rows_missing());
  Feed(&term, "\x1b[H\x1b[2J\xe2\x80\xba tall\r\n  row 9\r\n\r\n  row 10\r\n\r\n");  // rows 4 to 8 never shown
  t.reply.RememberRows(term);
  EXPECT_TRUE(t.reply.rows_missing());
  t.reply.Reset();
  EXPECT_FALSE(t.reply.rows_missing());
}

// ask_stream: the previous turn's reply to the same prompt, or its
// beginning, is not this turn's; a reply that differs or outgrows it is.
TEST(ReplyCollector, TheReplySoFarIsNewOnceItIsNotTheOneOnScreenAtStart) {
  EngineConfig c = Marked();
  Terminal term(40, 10, 100);
  Feed(&term, "> hi\r\n* old answer\r\n> ");
  Typing t(c, "hi");
  t.reply.Start(term, t.echo);
  std::string so_far;
  EXPECT_FALSE(t.reply.NewSoFar(term, t.echo, &so_far));  // the old reply, whole
  Feed(&term, "\x1b[H\x1b[2J> hi\r\n* old\r\n> ");
  EXPECT_FALSE(t.reply.NewSoFar(term, t.echo, &so_far));  // its beginning
  // Not final, the row being drawn (the reply's last) is left out.
  Feed(&term, "\x1b[H\x1b[2J> hi\r\n* old answer, and more\r\nbeing drawn\r\n> ");
  ASSERT_TRUE(t.reply.NewSoFar(term, t.echo, &so_far));
  EXPECT_EQ(0u, so_far.rfind("old answer, and more", 0)) << so_far;
  Feed(&term, "\x1b[H\x1b[2J> hi\r\n* new\r\nbeing drawn\r\n> ");
  ASSERT_TRUE(t.reply.NewSoFar(term, t.echo, &so_far));
  EXPECT_EQ(0u, so_far.rfind("new", 0)) << so_far;
}

// The helper reports a submission's own exit (sys.exit()) as "SEQ;CODE" in
// exit_osc: only a report new since the ask began counts.
TEST(ReplyCollector, AnExitReportNewSinceStartIsTheSubmissionsExit) {
  EngineConfig c = Repl();
  c.exit_osc = 7702;
  Terminal term(40, 10, 100);
  Feed(&term, "\x1b]7702;1;3\x07>>> ");  // an earlier ask's exit
  Typing t(c, "raise SystemExit(4)");
  t.reply.Start(term, t.echo);
  int code = -1;
  EXPECT_FALSE(t.reply.Exited(term, &code));
  Feed(&term, "raise SystemExit(4)\r\n\x1b]7702;2;4\x07>>> ");
  ASSERT_TRUE(t.reply.Exited(term, &code));
  EXPECT_EQ(4, code);
  EngineConfig unreported = Repl();  // an engine without the report
  Typing plain(unreported, "raise SystemExit(4)");
  plain.reply.Start(term, plain.echo);
  EXPECT_FALSE(plain.reply.Exited(term, &code));
}

TEST(ReplyCollector, TheRowsKeptFollowAResize) {
  EngineConfig c = Repl();
  Terminal term(10, 10, 100);
  Feed(&term, "0123456789abcde\r\n>>> ");  // a line wrapped over two rows
  Typing t(c, "1");
  t.reply.Start(term, t.echo);
  EXPECT_EQ(2u, t.reply.start_row());
  term.Resize(20, 10);
  t.reply.FollowResize(term);
  EXPECT_EQ(1u, t.reply.start_row());
}

}  // namespace
}  // namespace tuidriver
