#include "line_turn.h"

#include <gtest/gtest.h>

#include "echo_tracker.h"
#include "engine_config.h"
#include "reply_collector.h"
#include "screen_matcher.h"
#include "submission.h"
#include "terminal.h"
#include "test_fakes.h"

namespace tuidriver {
namespace {

// A Python REPL as the engines describe one: `>>> ` at the cursor, `... `
// inside a block, and `Working` on screen while busy.
EngineConfig Repl() {
  EngineConfig c;
  c.prompt = {">>> $", MatchScope::kCursorLine};
  c.continuation_prompt = {"\\.\\.\\. $", MatchScope::kCursorLine};
  c.busy = {{"Working", MatchScope::kScreen}};
  c.submit.mode = SubmitMode::kLines;
  return c;
}

// A prompt typed a line at a time on a REPL showing `screen`, the way the
// Ask types it: the lines queued go out at the fake time given (Typed),
// then the screen is judged. `pipe`: the program has a prompt pipe.
struct Lines {
  Lines(const EngineConfig& c, const std::string& prompt, const std::string& screen = ">>> ", bool pipe = false)
      : config(c),
        term(40, 10, 100),
        matcher(config),
        text(prompt),
        submission(config),
        echo(config.echo_osc),
        reply(config, matcher, text),
        turn(config, matcher, &submission, &echo, &reply) {
    Feed(&term, screen);
    child.has_pipe = pipe;
    reply.Start(term, echo);
    turn.Start(term, text, &child);
  }
  // What went out at `ms`.
  std::string Typed(long ms) {
    submission.Update(term.generation(), &child, clock.At(ms));
    return child.Take();
  }
  std::string Reply() const { return reply.Text(term, echo, true, true); }
  EngineConfig config;  // the parts hold it
  Terminal term;
  ScreenMatcher matcher;
  std::string text;  // the prompt, before `reply`, which holds it
  Submission submission;
  EchoTracker echo;
  ReplyCollector reply;
  LineTurn turn;
  FakeChild child;
  FakeClock clock;
};

TEST(LineTurn, ALineIsDoneWhenTheNextPromptComesBack) {
  Lines lines(Repl(), "6*7");
  EXPECT_EQ("6*7\r", lines.Typed(0));
  EXPECT_EQ(LineTurn::Verdict::kGoing, lines.turn.Judge(lines.term));  // the prompt it was typed at
  Feed(&lines.term, "6*7\r\n42\r\n");
  EXPECT_EQ(LineTurn::Verdict::kGoing, lines.turn.Judge(lines.term));
  Feed(&lines.term, ">>> ");
  EXPECT_EQ(LineTurn::Verdict::kDone, lines.turn.Judge(lines.term));
  EXPECT_EQ("42", lines.Reply());
}

TEST(LineTurn, EachLineIsTypedOnceThePreviousOneIsDone) {
  Lines lines(Repl(), "x = 6\nx*7\n\n");
  EXPECT_EQ("x = 6\r", lines.Typed(0));
  Feed(&lines.term, "x = 6\r\n>>> ");
  EXPECT_EQ(LineTurn::Verdict::kNextLine, lines.turn.Judge(lines.term));
  EXPECT_EQ("x*7\r", lines.Typed(10));
  EXPECT_EQ(LineTurn::Verdict::kGoing, lines.turn.Judge(lines.term));
  Feed(&lines.term, "x*7\r\n42\r\n>>> ");
  EXPECT_EQ(LineTurn::Verdict::kDone, lines.turn.Judge(lines.term));  // the empty lines at the end are not typed
  EXPECT_EQ("", lines.Typed(20));
  EXPECT_EQ("42", lines.Reply());
}

TEST(LineTurn, ABlockLeftOpenAfterTheLastLineWaitsForMoreInput) {
  Lines lines(Repl(), "for i in range(2):");
  lines.Typed(0);
  Feed(&lines.term, "for i in range(2):\r\n... ");
  EXPECT_EQ(LineTurn::Verdict::kMoreInput, lines.turn.Judge(lines.term));
}

// submit.close_blocks: an empty line closes the block, once.
TEST(LineTurn, ABlockLeftOpenIsClosedWithAnEmptyLine) {
  EngineConfig c = Repl();
  c.submit.close_blocks = true;
  Lines lines(c, "for i in range(2):\n    print(i)");
  lines.Typed(0);
  Feed(&lines.term, "for i in range(2):\r\n... ");
  EXPECT_EQ(LineTurn::Verdict::kNextLine, lines.turn.Judge(lines.term));
  EXPECT_EQ("    print(i)\r", lines.Typed(10));
  Feed(&lines.term, "    print(i)\r\n... ");
  EXPECT_EQ(LineTurn::Verdict::kNextLine, lines.turn.Judge(lines.term));
  EXPECT_EQ("\r", lines.Typed(20));
  Feed(&lines.term, "\r\n0\r\n1\r\n>>> ");
  EXPECT_EQ(LineTurn::Verdict::kDone, lines.turn.Judge(lines.term));
  EXPECT_EQ("0\n1", lines.Reply());
}

TEST(LineTurn, APromptWhileBusyIsNotTheEnd) {
  Lines lines(Repl(), "run()");
  lines.Typed(0);
  Feed(&lines.term, "run()\r\nWorking\r\n>>> ");
  EXPECT_EQ(LineTurn::Verdict::kGoing, lines.turn.Judge(lines.term));
  Feed(&lines.term, "\x1b[2;1H\x1b[Kdone\x1b[3;5H");
  EXPECT_EQ(LineTurn::Verdict::kDone, lines.turn.Judge(lines.term));
}

// The helper marks where each submission's output ends (end_osc): a prompt
// drawn before the mark is not the end, a continuation prompt needs none.
TEST(LineTurn, APromptBeforeTheHelpersEndMarkIsNotTheEnd) {
  EngineConfig c = Repl();
  c.echo_osc = 7703;
  c.end_osc = 7705;
  Lines lines(c, "6*7");
  lines.Typed(0);
  Feed(&lines.term, "6*7\r\n\x1b]7703;1\x07" "42\r\n>>> ");
  ASSERT_TRUE(lines.echo.FollowMarker(lines.term));
  lines.reply.OutputFrom(lines.term.osc_row(c.echo_osc));
  lines.reply.FollowEndMarker(lines.term, lines.echo);
  EXPECT_EQ(LineTurn::Verdict::kGoing, lines.turn.Judge(lines.term));
  Feed(&lines.term, "\r\x1b[K\x1b]7705;1\x07>>> ");
  lines.reply.FollowEndMarker(lines.term, lines.echo);
  EXPECT_EQ(LineTurn::Verdict::kDone, lines.turn.Judge(lines.term));
  EXPECT_EQ("42", lines.Reply());
}

// submit.pipe_only: nothing is typed; any prompt before the helper's echo
// mark is the REPL's from before it ran the prompt.
TEST(LineTurn, APipedPromptIsDoneOnlyAfterTheHelpersEchoMark) {
  EngineConfig c = Repl();
  c.echo_osc = 7703;
  c.submit.wrap = "__td({pipe})";
  c.submit.pipe_only = true;
  Lines lines(c, "6*7", "busy()\r\n", true);
  EXPECT_EQ("", lines.Typed(0));
  EXPECT_EQ(std::vector<std::string>{"6*7"}, lines.child.piped);
  Feed(&lines.term, "done\r\n>>> ");  // a person's line ends
  EXPECT_EQ(LineTurn::Verdict::kGoing, lines.turn.Judge(lines.term));
  Feed(&lines.term, "\r\x1b[J>>> 6*7\r\n\x1b]7703;1\x07" "42\r\n>>> ");
  ASSERT_TRUE(lines.echo.FollowMarker(lines.term));
  lines.reply.OutputFrom(lines.term.osc_row(c.echo_osc));
  EXPECT_EQ(LineTurn::Verdict::kDone, lines.turn.Judge(lines.term));
  EXPECT_EQ("42", lines.Reply());
}

}  // namespace
}  // namespace tuidriver
