#include "ask.h"

#include <gtest/gtest.h>

#include "engine_config.h"
#include "screen_matcher.h"
#include "terminal.h"
#include "test_fakes.h"

namespace tuidriver {
namespace {

// A paste-mode TUI that shows pasted text only when it gets round to it.
EngineConfig PasteEngine(bool after_echo) {
  EngineConfig c;
  c.prompt = {"^> ", MatchScope::kScreen};
  c.submit.mode = SubmitMode::kPaste;
  c.submit.enter_delay_ms = 100;
  c.submit.enter_after_echo = after_echo;
  c.reply.start = "^\\* ";
  return c;
}

Request AskFor(const std::string& prompt) {
  Request r;
  r.type = RequestType::kAsk;
  r.prompt = prompt;
  return r;
}

class PasteAsk : public ::testing::Test {
 protected:
  PasteAsk() : term_(40, 5, 100) {
    Feed(&term_, "\x1b[?2004h> ");  // bracketed paste on, prompt shown
  }
  bool EnterSent() const {
    const std::string& w = input_.written;
    return w.size() > 0 && w.back() == '\r';
  }
  Terminal term_;
  FakeChild input_;
  TimePoint t0_ = Clock::now();
};

TEST_F(PasteAsk, EnterPauseCountsFromTheEcho) {
  EngineConfig c = PasteEngine(true);
  ScreenMatcher m(c);
  Ask ask(AskFor("hello"), c, m, t0_);
  ask.Start(term_, &input_, t0_);
  EXPECT_EQ("\x1b[200~hello\x1b[201~", input_.written);
  // The program is slow: no echo yet, so no Enter even after the pause.
  ask.Update(term_, &input_, t0_ + Ms(500));
  EXPECT_FALSE(EnterSent());
  // It shows the text: the pause starts now.
  Feed(&term_, "hello");
  ask.Update(term_, &input_, t0_ + Ms(600));
  EXPECT_FALSE(EnterSent());
  EXPECT_EQ(t0_ + Ms(700), ask.next_wakeup());
  ask.Update(term_, &input_, t0_ + Ms(700));
  EXPECT_TRUE(EnterSent());
}

TEST_F(PasteAsk, EnterGivesUpWaitingForAnEchoAfterASecond) {
  EngineConfig c = PasteEngine(true);
  ScreenMatcher m(c);
  Ask ask(AskFor("hello"), c, m, t0_);
  ask.Start(term_, &input_, t0_);
  EXPECT_EQ(t0_ + Ms(1000), ask.next_wakeup());
  ask.Update(term_, &input_, t0_ + Ms(1000));
  EXPECT_FALSE(EnterSent());
  ask.Update(term_, &input_, t0_ + Ms(1100));
  EXPECT_TRUE(EnterSent());
}

TEST_F(PasteAsk, EnterPauseCountsFromTheTextByDefault) {
  EngineConfig c = PasteEngine(false);
  ScreenMatcher m(c);
  Ask ask(AskFor("hello"), c, m, t0_);
  ask.Start(term_, &input_, t0_);
  EXPECT_FALSE(EnterSent());
  ask.Update(term_, &input_, t0_ + Ms(100));
  EXPECT_TRUE(EnterSent());
}

// A question's frame may arrive in pieces: needs_input waits until the
// question's text stays the same a moment, and reports all of it.
TEST_F(PasteAsk, QuestionIsReadOnceItsFrameIsComplete) {
  EngineConfig c = PasteEngine(false);
  c.needs_input = {{"^\\? Shell", MatchScope::kScreen}};
  ScreenMatcher m(c);
  Ask ask(AskFor("hello"), c, m, t0_);
  ask.Start(term_, &input_, t0_);
  ask.Update(term_, &input_, t0_ + Ms(100));
  ASSERT_TRUE(EnterSent());
  Feed(&term_, "\x1b[2J\x1b[1;1H? Shell  rm x\r\n");  // the first piece
  ask.Update(term_, &input_, t0_ + Ms(200));
  EXPECT_FALSE(ask.finished());
  Feed(&term_, "Allow execution?\r\n1. Allow once");  // the rest, a little later
  ask.Update(term_, &input_, t0_ + Ms(230));
  EXPECT_FALSE(ask.finished());
  EXPECT_EQ(t0_ + Ms(280), ask.next_wakeup());
  ask.Update(term_, &input_, t0_ + Ms(280));
  ASSERT_TRUE(ask.finished());
  EXPECT_EQ(ErrorKind::kNeedsInput, ask.result().kind);
  EXPECT_EQ("? Shell  rm x\nAllow execution?\n1. Allow once", ask.result().question);
}

// Something animated below the question keeps changing its text: it still
// counts after a bounded wait.
TEST_F(PasteAsk, ChangingQuestionCountsAfterABoundedWait) {
  EngineConfig c = PasteEngine(false);
  c.needs_input = {{"^\\? Shell", MatchScope::kScreen}};
  ScreenMatcher m(c);
  Ask ask(AskFor("hello"), c, m, t0_);
  ask.Start(term_, &input_, t0_);
  ask.Update(term_, &input_, t0_ + Ms(100));
  Feed(&term_, "\x1b[2J\x1b[1;1H? Shell  rm x\r\n");
  const char* spinner[] = {"|", "/", "-", "\\"};
  int t = 200;
  for (int i = 0; !ask.finished() && i < 40; ++i, t += 20) {
    Feed(&term_, std::string("\r") + spinner[i % 4]);
    ask.Update(term_, &input_, t0_ + Ms(t));
  }
  ASSERT_TRUE(ask.finished());
  EXPECT_EQ(ErrorKind::kNeedsInput, ask.result().kind);
  EXPECT_GE(t, 600);
  EXPECT_LE(t, 640);
}

TEST_F(PasteAsk, TurnNotStartedUntilBusyOrReply) {
  EngineConfig c = PasteEngine(false);
  c.busy = {{"working", MatchScope::kScreen}};
  ScreenMatcher m(c);
  Ask ask(AskFor("hello"), c, m, t0_);
  EXPECT_FALSE(ask.TurnNotStarted(term_));  // not started at all
  ask.Start(term_, &input_, t0_);
  ask.Update(term_, &input_, t0_ + Ms(100));
  // Typed, but a dialog took it: nothing of the turn shows.
  EXPECT_TRUE(ask.TurnNotStarted(term_));
  Feed(&term_, "\r\nworking");
  ask.Update(term_, &input_, t0_ + Ms(150));
  EXPECT_FALSE(ask.TurnNotStarted(term_));
}

TEST_F(PasteAsk, RequeuedAskTypesItsPromptAgain) {
  EngineConfig c = PasteEngine(false);
  ScreenMatcher m(c);
  Ask ask(AskFor("hello"), c, m, t0_);
  ask.Start(term_, &input_, t0_);
  ask.Update(term_, &input_, t0_ + Ms(100));
  ask.Requeue();
  EXPECT_FALSE(ask.started());
  input_.written.clear();
  ask.Start(term_, &input_, t0_ + Ms(500));
  ask.Update(term_, &input_, t0_ + Ms(600));
  EXPECT_EQ("\x1b[200~hello\x1b[201~\r", input_.written);
  // The retry's turn runs as any other.
  Feed(&term_, "hello\r\n* hi\r\n> ");
  ask.Update(term_, &input_, t0_ + Ms(700));
  ASSERT_TRUE(ask.finished());
  EXPECT_EQ("hi", ask.result().text);
}

TEST_F(PasteAsk, AnEarlierReplyToTheSamePromptIsNotThisOne) {
  EngineConfig c = PasteEngine(false);
  ScreenMatcher m(c);
  Feed(&term_, "hello\r\n* old\r\n> ");  // an earlier ask of the same prompt
  Ask ask(AskFor("hello"), c, m, t0_);
  ask.Start(term_, &input_, t0_);
  ask.Update(term_, &input_, t0_ + Ms(200));  // typed; the turn shows nothing yet
  EXPECT_TRUE(EnterSent());
  EXPECT_FALSE(ask.finished());
  Feed(&term_, "hello\r\n* new\r\n> ");
  ask.Update(term_, &input_, t0_ + Ms(300));
  ASSERT_TRUE(ask.finished());
  EXPECT_EQ("new", ask.result().text);
}

}  // namespace
}  // namespace tuidriver

