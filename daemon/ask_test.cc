#include "ask.h"

#include <gtest/gtest.h>

#include "engine_config.h"
#include "screen_matcher.h"
#include "terminal.h"

namespace tuidriver {
namespace {

void Feed(Terminal* t, const std::string& s) { t->Feed(s.data(), s.size()); }

struct RecordingInput : ChildInput {
  void Write(const std::string& bytes) override { written += bytes; }
  std::string written;
};

std::chrono::milliseconds Ms(int ms) { return std::chrono::milliseconds(ms); }

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
  r.type = "ask";
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
  RecordingInput input_;
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
  EXPECT_EQ("needs_input", ask.result().kind);
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
  EXPECT_EQ("needs_input", ask.result().kind);
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

}  // namespace
}  // namespace tuidriver
