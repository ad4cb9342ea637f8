#include "question_watch.h"

#include <gtest/gtest.h>

#include "screen_matcher.h"
#include "test_fakes.h"

namespace tuidriver {
namespace {

// A REPL whose program asks on its cursor line ("Continue? ").
EngineConfig Repl(bool from_process) {
  EngineConfig c;
  c.prompt = {">>> $", MatchScope::kCursorLine};
  c.needs_input = {{"\\S.*\\? ?$", MatchScope::kCursorLine}};
  c.needs_input_from_process = from_process;
  return c;
}

// An agent whose questions are dialogs with numbered options.
EngineConfig Agent() {
  EngineConfig c;
  c.needs_input = {{"Allow execution of", MatchScope::kScreen}};
  c.needs_input_options.option = "^\\s*(\\d+)\\.\\s+(.*\\S)";
  return c;
}

// An agent that draws its question box before the question's text reached
// it, and shows so on a row above ("~ Writing command…", opencode).
EngineConfig DrawsLate() {
  EngineConfig c;
  c.needs_input = {{"Permission required", MatchScope::kScreen}};
  c.needs_input_options.incomplete = "^~ .*…$";
  return c;
}

class QuestionWatchTest : public ::testing::Test {
 protected:
  explicit QuestionWatchTest(bool wait_input = false, bool from_process = false)
      : QuestionWatchTest(Repl(from_process), wait_input) {}
  QuestionWatchTest(const EngineConfig& engine, bool wait_input)
      : engine_(engine), matcher_(engine_), term_(40, 5, 10), watch_(engine_, matcher_, wait_input) {}
  TimePoint At(int ms) const { return clock_.At(ms); }
  void Output(const std::string& s, int ms) {
    Feed(&term_, s);
    last_change_ = At(ms);
  }
  bool Update(int ms) {
    question_.clear();
    return watch_.Update(term_, child_, term_.generation(), last_change_, At(ms), &question_);
  }
  // Draws `text` at `ms` and lets it settle: the needs_input event, or "".
  std::string Asked(const std::string& text, int ms) {
    Output(text, ms);
    Update(ms);
    Update(ms + QuestionWatch::kStableMs);
    std::string event;
    watch_.TakeInputEvent(RequestId(), &event);
    return event;
  }
  // `text`, drawn at 0 and left as it is, is reported at kOptionsLateMs
  // and not before.
  void ExpectReportedOnlyLate(const std::string& text) {
    Output(text, 0);
    Update(0);
    std::string event;
    Update(QuestionWatch::kOptionsLateMs - 1);
    EXPECT_FALSE(watch_.TakeInputEvent(RequestId(), &event));
    Update(QuestionWatch::kOptionsLateMs);
    ASSERT_TRUE(watch_.TakeInputEvent(RequestId(), &event));
    std::string last_row = text.substr(text.rfind('\n') + 1);
    EXPECT_NE(std::string::npos, event.find(last_row)) << event;
  }
  // Answers the reported question with its first choice, then the program
  // draws `text` at `ms`.
  void AnswerAndShow(const std::string& text, int ms) {
    std::vector<std::string> keys;
    std::string err;
    ASSERT_TRUE(watch_.Answer(1, &keys, &err)) << err;
    Output(text, ms);
    Update(ms);
  }
  EngineConfig engine_;
  ScreenMatcher matcher_;
  Terminal term_;
  QuestionWatch watch_;
  FakeChild child_;
  FakeClock clock_;
  TimePoint last_change_ = clock_.At(0);
  std::string question_;
};

TEST_F(QuestionWatchTest, NoQuestionNoWakeUp) {
  Output("working", 0);
  EXPECT_FALSE(Update(0));
  EXPECT_FALSE(watch_.pending());
  EXPECT_EQ(TimePoint::max(), watch_.next_wakeup());
}

TEST_F(QuestionWatchTest, AQuestionCountsOnceItsTextHeldStill) {
  Output("Continue? ", 0);
  EXPECT_FALSE(Update(0));  // just drawn: maybe half a frame
  EXPECT_TRUE(watch_.pending());
  EXPECT_EQ(At(QuestionWatch::kStableMs), watch_.next_wakeup());
  EXPECT_FALSE(Update(QuestionWatch::kStableMs - 1));
  EXPECT_TRUE(Update(QuestionWatch::kStableMs));  // on_input "fail": the ask fails with it
  EXPECT_EQ("Continue?", question_);
}

TEST_F(QuestionWatchTest, AChangingQuestionCountsAfterTheLongestWait) {
  Output("Continue? ", 0);
  for (int ms = 0; ms < QuestionWatch::kMaxWaitMs; ms += 40) {
    Output(ms % 80 ? "\rGo ahead? " : "\rContinue? ", ms);
    EXPECT_FALSE(Update(ms)) << ms;
  }
  EXPECT_TRUE(Update(QuestionWatch::kMaxWaitMs));
}

class WaitingQuestionWatchTest : public QuestionWatchTest {
 protected:
  WaitingQuestionWatchTest() : QuestionWatchTest(true) {}
};

TEST_F(WaitingQuestionWatchTest, ReportsOnceThenWaitsForTheAnswer) {
  Output("Continue? ", 0);
  Update(0);
  EXPECT_FALSE(Update(QuestionWatch::kStableMs));  // on_input "wait": never fails the ask
  std::string event;
  ASSERT_TRUE(watch_.TakeInputEvent(RequestId(), &event));
  EXPECT_NE(std::string::npos, event.find("Continue?")) << event;
  EXPECT_FALSE(watch_.TakeInputEvent(RequestId(), &event));  // once per question
  EXPECT_EQ(At(QuestionWatch::kStableMs), watch_.shown_at());
  EXPECT_EQ(TimePoint::max(), watch_.next_wakeup());  // reported: only new output matters
  EXPECT_TRUE(watch_.waiting_for_answer());
  Update(500);
  EXPECT_FALSE(watch_.TakeInputEvent(RequestId(), &event));  // still the same question
  std::vector<std::string> keys;
  std::string err;
  EXPECT_FALSE(watch_.Answer(2, &keys, &err));  // no numbered choices
  EXPECT_TRUE(watch_.waiting_for_answer());
  ASSERT_TRUE(watch_.Answer(0, &keys, &err)) << err;
  EXPECT_FALSE(watch_.waiting_for_answer());
}

TEST_F(WaitingQuestionWatchTest, AQuestionGoneAWhileIsNewWhenItComesBack) {
  ASSERT_NE("", Asked("Continue? ", 0));
  Output("\r\n", 100);
  Update(100);
  EXPECT_FALSE(watch_.pending());
  Update(100 + QuestionWatch::kGoneMs);  // gone long enough
  EXPECT_NE("", Asked("Continue? ", 500));
}

// Keys the client sent answered the question (a CLI whose choices are not
// numbered): the next question, soon after, is reported too.
TEST_F(WaitingQuestionWatchTest, AfterKeysTheNextQuestionIsNew) {
  ASSERT_NE("", Asked("Continue? ", 0));
  watch_.InputSent();
  Output("\r\n", 100);
  Update(100);
  std::string event = Asked("Delete it too? ", 110);  // sooner than kGoneMs
  EXPECT_NE(std::string::npos, event.find("Delete it too?")) << event;
  EXPECT_TRUE(watch_.waiting_for_answer());
}

// The next question drawn over the answered one, with no frame between:
// new, as it begins otherwise; typing into the question only adds to it.
TEST_F(WaitingQuestionWatchTest, AQuestionReplacedInPlaceAfterAResponseIsNew) {
  ASSERT_NE("", Asked("Continue? ", 0));
  watch_.InputSent();
  EXPECT_EQ("", Asked("yes", 100));  // the answer, typed
  std::string event = Asked("\rDelete it too? \x1b[K", 300);
  EXPECT_NE(std::string::npos, event.find("Delete it too?")) << event;
}

// Without a response, or redrawn as it was (a highlight moved by a key), it
// is the question already reported.
TEST_F(WaitingQuestionWatchTest, ARedrawIsTheSameQuestion) {
  ASSERT_NE("", Asked("Continue? ", 0));
  Output("\r\x1b[K", 100);  // a frame seen half drawn
  Update(100);
  EXPECT_EQ("", Asked("Continue? ", 200));  // no response: not new
  watch_.InputSent();
  Output("\r\x1b[K", 400);
  Update(400);
  EXPECT_EQ("", Asked("Continue? ", 410));  // back as it was, within a redraw's gap
  EXPECT_TRUE(watch_.waiting_for_answer());
}

class AgentQuestionWatchTest : public QuestionWatchTest {
 protected:
  AgentQuestionWatchTest() : QuestionWatchTest(Agent(), true) {}
};

TEST_F(AgentQuestionWatchTest, ADialogCountsOnceItsOptionsAreDrawn) {
  std::string event = Asked("Allow execution of [Shell]?\r\n 1. Allow once\r\n 2. No", 0);
  EXPECT_NE(std::string::npos, event.find("\"Allow once\"")) << event;
}

// A frame cut after its question (the kernel's 2 KB pieces on a loaded
// machine): the daemon waits for the options rather than report none.
TEST_F(AgentQuestionWatchTest, ADialogWithoutItsOptionsYetWaitsForThem) {
  EXPECT_EQ("", Asked("Allow execution of [Shell]?", 0));
  EXPECT_EQ(At(QuestionWatch::kOptionsLateMs), watch_.next_wakeup());
  Update(1000);
  std::string event = Asked("\r\n 1. Allow once\r\n 2. No", 1500);
  EXPECT_NE(std::string::npos, event.find("\"Allow once\"")) << event;
}

// The second question of a turn waits from when it shows, not from the
// first: half of its frame must not count at once.
TEST_F(AgentQuestionWatchTest, ASecondDialogWaitsForItsOwnOptions) {
  ASSERT_NE("", Asked("Allow execution of [Shell]?\r\n 1. Allow once\r\n 2. No", 0));
  std::string err;
  std::vector<std::string> keys;
  ASSERT_TRUE(watch_.Answer(1, &keys, &err)) << err;
  Output("\x1b[2J\x1b[Hworking", 100);
  Update(100);
  EXPECT_EQ("", Asked("\x1b[2J\x1b[HAllow execution of [Edit]?", 5000));
  Update(5000 + QuestionWatch::kMaxWaitMs);
  std::string event = Asked("\r\n 1. Allow once\r\n 2. No", 5500);
  EXPECT_NE(std::string::npos, event.find("[Edit]")) << event;
  EXPECT_NE(std::string::npos, event.find("\"Allow once\"")) << event;
}

// A dialog of Agent(), drawn on a cleared screen.
const char kShellDialog[] = "\x1b[2J\x1b[HAllow execution of [Shell]?\r\n 1. Allow once\r\n 2. No";

// A TUI may go back to an earlier question while the answer to a later one
// is on its way (opencode, after "Always allow" is confirmed): not a new
// question unless it stays; the next one after it is reported as usual.
TEST_F(AgentQuestionWatchTest, AnEarlierQuestionDrawnAgainCountsOnlyIfItStays) {
  ASSERT_NE("", Asked(kShellDialog, 0));
  AnswerAndShow("\x1b[2J\x1b[HAllow execution of [Shell] always?\r\n 1. Confirm\r\n 2. Cancel", 100);
  ASSERT_NE("", Asked("", 200));  // the next question: its own event
  AnswerAndShow(kShellDialog, 1000);  // the first, drawn again
  EXPECT_EQ("", Asked("", 1050));
  Output("\x1b[2J\x1b[Hworking", 1200);
  Update(1200);
  std::string event = Asked("\x1b[2J\x1b[HAllow execution of [Edit]?\r\n 1. Allow once\r\n 2. No", 1600);
  EXPECT_NE(std::string::npos, event.find("[Edit]")) << event;
  // The first once more, after [Edit]: it stays, and counts late.
  AnswerAndShow(kShellDialog, 2000);
  Update(2000 + QuestionWatch::kOptionsLateMs - 1);
  std::string late;
  EXPECT_FALSE(watch_.TakeInputEvent(RequestId(), &late));
  Update(2000 + QuestionWatch::kOptionsLateMs);
  ASSERT_TRUE(watch_.TakeInputEvent(RequestId(), &late));
  EXPECT_NE(std::string::npos, late.find("[Shell]")) << late;
}

// The next tool call's dialog may read as the one just answered (Claude's
// "Do you want to proceed?"): it is reported as soon as any.
TEST_F(AgentQuestionWatchTest, TheDialogJustAnsweredAgainIsReportedAtOnce) {
  ASSERT_NE("", Asked(kShellDialog, 0));
  AnswerAndShow("\x1b[2J\x1b[Hworking", 100);
  EXPECT_NE("", Asked(kShellDialog, 1000));
}

TEST_F(AgentQuestionWatchTest, ADialogWhoseOptionsNeverComeCountsLate) {
  ExpectReportedOnlyLate("Allow execution of [Shell]?");
}

class LateQuestionWatchTest : public QuestionWatchTest {
 protected:
  LateQuestionWatchTest() : QuestionWatchTest(DrawsLate(), true) {}
};

TEST_F(LateQuestionWatchTest, ABoxShownAsIncompleteWaitsForItsText) {
  EXPECT_EQ("", Asked("~ Writing command…\r\nPermission required\r\n\r\n Allow once", 0));
  EXPECT_EQ(At(QuestionWatch::kOptionsLateMs), watch_.next_wakeup());
  std::string event = Asked("\x1b[H$ touch x\x1b[K\x1b[3;1H$ touch x", 200);
  EXPECT_NE(std::string::npos, event.find("$ touch x")) << event;
}

TEST_F(LateQuestionWatchTest, ABoxThatStaysIncompleteCountsLate) {
  ExpectReportedOnlyLate("~ Writing command…\r\nPermission required");
}

TEST_F(LateQuestionWatchTest, AWholeBoxCountsOnceStill) {
  std::string event = Asked("$ touch x\r\nPermission required\r\n$ touch x", 0);
  EXPECT_NE(std::string::npos, event.find("$ touch x")) << event;
}

class ProcessQuestionWatchTest : public QuestionWatchTest {
 protected:
  ProcessQuestionWatchTest() : QuestionWatchTest(false, true) {}
};

TEST_F(ProcessQuestionWatchTest, AProgramReadingTheTerminalCountsAtOnceOnceQuiet) {
  Output("name: ", 0);  // no pattern matches it
  child_.reader = TerminalReader::kReading;
  EXPECT_FALSE(Update(0));  // not asked yet: the output may go on
  EXPECT_TRUE(watch_.probing());
  EXPECT_EQ(At(QuestionWatch::kProbeQuietMs), watch_.next_wakeup());
  EXPECT_TRUE(Update(QuestionWatch::kProbeQuietMs));  // seen from the process: certain
  EXPECT_EQ("name:", question_);
}

TEST_F(ProcessQuestionWatchTest, AProgramNotReadingIsNotAskingWhateverTheScreenSays) {
  Output("Continue? ", 0);
  child_.reader = TerminalReader::kNotReading;
  for (int ms = 0; ms <= 1000; ms += QuestionWatch::kProbeEveryMs) EXPECT_FALSE(Update(ms)) << ms;
  EXPECT_FALSE(watch_.pending());
}

}  // namespace
}  // namespace tuidriver