namespace tuidriver {
namespace {

// on_input "wait": a question inside the turn is reported once, the ask
// waits (its timeout still running), and the answer's keys go out no sooner
// than 800 ms after the question showed, one at a time.
TEST_F(PasteAsk, QuestionInsideTheTurnIsReportedAndAnswered) {
  EngineConfig c = PasteEngine(false);
  c.needs_input = {{"^Proceed\\?", MatchScope::kScreen}};
  c.needs_input_options.option = "^(?:❯ |  )(\\d+)\\. (.+)$";
  c.needs_input_options.selected = "^❯";
  ScreenMatcher m(c);
  Request r = AskFor("go");
  r.on_input = "wait";
  r.timeout_ms = 5000;
  Ask ask(r, c, m, t0_);
  ask.Start(term_, &input_, t0_);
  Feed(&term_, "go\r\nProceed?\r\n❯ 1. Yes\r\n  2. No");
  ask.Update(term_, &input_, t0_ + Ms(200));  // Enter goes out; the question is new
  ask.Update(term_, &input_, t0_ + Ms(260));  // unchanged for 50 ms: it counts
  ASSERT_FALSE(ask.finished());
  std::string event;
  ASSERT_TRUE(ask.TakeInputEvent(&event));
  EXPECT_NE(std::string::npos, event.find(R"("question":"Proceed?","options":[{"index":1,"label":"Yes"},{"index":2,"label":"No"}])")) << event;
  ask.Update(term_, &input_, t0_ + Ms(400));
  EXPECT_FALSE(ask.TakeInputEvent(&event));  // once per question
  EXPECT_FALSE(ask.finished());

  Request answer;
  answer.type = RequestType::kAnswer;
  answer.option = 2;
  std::string err;
  input_.written.clear();
  ASSERT_TRUE(ask.Answer(answer, term_, &input_, t0_ + Ms(400), &err)) << err;
  EXPECT_EQ("", input_.written);
  EXPECT_EQ(t0_ + Ms(260 + 800), ask.next_wakeup());
  EXPECT_FALSE(ask.Answer(answer, term_, &input_, t0_ + Ms(400), &err));  // answered already
  ask.Update(term_, &input_, t0_ + Ms(1060));
  EXPECT_EQ("\x1b[B", input_.written);  // Down, then Enter a little later
  ask.Update(term_, &input_, t0_ + Ms(1140));
  EXPECT_EQ("\x1b[B\r", input_.written);

  // The question goes away and the reply follows.
  Feed(&term_, "\x1b[2;1H\x1b[J* done\r\n> ");
  ask.Update(term_, &input_, t0_ + Ms(1200));
  ASSERT_TRUE(ask.finished());
  EXPECT_TRUE(ask.result().ok) << ask.result().error;
  EXPECT_EQ("done", ask.result().text);
}

TEST_F(PasteAsk, WithoutOnInputTheQuestionEndsTheAsk) {
  EngineConfig c = PasteEngine(false);
  c.needs_input = {{"^Proceed\\?", MatchScope::kScreen}};
  ScreenMatcher m(c);
  Ask ask(AskFor("go"), c, m, t0_);
  ask.Start(term_, &input_, t0_);
  Feed(&term_, "go\r\nProceed?\r\n❯ 1. Yes");
  ask.Update(term_, &input_, t0_ + Ms(200));
  ask.Update(term_, &input_, t0_ + Ms(260));
  ASSERT_TRUE(ask.finished());
  EXPECT_EQ(ErrorKind::kNeedsInput, ask.result().kind);
  std::string event;
  EXPECT_FALSE(ask.TakeInputEvent(&event));
}

}  // namespace
}  // namespace tuidriver

