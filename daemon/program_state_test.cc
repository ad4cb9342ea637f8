#include "program_state.h"

#include <gtest/gtest.h>

#include "engine_config.h"
#include "test_fakes.h"

namespace tuidriver {
namespace {

// A child whose foreground can be the program itself.
struct ForegroundChild : FakeChild {
  int64_t ForegroundPid() const override { return foreground; }
  int64_t foreground = 4243;  // a child of the program holds the terminal (pid() is 4242)
};

class ProgramStateTest : public ::testing::Test {
 protected:
  ProgramLook Judge() const { return state_.Judge(term_, child_); }
  // The program showed `text` at `ms`, then was quiet until `quiet_ms`.
  void Shown(const std::string& text, int ms, int quiet_ms) {
    Feed(&term_, text);
    state_.LearnPrompt(term_, child_, clock_.At(ms), clock_.At(quiet_ms));
  }

  Terminal term_{40, 6, 100};
  ForegroundChild child_;
  ProgramState state_;
  FakeClock clock_;
};

TEST_F(ProgramStateTest, ThePromptAsFirstShownIsReadyWithOrWithoutATypedLine) {
  child_.reader = TerminalReader::kReading;
  Shown(">>> ", 0, 50);  // not quiet long enough yet: no prompt learnt
  EXPECT_EQ((ProgramLook{"needs_input", ">>>"}), Judge());
  state_.LearnPrompt(term_, child_, clock_.At(0), clock_.At(100));
  EXPECT_EQ(">>> ", state_.prompt());
  EXPECT_EQ((ProgramLook{"ready", ""}), Judge());
  Feed(&term_, "print(1");
  EXPECT_EQ((ProgramLook{"ready", ""}), Judge());
  child_.reader = TerminalReader::kNotReading;  // Enter typed, not read yet
  EXPECT_EQ("running", Judge().state);
}

TEST_F(ProgramStateTest, ReadingAwayFromThePromptIsAQuestion) {
  child_.reader = TerminalReader::kReading;
  Shown(">>> ", 0, 100);
  Feed(&term_, "input('Name? ')\r\nName? ");
  EXPECT_EQ((ProgramLook{"needs_input", "Name?"}), Judge());
  // Progress text shaped like a question is none while nothing reads.
  Feed(&term_, "\r\nBuilding:");
  child_.reader = TerminalReader::kNotReading;
  EXPECT_EQ((ProgramLook{"running", ""}), Judge());
}

TEST_F(ProgramStateTest, AShellPromptThatChangedIsStillAPrompt) {
  child_.reader = TerminalReader::kReading;
  Shown("~$ ", 0, 100);
  Feed(&term_, "cd /tmp\r\n/tmp$ ");
  EXPECT_EQ((ProgramLook{"ready", ""}), Judge());
  Feed(&term_, "\r\n> ");  // an unclosed quote: the shell's continuation prompt asks for more
  EXPECT_EQ((ProgramLook{"needs_input", ">"}), Judge());
}

TEST_F(ProgramStateTest, TheAlternateScreenIsFullscreen) {
  child_.reader = TerminalReader::kReading;
  Shown("$ ", 0, 100);
  Feed(&term_, "\x1b[?1049h~\r\n~");
  EXPECT_EQ((ProgramLook{"fullscreen", ""}), Judge());
}

// Where reading cannot be observed (macOS), the line engines' question
// pattern decides; without it, a child of the program holding the terminal runs.
TEST_F(ProgramStateTest, WithoutTheProcessTheShapeOfTheRowDecides) {
  Shown("$ ", 0, 100);
  EXPECT_EQ("$ ", state_.prompt());
  Feed(&term_, "apt install x\r\nContinue? [y/N] ");
  EXPECT_EQ((ProgramLook{"needs_input", "Continue? [y/N]"}), Judge());
  Feed(&term_, "y\r\ncompiling");
  EXPECT_EQ("running", Judge().state);
  child_.foreground = child_.pid();
  EXPECT_EQ("ready", Judge().state);
}

TEST_F(ProgramStateTest, APromptIsNotLearntWhileTheProgramWorks) {
  child_.reader = TerminalReader::kNotReading;
  Shown("loading", 0, 500);
  EXPECT_EQ("", state_.prompt());
  child_.reader = TerminalReader::kReading;
  Feed(&term_, "\r\n>>> ");
  state_.LearnPrompt(term_, child_, clock_.At(600), clock_.At(700));
  EXPECT_EQ(">>> ", state_.prompt());
}

TEST_F(ProgramStateTest, UpdateReportsEachChangeOnceAndSleepsWithoutASubscriber) {
  child_.reader = TerminalReader::kReading;
  Feed(&term_, "$ ");
  ProgramLook look;
  // No subscriber: the prompt is learnt on the way, nothing is reported or scheduled.
  EXPECT_FALSE(state_.Update(term_, child_, clock_.At(0), false, clock_.At(150), &look));
  EXPECT_EQ("$ ", state_.prompt());
  EXPECT_EQ(TimePoint::max(), state_.next_wakeup(false));
  // A subscriber: the first look comes kQuietMs after the request, and says the state.
  state_.LookSoon(clock_.At(200));
  EXPECT_EQ(clock_.At(300), state_.next_wakeup(true));
  EXPECT_FALSE(state_.Update(term_, child_, clock_.At(0), true, clock_.At(250), &look));
  ASSERT_TRUE(state_.Update(term_, child_, clock_.At(0), true, clock_.At(300), &look));
  EXPECT_EQ((ProgramLook{"ready", ""}), look);
  // Then looks again after growing pauses, reporting nothing while nothing changed, then sleeps.
  TimePoint at = clock_.At(300);
  for (int pause = 200; pause <= ProgramState::kLastLookMs; pause *= 2) {
    EXPECT_EQ(at + Ms(pause), state_.next_wakeup(true));
    at += Ms(pause);
    EXPECT_FALSE(state_.Update(term_, child_, clock_.At(0), true, at, &look));
  }
  EXPECT_EQ(TimePoint::max(), state_.next_wakeup(true));
  // New output: looked at once quiet, the change reported once.
  Feed(&term_, "read x\r\n");
  TimePoint out = at + Ms(5000);
  EXPECT_FALSE(state_.Update(term_, child_, out, true, out, &look));
  EXPECT_EQ(out + Ms(ProgramState::kQuietMs), state_.next_wakeup(true));
  ASSERT_TRUE(state_.Update(term_, child_, out, true, out + Ms(100), &look));
  EXPECT_EQ((ProgramLook{"needs_input", ""}), look);
  EXPECT_FALSE(state_.Update(term_, child_, out, true, out + Ms(300), &look));
}

// One question pattern: a raw session's is the line engines' own, so a fix
// to theirs cannot leave raw sessions (and MCP `run`) behind.
TEST(ProgramStateJudgement, TheQuestionPatternIsTheLineEnginesOwn) {
  ProgramState state;
  const EngineConfig& raw = state.judgement();
  ASSERT_EQ(1u, raw.needs_input.size());
  for (const char* name : {"bash", "python"}) {
    EngineConfig engine;
    std::string err;
    ASSERT_TRUE(LoadEngineFile(std::string(TUIDRIVER_SOURCE_DIR "/engines/") + name + ".json", &engine, &err)) << err;
    ASSERT_EQ(1u, engine.needs_input.size()) << name;
    EXPECT_EQ(engine.needs_input[0].pattern, raw.needs_input[0].pattern) << name;
    EXPECT_EQ(engine.needs_input[0].scope, raw.needs_input[0].scope) << name;
    EXPECT_EQ(engine.needs_input_from_process, raw.needs_input_from_process) << name;
  }
}

}  // namespace
}  // namespace tuidriver
