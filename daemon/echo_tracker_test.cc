#include "echo_tracker.h"

#include <gtest/gtest.h>

#include "terminal.h"
#include "test_fakes.h"

namespace tuidriver {
namespace {

constexpr int kEchoOsc = 7703;

class EchoTrackerTest : public ::testing::Test {
 protected:
  EchoTrackerTest() : term_(40, 5, 100) {}
  // Types `line` at the prompt: the tracker notes it, and the screen's
  // generation at the write (nothing shown since).
  void Type(EchoTracker* echo, const std::string& line) {
    echo->LineTyped(term_, line);
    written_ = term_.generation();
  }
  bool PromptIsNext(const EchoTracker& echo, bool from_pipe = false) const {
    return echo.PromptIsNext(term_, written_, from_pipe);
  }
  Terminal term_;
  uint64_t written_ = 0;
};

TEST_F(EchoTrackerTest, TheTypedLinesPromptIsNotTheNextOne) {
  Feed(&term_, "out\r\n>>> ");
  EchoTracker echo(0);
  Type(&echo, "1+1");
  EXPECT_EQ(1u, echo.row());
  EXPECT_EQ(4, echo.prompt_cols());
  EXPECT_FALSE(echo.seen());
  EXPECT_FALSE(PromptIsNext(echo));
  Feed(&term_, "1+1");  // the echo, on the prompt's row
  EXPECT_FALSE(PromptIsNext(echo));
  Feed(&term_, "\r\n2\r\n>>> ");
  EXPECT_TRUE(PromptIsNext(echo));
}

TEST_F(EchoTrackerTest, OnceNoPromptShowedAPromptOnTheSameRowIsNext) {
  // A program that redraws in place: its prompt went away and came back.
  Feed(&term_, "> ");
  EchoTracker echo(0);
  Type(&echo, "go");
  echo.NoPromptSeen();
  EXPECT_TRUE(echo.seen());
  EXPECT_TRUE(PromptIsNext(echo));
  echo.Forget();  // typed again
  EXPECT_FALSE(PromptIsNext(echo));
}

TEST_F(EchoTrackerTest, AClearedScreenWipesTheEcho) {
  Feed(&term_, "a\r\nb\r\n$ ");
  EchoTracker echo(0);
  Type(&echo, "clear");
  EXPECT_EQ(2u, echo.row());
  EXPECT_FALSE(echo.Wiped(term_, written_));  // the screen has not changed since
  Feed(&term_, "\x1b[H\x1b[2J$ ");           // `clear`: the next prompt at the top
  EXPECT_TRUE(echo.Wiped(term_, written_));
  EXPECT_TRUE(PromptIsNext(echo));
}

TEST_F(EchoTrackerTest, TheEchoOrThePromptOnTheRowIsNoWipe) {
  Feed(&term_, "$ ");
  EchoTracker echo(0);
  Type(&echo, "\tcode");  // shown up to the TAB: an empty start, never judged
  Feed(&term_, "x");
  EXPECT_FALSE(echo.Wiped(term_, written_));
  Type(&echo, "echo hi");
  Feed(&term_, "\r\x1b[K$ echo hi");  // redrawn, the line on it
  EXPECT_FALSE(echo.Wiped(term_, written_));
}

TEST_F(EchoTrackerTest, TheHelpersMarkEndsItsRedrawOfTheEcho) {
  Feed(&term_, "\x1b]7703;1\x07td>>> ");  // the mark of the previous submission
  EchoTracker echo(kEchoOsc);
  Type(&echo, "run(2)");
  Feed(&term_, "run(2)\r\n\x1b[1A\r\x1b[Jtd>>> ");  // the redraw, read half drawn
  echo.NoPromptSeen();
  EXPECT_FALSE(echo.FollowMarker(term_));
  EXPECT_FALSE(echo.redrawn());
  EXPECT_FALSE(PromptIsNext(echo));  // a prompt on the typed row before the mark
  Feed(&term_, "code\r\n\x1b]7703;2\x07out\r\n");
  EXPECT_TRUE(echo.FollowMarker(term_));
  EXPECT_EQ("2", echo.report().substr(echo.report().size() - 1));
  EXPECT_EQ(1u, term_.osc_row(kEchoOsc));
  EXPECT_FALSE(echo.FollowMarker(term_));  // once per mark
  Feed(&term_, "td>>> ");
  EXPECT_TRUE(echo.redrawn());
  EXPECT_TRUE(PromptIsNext(echo));
}

TEST_F(EchoTrackerTest, WithNothingTypedAnyPromptBeforeTheMarkIsTheREPLs) {
  Feed(&term_, "td>>> ");
  EchoTracker echo(kEchoOsc);
  Type(&echo, "");
  Feed(&term_, "x = 1\r\ntd>>> ");  // a person's line ran first
  EXPECT_TRUE(PromptIsNext(echo, false));
  EXPECT_FALSE(PromptIsNext(echo, true));
  Feed(&term_, "\x1b]7703;1\x07" "42\r\ntd>>> ");
  EXPECT_TRUE(echo.FollowMarker(term_));
  EXPECT_TRUE(PromptIsNext(echo, true));
}

TEST_F(EchoTrackerTest, TheTypedRowFollowsAResize) {
  Terminal term(10, 5, 100);
  Feed(&term, "0123456789abcde\r\n> ");  // a line wrapped over two rows
  EchoTracker echo(0);
  echo.LineTyped(term, "go");
  EXPECT_EQ(2u, echo.row());
  term.Resize(20, 5);  // the line unwraps: the prompt's row is one up
  echo.FollowResize(term);
  EXPECT_EQ(CursorRow(term), echo.row());
  EXPECT_EQ(1u, echo.row());
}

TEST_F(EchoTrackerTest, AWholePromptKeepsOnlyItsRow) {
  Feed(&term_, "\r\n\r\n> ");
  EchoTracker echo(0);
  echo.PromptTyped(term_);
  EXPECT_EQ(2u, echo.row());
  EXPECT_EQ(0, echo.prompt_cols());
}

}  // namespace
}  // namespace tuidriver