namespace tuidriver {
namespace {

// The same prompt again: while the screen still shows the previous turn's
// echo and reply (however it redraws it), none of that reply streams as this
// ask's; the new reply does, row by row.
TEST(StreamAsk, PreviousReplyToTheSamePromptNeverStreams) {
  EngineConfig c = PasteEngine(false);
  c.busy = {{"^working", MatchScope::kScreen}};
  c.reply.chrome = {"^working"};
  ScreenMatcher m(c);
  Terminal term(40, 12, 100);
  FakeChild input;
  TimePoint t0 = Clock::now();
  Feed(&term, "\x1b[?2004h> go\r\n* old one\r\n* old two\r\n> ");
  Request r = AskFor("go");
  r.type = RequestType::kAskStream;
  Ask ask(r, c, m, t0);
  ask.Start(term, &input, t0);
  ask.Update(term, &input, t0 + Ms(200));
  // Busy at once, and a redraw in between shows more of the old turn.
  Feed(&term, "\x1b[4;1H* old three\r\n\r\nworking\x1b[5;3H");
  ask.Update(term, &input, t0 + Ms(300));
  EXPECT_FALSE(ask.finished());
  EXPECT_EQ("", ask.TakeDelta());
  // The new echo, and the new reply growing row by row.
  Feed(&term, "\x1b[5;1H\x1b[J> go\r\n* new one\r\n* new two\r\n* new thr\r\nworking\x1b[11;1H");
  ask.Update(term, &input, t0 + Ms(400));
  EXPECT_EQ("new one\nnew two", ask.TakeDelta());
  Feed(&term, "\x1b[8;1H\x1b[J* new three\r\n> ");
  ask.Update(term, &input, t0 + Ms(500));
  ASSERT_TRUE(ask.finished());
  EXPECT_EQ("new one\nnew two\nnew three", ask.result().text);
  EXPECT_EQ("\nnew three", ask.TakeDelta());
  EXPECT_FALSE(ask.revised());
}

// A line REPL whose questions are decided from its process (bash, python).
struct ReaderInput : FakeChild {
  TerminalReader ReadsTerminal() const override {
    ++probes;
    return reader;
  }
  TerminalReader reader = TerminalReader::kNotReading;
  mutable int probes = 0;
};

EngineConfig ProcessEngine() {
  EngineConfig c;
  c.prompt = {"\\$ $", MatchScope::kCursorLine};
  c.submit.mode = SubmitMode::kLines;
  c.needs_input = {{"[\\])?:>] *$", MatchScope::kCursorLine}};
  c.needs_input_from_process = true;
  c.timeouts.question_ms = 1000;
  return c;
}

class ProcessQuestion : public ::testing::Test {
 protected:
  ProcessQuestion() : config_(ProcessEngine()), matcher_(config_), term_(40, 5, 100) { Feed(&term_, "$ "); }
  // Starts `line` and shows its echo at t0 + 10 ms.
  void StartAsk(Ask* ask) {
    ask->Start(term_, &input_, t0_);
    Feed(&term_, "cmd\r\n");
    ask->Update(term_, &input_, t0_ + Ms(10));
  }
  EngineConfig config_;
  ScreenMatcher matcher_;
  Terminal term_;
  ReaderInput input_;
  TimePoint t0_ = Clock::now();
};

TEST_F(ProcessQuestion, ProgressEndingInAColonIsNoQuestionWhileTheProgramWorks) {
  Ask ask(AskFor("cmd"), config_, matcher_, t0_);
  StartAsk(&ask);
  Feed(&term_, "Downloading: ");
  ask.Update(term_, &input_, t0_ + Ms(20));
  // Quiet, asked every little while, never a question: the program sleeps.
  for (int t = 100; t <= 3000; t += 100) ask.Update(term_, &input_, t0_ + Ms(20 + t));
  EXPECT_FALSE(ask.finished());
  EXPECT_GT(input_.probes, 10);
  Feed(&term_, "done\r\n$ ");
  ask.Update(term_, &input_, t0_ + Ms(3100));
  ASSERT_TRUE(ask.finished());
  EXPECT_TRUE(ask.result().ok);
  EXPECT_EQ("Downloading: done", ask.result().text);
}

TEST_F(ProcessQuestion, AReadWithAnyPromptOrNoneIsAQuestionOnceQuiet) {
  for (const char* prompt : {"", "> ", "Name:  ", "package name: (demo) ", "Press any key to continue..."}) {
    Terminal term(40, 5, 100);
    Feed(&term, "$ ");
    ReaderInput input;
    Ask ask(AskFor("cmd"), config_, matcher_, t0_);
    ask.Start(term, &input, t0_);
    Feed(&term, std::string("cmd\r\n") + prompt);
    input.reader = TerminalReader::kReading;
    ask.Update(term, &input, t0_ + Ms(10));
    EXPECT_EQ(0, input.probes) << "not asked before the output is quiet";
    EXPECT_EQ(t0_ + Ms(110), ask.next_wakeup());
    ask.Update(term, &input, t0_ + Ms(110));
    ASSERT_TRUE(ask.finished()) << prompt;
    EXPECT_EQ(ErrorKind::kNeedsInput, ask.result().kind);
    std::string want(prompt);
    EXPECT_EQ(want.substr(0, want.find_last_not_of(' ') + 1), ask.result().question);
  }
}

TEST_F(ProcessQuestion, AtItsOwnPromptTheProgramIsNotAsked) {
  input_.reader = TerminalReader::kReading;  // a shell reads at its prompt too
  Ask ask(AskFor("cmd"), config_, matcher_, t0_);
  StartAsk(&ask);
  Feed(&term_, "out\r\n$ ");
  ask.Update(term_, &input_, t0_ + Ms(500));
  ASSERT_TRUE(ask.finished());
  EXPECT_TRUE(ask.result().ok);
  EXPECT_EQ(0, input_.probes);
}

TEST_F(ProcessQuestion, UnobservableProcessFallsBackToTheShapeOfAQuietScreen) {
  input_.reader = TerminalReader::kUnknown;
  Ask ask(AskFor("cmd"), config_, matcher_, t0_);
  StartAsk(&ask);
  Feed(&term_, "Continue? [y/N] ");
  ask.Update(term_, &input_, t0_ + Ms(20));
  ask.Update(term_, &input_, t0_ + Ms(500));
  EXPECT_FALSE(ask.finished()) << "the shape counts only after question_ms of quiet";
  ask.Update(term_, &input_, t0_ + Ms(1020));
  ASSERT_TRUE(ask.finished());
  EXPECT_EQ(ErrorKind::kNeedsInput, ask.result().kind);
  EXPECT_EQ("Continue? [y/N]", ask.result().question);
}

TEST_F(ProcessQuestion, FullScreenProgramIsReportedWithItsScreen) {
  Ask ask(AskFor("cmd"), config_, matcher_, t0_);
  StartAsk(&ask);
  Feed(&term_, "\x1b[?1049h\x1b[H\x1b[2Jline 1\r\nline 2\r\n:");
  input_.reader = TerminalReader::kReading;
  ask.Update(term_, &input_, t0_ + Ms(20));
  ask.Update(term_, &input_, t0_ + Ms(120));
  ASSERT_TRUE(ask.finished());
  EXPECT_EQ(ErrorKind::kNeedsInput, ask.result().kind);
  EXPECT_EQ("line 1\nline 2\n:", ask.result().question);
}

// A REPL whose helper redraws the echo of its wrapper as the user's code,
// then marks where the output begins (echo_osc), as python_repl.py does.
EngineConfig RedrawingRepl() {
  EngineConfig c;
  c.prompt = {"td>>> $", MatchScope::kCursorLine};
  c.continuation_prompt = {"td\\.\\.\\. $", MatchScope::kCursorLine};
  c.submit.mode = SubmitMode::kLines;
  c.echo_osc = 7703;
  return c;
}

TEST(RedrawnEcho, ARedrawCutAfterItsPromptIsNotTheNextPrompt) {
  // A slow machine: the daemon reads the redraw in two pieces, the first
  // ending just after the prompt it redraws.
  EngineConfig c = RedrawingRepl();
  ScreenMatcher m(c);
  Terminal term(40, 10, 100);
  FakeChild input;
  TimePoint t0 = Clock::now();
  Feed(&term, "earlier\r\ntd>>> ");
  Ask ask(AskFor("run(1)"), c, m, t0);
  ask.Start(term, &input, t0);
  Feed(&term, "run(1)\r\n");
  ask.Update(term, &input, t0 + Ms(10));
  Feed(&term, "\x1b[1A\r\x1b[Jtd>>> ");
  ask.Update(term, &input, t0 + Ms(20));
  EXPECT_FALSE(ask.finished());
  Feed(&term, "code\r\n\x1b]7703;1\x07out\r\ntd>>> ");
  ask.Update(term, &input, t0 + Ms(30));
  ASSERT_TRUE(ask.finished());
  EXPECT_EQ("out", ask.result().text);
}

// The helper also marks where the output ends (end_osc), then shows late
// output above a fresh prompt. On a loaded machine the daemon reads all of
// it at once: the reply still ends at the mark (issue 42).
TEST(EndMark, LateOutputAfterTheMarkIsNotTheReply) {
  EngineConfig c = RedrawingRepl();
  c.end_osc = 7705;
  ScreenMatcher m(c);
  struct Case {
    const char* output;
    const char* late;
    const char* reply;
  };
  for (const Case& k : {Case{"out\r\n", "\r\x1b[KLATE 1\r\ntick\r\n", "out"},
                        Case{"one\r\npartial", "\r\nLATE 1\r\n", "one\npartial"},
                        Case{"0123456789012345678901234567890123456789", "\r\nLATE 1\r\n",
                             "0123456789012345678901234567890123456789"}}) {
    Terminal term(40, 10, 100);
    FakeChild input;
    TimePoint t0 = Clock::now();
    Feed(&term, "td>>> ");
    Ask ask(AskFor("run(1)"), c, m, t0);
    ask.Start(term, &input, t0);
    Feed(&term, std::string("run(1)\r\n\x1b[1A\r\x1b[Jtd>>> code\r\n\x1b]7703;1\x07") + k.output +
                    "\x1b]7705;1\x07td>>> " + k.late + "td>>> ");
    ask.Update(term, &input, t0 + Ms(10));
    ASSERT_TRUE(ask.finished()) << k.output;
    EXPECT_EQ(k.reply, ask.result().text);
  }
}

TEST(EndMark, APromptBeforeTheMarkIsNotTheEnd) {
  // Late output shown just as the ask's line was typed: the prompt drawn
  // again below it is not the next prompt, nor is the one after the code's
  // echo before the end mark.
  EngineConfig c = RedrawingRepl();
  c.end_osc = 7705;
  ScreenMatcher m(c);
  Terminal term(40, 10, 100);
  FakeChild input;
  TimePoint t0 = Clock::now();
  Feed(&term, "td>>> ");
  Ask ask(AskFor("run(1)"), c, m, t0);
  ask.Start(term, &input, t0);
  Feed(&term, "\r\x1b[KLATE 1\r\ntd>>> ");
  ask.Update(term, &input, t0 + Ms(10));
  EXPECT_FALSE(ask.finished());
  Feed(&term, "run(1)\r\n\x1b[1A\r\x1b[Jtd>>> code\r\n\x1b]7703;1\x07" "42\r\ntd>>> ");
  ask.Update(term, &input, t0 + Ms(20));
  EXPECT_FALSE(ask.finished());
  Feed(&term, "\r\x1b[K\x1b]7705;1\x07td>>> ");
  ask.Update(term, &input, t0 + Ms(30));
  ASSERT_TRUE(ask.finished());
  EXPECT_EQ("42", ask.result().text);
}

// A REPL at its prompt whose helper reads prompts from the prompt pipe.
class PipedRepl : public ::testing::Test {
 protected:
  PipedRepl() : term_(40, 10, 100) {
    c_ = RedrawingRepl();
    c_.submit.wrap = "__td({pipe})";
    c_.interrupt_keys = {"C-c"};
    c_.timeouts.ask_ms = 1000;
    input_.has_pipe = true;
    Feed(&term_, "td>>> ");
  }
  EngineConfig c_;
  Terminal term_;
  FakeChild input_;
  TimePoint t0_ = Clock::now();
};

TEST_F(PipedRepl, APipedPromptIsTypedAsItsNumber) {
  ScreenMatcher m(c_);
  Ask first(AskFor("for i in range(2):\n\tprint(i)"), c_, m, t0_);
  first.Start(term_, &input_, t0_);
  EXPECT_EQ("__td(1)\r", input_.Take());
  EXPECT_EQ(std::vector<std::string>{"for i in range(2):\n\tprint(i)"}, input_.piped);
  Feed(&term_, "__td(1)\r\n\x1b[1A\r\x1b[Jtd>>> code\r\n\x1b]7703;1\x07" "0\r\n1\r\ntd>>> ");
  first.Update(term_, &input_, t0_ + Ms(10));
  ASSERT_TRUE(first.finished());
  EXPECT_EQ("0\n1", first.result().text);
  Ask second(AskFor("6*7"), c_, m, t0_);
  second.Start(term_, &input_, t0_ + Ms(20));
  EXPECT_EQ("__td(2)\r", input_.Take());
}

// submit.enter_only: the prompt goes through the pipe and Enter alone is
// typed; the helper runs the prompt when the REPL asks for its next line.
TEST_F(PipedRepl, EnterOnlyTypesEnterAloneAndKeepsATakenPrompt) {
  c_.submit.enter_only = true;
  ScreenMatcher m(c_);
  Ask ask(AskFor("6*7"), c_, m, t0_);
  ask.Start(term_, &input_, t0_);
  EXPECT_EQ("\r", input_.Take());
  EXPECT_EQ(std::vector<std::string>{"6*7"}, input_.piped);
  Feed(&term_, "\r\n\x1b[1A\r\x1b[Jtd>>> 6*7\r\n\x1b]7703;1\x07" "42\r\ntd>>> ");
  ask.Update(term_, &input_, t0_ + Ms(10));
  ASSERT_TRUE(ask.finished());
  EXPECT_EQ("42", ask.result().text);
  ask.DropUntakenPrompt(&input_);  // the helper marked it taken: nothing to void
  EXPECT_TRUE(input_.dropped.empty());
}

TEST_F(PipedRepl, AnUntakenPromptIsVoidedBeforeTheInterrupt) {
  // The REPL is busy: the Enter waits (enter_only), or the helper holds
  // the prompt for the REPL's next prompt (pipe_only); the ask times out,
  // and the queue's C-c (AskQueue::Interrupt) will flush the Enter, or
  // bring that prompt. Then the prompt must not run.
  for (bool pipe_only : {false, true}) {
    c_.submit.enter_only = !pipe_only;
    c_.submit.pipe_only = pipe_only;
    FakeChild input;
    input.has_pipe = true;
    ScreenMatcher m(c_);
    Ask ask(AskFor("6*7"), c_, m, t0_);
    ask.Start(term_, &input, t0_);
    ask.Update(term_, &input, t0_ + Ms(1000));
    ASSERT_TRUE(ask.finished());
    EXPECT_EQ(ErrorKind::kTimeout, ask.result().kind);
    EXPECT_EQ(std::vector<uint64_t>{1}, input.dropped);
    std::string typed = pipe_only ? "" : "\r";
    EXPECT_EQ(typed, input.written_before_drop);
    EXPECT_EQ(typed, input.written);  // the interrupt is the queue's
  }
}

// submit.pipe_only: nothing is typed; the helper runs the prompt as it
// arrives in the pipe, or once the REPL is back at its prompt.
TEST_F(PipedRepl, PipeOnlyTypesNothing) {
  c_.submit.pipe_only = true;
  ScreenMatcher m(c_);
  Ask ask(AskFor("6*7"), c_, m, t0_);
  ask.Start(term_, &input_, t0_);
  EXPECT_EQ("", input_.Take());
  EXPECT_EQ(std::vector<std::string>{"6*7"}, input_.piped);
  Feed(&term_, "\r\x1b[Jtd>>> 6*7\r\n\x1b]7703;1\x07" "42\r\ntd>>> ");
  ask.Update(term_, &input_, t0_ + Ms(10));
  ASSERT_TRUE(ask.finished());
  EXPECT_EQ("42", ask.result().text);
}

TEST_F(PipedRepl, PipeOnlyWaitsForTheHelpersMarkPastAPersonsLine) {
  // A person's line ran when the ask started: its prompt, rows below, is
  // not the ask's; the helper runs the prompt after it.
  c_.submit.pipe_only = true;
  ScreenMatcher m(c_);
  Ask ask(AskFor("6*7"), c_, m, t0_);
  Feed(&term_, "busy()\r\n");
  ask.Start(term_, &input_, t0_);
  Feed(&term_, "done\r\ntd>>> ");
  ask.Update(term_, &input_, t0_ + Ms(10));
  EXPECT_FALSE(ask.finished());
  Feed(&term_, "\r\x1b[Jtd>>> 6*7\r\n\x1b]7703;1\x07" "42\r\ntd>>> ");
  ask.Update(term_, &input_, t0_ + Ms(20));
  ASSERT_TRUE(ask.finished());
  EXPECT_EQ("42", ask.result().text);
}

TEST_F(PipedRepl, WithoutAPipeThePromptIsTypedAsALiteral) {
  input_.has_pipe = false;  // it could not be made
  for (int typed : {0, 1, 2}) {  // the number, Enter alone, nothing
    c_.submit.enter_only = typed == 1;
    c_.submit.pipe_only = typed == 2;
    ScreenMatcher m(c_);
    Ask ask(AskFor("print(\"a\")\n6*7"), c_, m, t0_);
    ask.Start(term_, &input_, t0_);
    EXPECT_EQ("__td(\"print(\\\"a\\\")\\n6*7\")\r", input_.Take());
    EXPECT_TRUE(input_.piped.empty());
  }
}

}  // namespace
}  // namespace tuidriver
