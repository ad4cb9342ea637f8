#include "submission.h"

#include <gtest/gtest.h>

#include "engine_config.h"
#include "terminal.h"
#include "test_fakes.h"

namespace tuidriver {
namespace {

class SubmissionTest : public ::testing::Test {
 protected:
  SubmissionTest() : term_(40, 5, 100) { c_.submit.enter = {"Enter"}; }
  TimePoint At(long ms) const { return clock_.At(ms); }
  // Writes what is due at `ms`; what went out since the last call.
  std::string Typed(Submission* s, long ms) {
    s->Update(term_.generation(), &child_, At(ms));
    return child_.Take();
  }
  EngineConfig c_;
  Terminal term_;
  FakeChild child_;
  FakeClock clock_;
};

TEST_F(SubmissionTest, LinesComeOneAtATimeWithoutTheTrailingEmptyOnes) {
  c_.submit.mode = SubmitMode::kLines;
  Submission s(c_);
  s.SplitLines("a\nb\n\n\n", &child_);
  const std::string* line = s.NextLine(false);
  ASSERT_NE(nullptr, line);
  EXPECT_EQ("a", *line);
  line = s.NextLine(true);  // a continuation prompt: the next line still comes first
  ASSERT_NE(nullptr, line);
  EXPECT_EQ("b", *line);
  EXPECT_EQ(nullptr, s.NextLine(false));
  EXPECT_EQ(nullptr, s.NextLine(true));  // no submit.close_blocks: no closing line
}

TEST_F(SubmissionTest, AnOpenBlockIsClosedOnceWithAnEmptyLine) {
  c_.submit.mode = SubmitMode::kLines;
  c_.submit.close_blocks = true;
  Submission s(c_);
  s.SplitLines("for i in x:", &child_);
  ASSERT_NE(nullptr, s.NextLine(false));
  EXPECT_EQ(nullptr, s.NextLine(false));  // the main prompt back: done
  const std::string* line = s.NextLine(true);
  ASSERT_NE(nullptr, line);
  EXPECT_EQ("", *line);
  EXPECT_EQ(nullptr, s.NextLine(true));  // a block still open after that is the program's
}

TEST_F(SubmissionTest, ALineIsTypedThenItsEnterAfterTheDelay) {
  c_.submit.enter_delay_ms = 30;
  Submission s(c_);
  s.TypeLine(term_, "x = 1");
  EXPECT_FALSE(s.typed());
  EXPECT_EQ("x = 1", Typed(&s, 0));
  EXPECT_EQ(At(30), s.next_wakeup());
  EXPECT_EQ("", Typed(&s, 29));
  EXPECT_EQ("\r", Typed(&s, 30));
  EXPECT_TRUE(s.typed());
  EXPECT_EQ(TimePoint::max(), s.next_wakeup());
}

TEST_F(SubmissionTest, ALineIsPastedWhenTheTerminalTakesPastes) {
  Feed(&term_, "\x1b[?2004h");
  Submission s(c_);
  s.TypeLine(term_, "\tx");
  EXPECT_EQ("\x1b[200~\tx\x1b[201~\r", Typed(&s, 0));
  s.TypeLine(term_, "");  // an empty line: Enter alone
  EXPECT_EQ("\r", Typed(&s, 1));
}

TEST_F(SubmissionTest, WrapPutsThePromptInAsAJsonString) {
  c_.submit.mode = SubmitMode::kLines;
  c_.submit.wrap = "run({json})";
  Submission s(c_);
  s.SplitLines("a\n\"b\"", &child_);
  const std::string* line = s.NextLine(false);
  ASSERT_NE(nullptr, line);
  EXPECT_EQ("run(\"a\\n\\\"b\\\"\")", *line);
  EXPECT_EQ(nullptr, s.NextLine(false));
  EXPECT_EQ(0u, s.piped());
}

TEST_F(SubmissionTest, PipeSendsThePromptDownThePipeAndTypesItsNumber) {
  c_.submit.mode = SubmitMode::kLines;
  c_.submit.wrap = "__td({pipe})";
  child_.has_pipe = true;
  Submission s(c_);
  s.SplitLines("6*7", &child_);
  EXPECT_EQ(std::vector<std::string>{"6*7"}, child_.piped);
  EXPECT_EQ(1u, s.piped());
  EXPECT_EQ("__td(1)", *s.NextLine(false));
  EXPECT_FALSE(s.runs_from_pipe());
}

TEST_F(SubmissionTest, WithoutAPipeThePromptIsTypedAsJson) {
  c_.submit.mode = SubmitMode::kLines;
  c_.submit.wrap = "__td({pipe})";
  c_.submit.pipe_only = true;
  Submission s(c_);  // has_pipe false: it could not be made
  s.SplitLines("6*7", &child_);
  EXPECT_EQ("__td(\"6*7\")", *s.NextLine(false));
  EXPECT_FALSE(s.runs_from_pipe());
}

TEST_F(SubmissionTest, PipeOnlyTypesNothingAndEnterOnlyTypesEnter) {
  c_.submit.mode = SubmitMode::kLines;
  c_.submit.wrap = "__td({pipe})";
  child_.has_pipe = true;
  for (bool pipe_only : {false, true}) {
    c_.submit.enter_only = !pipe_only;
    c_.submit.pipe_only = pipe_only;
    Submission s(c_);
    s.SplitLines("6*7", &child_);
    EXPECT_EQ(pipe_only, s.runs_from_pipe());
    s.TypeLine(term_, *s.NextLine(false));
    EXPECT_EQ(pipe_only ? "" : "\r", Typed(&s, 0));
    EXPECT_TRUE(s.typed());
  }
}

TEST_F(SubmissionTest, AnUntakenPipedPromptIsDroppedOnce) {
  c_.submit.mode = SubmitMode::kLines;
  c_.submit.wrap = "__td({pipe})";
  c_.submit.enter_only = true;
  child_.has_pipe = true;
  Submission taken(c_);
  taken.SplitLines("1", &child_);
  taken.DropUntaken(&child_, true);  // its echo mark came: the helper has it
  EXPECT_TRUE(child_.dropped.empty());
  Submission untaken(c_);
  untaken.SplitLines("2", &child_);
  untaken.DropUntaken(&child_, false);
  untaken.DropUntaken(&child_, false);
  EXPECT_EQ(std::vector<uint64_t>{2}, child_.dropped);
  EXPECT_EQ(0u, untaken.piped());
}

TEST_F(SubmissionTest, ATypedNumberIsNeverDropped) {
  // Without enter_only or pipe_only the line names its prompt: a later
  // Enter cannot run it by itself.
  c_.submit.mode = SubmitMode::kLines;
  c_.submit.wrap = "__td({pipe})";
  child_.has_pipe = true;
  Submission s(c_);
  s.SplitLines("1", &child_);
  s.DropUntaken(&child_, false);
  EXPECT_TRUE(child_.dropped.empty());
}

TEST_F(SubmissionTest, AWholePromptIsPastedInChunksNeverSplittingACharacter) {
  Feed(&term_, "\x1b[?2004h");
  c_.submit.mode = SubmitMode::kPaste;
  c_.submit.chunk_size = 2;
  c_.submit.chunk_delay_ms = 10;
  c_.submit.enter_delay_ms = 50;
  Submission s(c_);
  s.TypeWhole(term_, "a\xc3\xa9zz");  // é is two bytes
  EXPECT_EQ("\x1b[200~a\xc3\xa9", Typed(&s, 0));  // the whole é, though over the chunk size
  EXPECT_EQ("", Typed(&s, 9));
  EXPECT_EQ("zz\x1b[201~", Typed(&s, 10));
  EXPECT_EQ("", Typed(&s, 59));
  EXPECT_EQ("\r", Typed(&s, 60));
  EXPECT_TRUE(s.typed());
}

TEST_F(SubmissionTest, PasteModeTypesWhenTheTerminalTakesNoPastes) {
  c_.submit.mode = SubmitMode::kPaste;
  Submission s(c_);
  s.TypeWhole(term_, "hello");
  EXPECT_EQ("hello\r", Typed(&s, 0));
}

TEST_F(SubmissionTest, EnterAfterEchoWaitsForTheScreen) {
  c_.submit.mode = SubmitMode::kType;
  c_.submit.enter_after_echo = true;
  Submission s(c_);
  s.TypeWhole(term_, "hi");
  EXPECT_EQ("hi", Typed(&s, 0));
  EXPECT_EQ("", Typed(&s, 500));
  Feed(&term_, "hi");  // the echo
  EXPECT_EQ("\r", Typed(&s, 600));
}

TEST_F(SubmissionTest, AnAnswersKeysGoOneAtATimeNotBeforeItsTime) {
  Submission s(c_);
  s.TypeAnswer(term_, "", {"Down", "Enter"}, At(800));
  EXPECT_EQ(At(800), s.next_wakeup());
  EXPECT_EQ("", Typed(&s, 0));
  EXPECT_EQ("\x1b[B", Typed(&s, 800));
  EXPECT_EQ("", Typed(&s, 879));
  EXPECT_EQ("\r", Typed(&s, 880));
  s.TypeAnswer(term_, "yes", {"Enter"}, At(900));  // typed text, then its key a little apart
  EXPECT_EQ("yes", Typed(&s, 900));
  EXPECT_EQ("\r", Typed(&s, 980));
}

TEST_F(SubmissionTest, ResubmitOnlyWhereTheEngineAsksForIt) {
  c_.submit.mode = SubmitMode::kPaste;
  EXPECT_EQ(TimePoint::max(), Submission(c_).ResubmitDue(At(0)));  // no resubmit_ms
  c_.submit.resubmit_ms = 1000;
  Submission s(c_);
  s.Submitted(At(0));
  EXPECT_EQ(At(1500), s.ResubmitDue(At(500)));
  s.Resubmit(term_, &child_, At(1500));
  EXPECT_EQ("\r", child_.Take());
  EXPECT_EQ(At(2500), s.ResubmitDue(At(500)));
  s.DeclineResubmit(At(2500));
  EXPECT_EQ(TimePoint::max(), s.ResubmitDue(At(500)));
  c_.submit.mode = SubmitMode::kLines;  // a line typed again could run twice
  EXPECT_EQ(TimePoint::max(), Submission(c_).ResubmitDue(At(0)));
}

}  // namespace
}  // namespace tuidriver
