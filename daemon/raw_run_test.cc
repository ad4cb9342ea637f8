#include "raw_run.h"

#include <gtest/gtest.h>

#include <optional>

#include "test_fakes.h"
#include "text.h"

namespace tuidriver {
namespace {

TEST(DropEchoAndPrompt, TheTypedLineHoweverItWrappedAndThePromptAfterItGo) {
  EXPECT_EQ("hi", DropEchoAndPrompt({"$ echo hi", "hi", "$"}, "echo hi", "$ ", false));
  // Still running: the last row is output, not a prompt.
  EXPECT_EQ("x\n$", DropEchoAndPrompt({"$ cat", "x", "$"}, "cat", "$ ", true));
  // The echo wrapped onto a second row.
  EXPECT_EQ("aaaabbbb", DropEchoAndPrompt({"$ echo aaaa", "bbbb", "aaaabbbb", "$"}, "echo aaaabbbb", "$ ", false));
  // A blank line drops the prompt row alone.
  EXPECT_EQ("1", DropEchoAndPrompt({">>> ", "1"}, "", ">>> ", false));
  // Output that looks like the line, later on, is output.
  EXPECT_EQ("x\necho hi", DropEchoAndPrompt({"$ printf 'x\\necho hi\\n'", "x", "echo hi", "$"},
                                            "printf 'x\\necho hi\\n'", "$ ", false));
}

TEST(DropEchoAndPrompt, ALineOfSeveralLinesLosesEachEchoAfterItsContinuationPrompt) {
  EXPECT_EQ("a\nb", DropEchoAndPrompt({"$ echo a", "a", "$ echo b", "b", "$"}, "echo a\necho b", "$ ", false));
  EXPECT_EQ("i1\ni2", DropEchoAndPrompt({"$ for i in 1 2; do", "> echo i$i", "> done", "i1", "i2", "$"},
                                        "for i in 1 2; do\necho i$i\ndone", "$ ", false));
  EXPECT_EQ("0\n1", DropEchoAndPrompt({">>> for i in range(2):", "...     print(i)", "...", "0", "1", ">>>"},
                                      "for i in range(2):\r\n    print(i)\n", ">>> ", false));
}

// A child whose foreground is the program itself (at its prompt) or a
// command it runs; the test says whether that reads the terminal.
struct ShellChild : FakeChild {
  int64_t ForegroundPid() const override { return foreground; }
  int64_t foreground = 4242;
};

class RawRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    child_.reader = TerminalReader::kReading;
    Show("$ ", 0);
    state_.LearnPrompt(term_, child_, clock_.At(0), clock_.At(100));
  }
  void Show(const std::string& text, int ms) {
    Feed(&term_, text);
    last_output_ = clock_.At(ms);
  }
  void Start(const std::string& line, int ms, long timeout_ms = 2000, int idle_ms = 500) {
    Request r;
    r.type = RequestType::kRun;
    r.id.kind = RequestId::Kind::kNumber;
    r.id.json = "7";
    r.line = line;
    r.timeout_ms = timeout_ms;
    r.idle_ms = idle_ms;
    run_.emplace(r, clock_.At(ms));
  }
  // A line typed at 1000 ms at the prompt, `shown` printed at 1010 ms: the step at 1510 ms.
  RawRun::Step ShownAfter(const std::string& line, const std::string& shown) {
    Start(line, 1000);
    At(1000);
    Show(shown, 1010);
    return At(1510);
  }
  RawRun::Step At(int ms) { return run_->Update(term_, &child_, state_, last_output_, clock_.At(ms), &result_); }
  // The shell ran a command: it leaves the terminal to it, then takes it back.
  void Command(bool running) {
    child_.foreground = running ? 5000 : 4242;
    child_.reader = running ? TerminalReader::kNotReading : TerminalReader::kReading;
  }

  Terminal term_{40, 6, 100};
  ShellChild child_;
  ProgramState state_;
  FakeClock clock_;
  TimePoint last_output_;
  std::optional<RawRun> run_;
  RawRun::Result result_;
};

TEST_F(RawRunTest, AtThePromptTheLineIsTypedAtOnceAndEndsWhenTheShellIsBack) {
  Start("echo hi", 1000);
  EXPECT_EQ(RawRun::Step::kGoing, At(1000));
  EXPECT_EQ("echo hi\r", child_.Take());
  Command(true);
  Show("echo hi\r\nhi\r\n", 1010);
  EXPECT_EQ(RawRun::Step::kGoing, At(1600));  // quiet, but the command still holds the terminal
  EXPECT_EQ(clock_.At(1700), run_->next_wakeup());
  Command(false);
  Show("$ ", 1650);
  EXPECT_EQ(RawRun::Step::kGoing, At(1700));  // the prompt came back, not yet quiet for idle_ms
  EXPECT_EQ(clock_.At(2150), run_->next_wakeup());
  ASSERT_EQ(RawRun::Step::kDone, At(2150));
  EXPECT_EQ("hi", result_.output);
  EXPECT_EQ("ready", result_.state);
  EXPECT_EQ("", child_.Take());
}

TEST_F(RawRunTest, AProgramThatHasNotShownItsPromptYetIsWaitedFor) {
  Terminal term(40, 6, 100);
  ProgramState fresh;
  Start("echo hi", 0);
  EXPECT_EQ(RawRun::Step::kGoing, run_->Update(term, &child_, fresh, clock_.At(0), clock_.At(0), &result_));
  EXPECT_EQ(clock_.At(100), run_->next_wakeup());
  Feed(&term, "$ ");  // shown at 50 ms, learnt once quiet for 100 ms
  fresh.LearnPrompt(term, child_, clock_.At(50), clock_.At(100));
  EXPECT_EQ(RawRun::Step::kGoing, run_->Update(term, &child_, fresh, clock_.At(50), clock_.At(100), &result_));
  EXPECT_EQ("", child_.Take());
  fresh.LearnPrompt(term, child_, clock_.At(50), clock_.At(150));
  EXPECT_EQ(RawRun::Step::kGoing, run_->Update(term, &child_, fresh, clock_.At(50), clock_.At(150), &result_));
  EXPECT_EQ("echo hi\r", child_.Take());
}

TEST_F(RawRunTest, AnOutputLineTheTerminalWrappedIsOneLine) {
  ASSERT_EQ(RawRun::Step::kDone,
            ShownAfter("ls /nope", "ls /nope\r\nls: cannot access '/nope': No such file or directory\r\n$ "));
  EXPECT_EQ("ls: cannot access '/nope': No such file or directory", result_.output);
}

TEST_F(RawRunTest, AnOutputLongerThanTheHistoryKeepsItsLastRows) {
  std::string shown = "seq 300\r\n";
  for (int i = 1; i <= 300; ++i) shown += std::to_string(i) + "\r\n";
  ASSERT_EQ(RawRun::Step::kDone, ShownAfter("seq 300", shown + "$ "));
  std::vector<std::string> lines = SplitLines(result_.output);
  EXPECT_EQ("300", lines.back());
  EXPECT_LE(lines.size(), 106u);  // the history's 100 rows and the screen's
  EXPECT_EQ(std::to_string(301 - lines.size()), lines.front());
}

TEST_F(RawRunTest, AnEchoWrappedOverRowsGoesWhole) {
  std::string line = "echo 0123456789012345678901234567890123456789";
  ASSERT_EQ(RawRun::Step::kDone, ShownAfter(line, line + "\r\n0123456789012345678901234567890123456789\r\n$ "));
  EXPECT_EQ("0123456789012345678901234567890123456789", result_.output);
}

TEST_F(RawRunTest, TimeRunningOutReturnsTheOutputSoFarAndLeavesTheProgramRunning) {
  Start("yes | head -2; sleep 9", 1000, 800);
  At(1000);
  Command(true);
  Show("yes | head -2; sleep 9\r\ny\r\ny\r\n", 1010);
  ASSERT_EQ(RawRun::Step::kDone, At(1800));
  EXPECT_EQ("running", result_.state);
  EXPECT_EQ("y\ny", result_.output);
  EXPECT_EQ("yes | head -2; sleep 9\r", child_.Take());  // no C-c
}

TEST_F(RawRunTest, ALineWaitsForTheCommandBeforeAndIsNotTypedIntoIt) {
  Command(true);  // an earlier run's command still runs
  Start("echo late", 1000, 500);
  EXPECT_EQ(RawRun::Step::kGoing, At(1000));
  EXPECT_EQ(RawRun::Step::kStillRunning, At(1500));
  EXPECT_EQ("", child_.Take());

  Start("echo next", 2000, 5000);
  EXPECT_EQ(RawRun::Step::kGoing, At(2000));
  Command(false);
  Show("\r\n$ ", 2100);
  EXPECT_EQ(RawRun::Step::kGoing, At(2100));  // the prompt is back: typed at once
  EXPECT_EQ("echo next\r", child_.Take());
}

TEST_F(RawRunTest, AQuestionEndsTheRunWithTheQuestionShown) {
  Start("rm -i f", 1000);
  At(1000);
  Command(true);
  child_.reader = TerminalReader::kReading;  // rm reads the answer
  Show("rm -i f\r\nrm: remove regular file 'f'? ", 1010);
  ASSERT_EQ(RawRun::Step::kDone, At(1510));
  EXPECT_EQ("needs_input", result_.state);
  EXPECT_EQ("rm: remove regular file 'f'?", result_.question);
  EXPECT_EQ("rm: remove regular file 'f'?", result_.output);

  // The answer is the next run's line; the shell's prompt after it goes.
  Start("y", 2000);
  EXPECT_EQ(RawRun::Step::kGoing, At(2000));
  EXPECT_EQ("rm -i f\ry\r", child_.Take());
  Command(false);
  Show("y\r\n$ ", 2010);
  ASSERT_EQ(RawRun::Step::kDone, At(2510));
  EXPECT_EQ("", result_.output);
  EXPECT_EQ("ready", result_.state);
}

TEST_F(RawRunTest, AShellBackFromAnInterruptIsGivenItsPromptFirst) {
  Show("sleep 30\r\n", 500);
  Command(false);  // ^C: the shell reads again, its prompt not drawn yet
  Show("^C", 990);
  Start("echo after", 1000);
  EXPECT_EQ(RawRun::Step::kGoing, At(1000));
  EXPECT_EQ("", child_.Take());
  Show("\r\n$ ", 1050);
  EXPECT_EQ(RawRun::Step::kGoing, At(1050));
  EXPECT_EQ("echo after\r", child_.Take());
}

TEST_F(RawRunTest, CancelInterruptsOnlyALineTyped) {
  Command(true);
  Start("echo a", 1000);
  At(1000);
  run_->Cancel(&child_);
  EXPECT_EQ("", child_.Take());
  Command(false);
  Start("sleep 9", 2000);
  At(2000);
  run_->Cancel(&child_);
  EXPECT_EQ("sleep 9\r\x03", child_.Take());
}

TEST_F(RawRunTest, AnExitedProgramGivesWhatItPrinted) {
  Start("exit 3", 1000);
  At(1000);
  Show("exit 3\r\nlogout\r\n", 1010);
  RawRun::Result r = run_->Exited(term_);
  EXPECT_EQ("exited", r.state);
  EXPECT_EQ("logout", r.output);
}

TEST_F(RawRunTest, AFullScreenProgramGivesItsScreen) {
  ASSERT_EQ(RawRun::Step::kDone, ShownAfter("less f", "\x1b[?1049h\x1b[H\x1b[2Jline one\r\nline two\r\n:"));
  EXPECT_EQ("fullscreen", result_.state);
  EXPECT_EQ("line one\nline two\n:", result_.output);
}

}  // namespace
}  // namespace tuidriver
