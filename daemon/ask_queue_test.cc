#include "ask_queue.h"

#include <gtest/gtest.h>

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "test_fakes.h"
#include "transcript_test_util.h"

namespace tuidriver {
namespace {

using std::chrono::milliseconds;

// A REPL: `>>> ` at the cursor, one line per ask, C-c to interrupt.
EngineConfig Repl() {
  EngineConfig c;
  c.name = "repl";
  c.prompt = {">>> $", MatchScope::kCursorLine};
  c.continuation_prompt = {"\\.\\.\\. $", MatchScope::kCursorLine};
  c.needs_input = {{"\\S.*\\? ?$", MatchScope::kCursorLine}};
  return c;
}

Request AskFor(const std::string& id, const std::string& prompt, long timeout_ms = 5000) {
  Request r;
  r.type = RequestType::kAsk;
  r.id.kind = RequestId::Kind::kNumber;
  r.id.json = id;
  r.prompt = prompt;
  r.timeout_ms = timeout_ms;
  return r;
}

Request CancelOf(const std::string& id, const std::string& target) {
  Request r;
  r.type = RequestType::kCancel;
  r.id.kind = RequestId::Kind::kNumber;
  r.id.json = id;
  r.target.kind = RequestId::Kind::kNumber;
  r.target.json = target;
  return r;
}

class AskQueueTest : public ::testing::Test {
 protected:
  AskQueueTest()
      : engine_(Repl()), matcher_(engine_), term_(40, 10, 100), transcript_("", "", "", ""),
        asks_(engine_, matcher_, "exec", &transcript_, &sink_) {
    Feed(&term_, ">>> ");
  }
  TimePoint At(int ms) const { return clock_.At(ms); }
  void Update(int ms) { asks_.Update(&term_, last_output_, false, &input_, At(ms)); }
  void Output(const std::string& s, int ms) {
    Feed(&term_, s);
    last_output_ = At(ms);
  }
  // Starts ask 1 ("sleep") at t0 and lets it time out after 500 ms: the
  // program never answers.
  void TimedOutAsk() {
    ASSERT_TRUE(asks_.Add(AskFor("1", "sleep", 500), At(0)));
    asks_.OnReady(At(0));
    Update(0);
    Output("sleep\r\n", 1);
    Update(1);
    EXPECT_NE("", input_.Take());
    Update(500);
    ASSERT_TRUE(sink_.Has(R"({"id":1,"type":"reply","ok":false,"kind":"timeout")")) << sink_.lines.back();
    EXPECT_EQ("\x03", input_.Take());  // the timed-out ask interrupts
  }
  // Starts ask 1 (`prompt`) at t0; the program shows `shown` (the echo and
  // a question no rule answers), and the ask ends with needs_input.
  void AskEndsAtQuestion(const std::string& prompt, const std::string& shown) {
    ASSERT_TRUE(asks_.Add(AskFor("1", prompt), At(0)));
    asks_.OnReady(At(0));
    Update(0);
    input_.Take();
    Output(shown, 10);
    for (int ms = 10; ms <= 3000 && !asks_.empty(); ms += 100) Update(ms);
    ASSERT_TRUE(sink_.Has(R"("kind":"needs_input")")) << sink_.lines.back();
  }

  EngineConfig engine_;
  ScreenMatcher matcher_;
  Terminal term_;
  TranscriptReader transcript_;
  FakeChild input_;
  RecordingSink sink_;
  AskQueue asks_;
  FakeClock clock_;
  TimePoint last_output_ = clock_.t0 - milliseconds(1000);
};

TEST_F(AskQueueTest, AnAskRunsAndRepliesAndLeavesNoWakeUp) {
  ASSERT_TRUE(asks_.Add(AskFor("1", "6*7"), At(0)));
  asks_.OnReady(At(0));
  EXPECT_TRUE(asks_.busy());
  Update(0);
  EXPECT_EQ("6*7\r", input_.Take());
  Output("6*7\r\n42\r\n>>> ", 10);
  Update(10);
  ASSERT_EQ(1u, sink_.lines.size());
  EXPECT_EQ(R"({"id":1,"type":"reply","ok":true,"text":"42"})", sink_.lines[0]);
  EXPECT_TRUE(asks_.empty());
  EXPECT_EQ(AskQueue::Resync::kAtPrompt, asks_.resync());
  EXPECT_EQ(TimePoint::max(), asks_.next_wakeup());
}

// The 100% CPU defect, without timing: after a timed-out ask the idle queue
// asks for no wake-up at all, however often the loop looks.
TEST_F(AskQueueTest, IdleAfterATimedOutAskAsksForNoWakeUp) {
  TimedOutAsk();
  EXPECT_EQ(AskQueue::Resync::kAwaitReaction, asks_.resync());
  EXPECT_TRUE(asks_.empty());
  for (int ms = 500; ms <= 10000; ms += 700) {
    Update(ms);
    EXPECT_EQ(TimePoint::max(), asks_.next_wakeup()) << "at " << ms << " ms";
  }
  EXPECT_EQ("", input_.written);  // and nothing is typed meanwhile
}

TEST_F(AskQueueTest, ACancelledAsksInterruptIsItsOnlyWakeUp) {
  ASSERT_TRUE(asks_.Add(AskFor("1", "sleep"), At(0)));
  asks_.OnReady(At(0));
  Update(0);
  EXPECT_EQ("sleep\r", input_.Take());
  Output("sleep\r\n", 5);
  Update(5);
  asks_.Cancel(CancelOf("2", "1"), &term_, &input_, At(20));
  ASSERT_EQ(2u, sink_.lines.size());
  EXPECT_NE(std::string::npos, sink_.lines[0].find(R"("id":1,"type":"reply","ok":false,"kind":"cancelled")"));
  EXPECT_EQ(R"({"id":2,"type":"reply","ok":true})", sink_.lines[1]);
  // The interrupt goes out 100 ms after the ask's last keystroke, not at once.
  EXPECT_EQ("", input_.written);
  EXPECT_EQ(AskQueue::Resync::kInterruptDue, asks_.resync());
  EXPECT_EQ(At(100), asks_.next_wakeup());
  Update(100);
  EXPECT_EQ("\x03", input_.Take());
  EXPECT_EQ(AskQueue::Resync::kAwaitReaction, asks_.resync());
  for (int ms = 100; ms <= 10000; ms += 900) {
    Update(ms);
    EXPECT_EQ(TimePoint::max(), asks_.next_wakeup()) << "at " << ms << " ms";
  }
}

// interrupt_armed: Copilot cancels on two Escapes read apart; the second
// goes out once the first shows it armed the interrupt, and nothing else
// is typed until it is out.
TEST_F(AskQueueTest, PacedInterruptKeysGoOutOneAtATimeAndHoldTheNextAsk) {
  engine_.interrupt_keys = {"Escape", "Escape"};
  engine_.interrupt_armed = {"esc again to interrupt", MatchScope::kScreen};
  ScreenMatcher matcher(engine_);
  AskQueue asks(engine_, matcher, "exec", &transcript_, &sink_);
  auto update = [&](int ms) { asks.Update(&term_, last_output_, false, &input_, At(ms)); };
  ASSERT_TRUE(asks.Add(AskFor("1", "sleep", 500), At(0)));
  asks.OnReady(At(0));
  update(0);
  Output("sleep\r\n", 1);
  update(1);
  ASSERT_TRUE(asks.Add(AskFor("2", "1+1"), At(10)));
  input_.Take();
  int writes = input_.writes;
  update(500);
  ASSERT_TRUE(sink_.Has(R"({"id":1,"type":"reply","ok":false,"kind":"timeout")"));
  EXPECT_EQ("\x1b", input_.Take());
  EXPECT_EQ(At(500 + PacedKeys::kFallbackMs), asks.next_wakeup());
  Output(">>> ", 520);  // not the sign: nothing more yet
  update(600);
  EXPECT_EQ("", input_.written);
  Output("\r\nesc again to interrupt", 650);
  update(650);
  EXPECT_EQ("\x1b", input_.Take());
  EXPECT_EQ(writes + 2, input_.writes);  // each Escape its own write
  update(650 + AskQueue::kQuietMs);
  EXPECT_EQ("", input_.written) << "the reaction counts from the last key";
  Output("\x1b[2J\x1b[H>>> ", 700);
  for (int ms = 700; ms <= 3000 && input_.written.empty(); ms += 50) update(ms);
  EXPECT_EQ("1+1\r", input_.Take());
}

TEST_F(AskQueueTest, ACancelledEnterOnlyAskVoidsItsPromptBeforeTheInterrupt) {
  // The REPL is busy, its prompt drawn: the Enter waits unread.
  engine_.submit.wrap = "run({pipe})";
  engine_.submit.enter_only = true;
  input_.has_pipe = true;
  ASSERT_TRUE(asks_.Add(AskFor("1", "6*7"), At(0)));
  asks_.OnReady(At(0));
  Update(0);
  EXPECT_EQ("\r", input_.Take());
  asks_.Cancel(CancelOf("2", "1"), &term_, &input_, At(20));
  EXPECT_EQ(std::vector<uint64_t>{1}, input_.dropped);
  Update(100);
  EXPECT_EQ("", input_.written_before_drop);
  EXPECT_EQ("\x03", input_.Take());  // the interrupt after the drop
}

TEST_F(AskQueueTest, TheNextAskWaitsForTheReactionAndItsQuiet) {
  TimedOutAsk();
  ASSERT_TRUE(asks_.Add(AskFor("2", "1+1"), At(600)));
  Update(600);
  // No reaction yet: it has kReactMs from the interrupt to show one.
  EXPECT_EQ(At(500 + AskQueue::kReactMs), asks_.next_wakeup());
  Output("^C\r\nKeyboardInterrupt\r\n>>> ", 700);
  Update(700);
  EXPECT_EQ("", input_.written);  // reacted, but a traceback may follow
  EXPECT_EQ(At(700 + AskQueue::kQuietMs), asks_.next_wakeup());
  Update(700 + AskQueue::kQuietMs);
  EXPECT_EQ("1+1\r", input_.Take());
  EXPECT_EQ(AskQueue::Resync::kUnknown, asks_.resync());
}

// Issue 12: a program that shows no reaction and no prompt (bash at its
// continuation prompt was seen holding the interrupt until its next line)
// is interrupted again, then gets an empty line; then the next ask goes on.
TEST_F(AskQueueTest, NoReactionAndNoPromptGetsTheInterruptAgainThenAnEnter) {
  TimedOutAsk();
  ASSERT_TRUE(asks_.Add(AskFor("2", "1+1", 10000), At(600)));
  Update(600);
  EXPECT_EQ("", input_.written);
  Update(500 + AskQueue::kReactMs);
  EXPECT_EQ("\x03", input_.Take());
  EXPECT_EQ(AskQueue::Resync::kNudged, asks_.resync());
  EXPECT_EQ(At(500 + 2 * AskQueue::kReactMs), asks_.next_wakeup());
  Update(500 + 2 * AskQueue::kReactMs);
  EXPECT_EQ("\r", input_.Take());
  EXPECT_EQ(AskQueue::Resync::kNudgedTwice, asks_.resync());
  Update(500 + 3 * AskQueue::kReactMs);  // nothing more to try: no more keys
  EXPECT_EQ("", input_.written);
  Output("\r\ninterrupted\r\n>>> ", 6600);
  Update(6600 + AskQueue::kQuietMs);
  EXPECT_EQ("1+1\r", input_.Take());
}

// It reacted (a "^C"), but no prompt came: after kReactMs of quiet it is
// nudged as if it had not reacted.
TEST_F(AskQueueTest, AReactionWithNoPromptIsNudgedOnceQuiet) {
  TimedOutAsk();
  ASSERT_TRUE(asks_.Add(AskFor("2", "1+1", 10000), At(600)));
  Output("^C", 700);
  Update(700);
  Update(700 + AskQueue::kQuietMs);  // the reaction has settled
  EXPECT_EQ("", input_.written);
  EXPECT_EQ(At(700 + AskQueue::kReactMs), asks_.next_wakeup());
  Update(700 + AskQueue::kReactMs - 1);
  EXPECT_EQ("", input_.written);
  Update(700 + AskQueue::kReactMs);
  EXPECT_EQ("\x03", input_.Take());
}

// The ask's line was never echoed: the prompt it was typed at is still
// there and nothing shows the interrupt took effect.
TEST_F(AskQueueTest, NoReactionGetsOneNudgeThenTheNextAskGoesOn) {
  ASSERT_TRUE(asks_.Add(AskFor("1", "sleep", 500), At(0)));
  asks_.OnReady(At(0));
  Update(0);
  EXPECT_EQ("sleep\r", input_.Take());
  Update(500);
  EXPECT_EQ("\x03", input_.Take());
  ASSERT_TRUE(asks_.Add(AskFor("2", "1+1"), At(600)));
  Update(600);
  EXPECT_EQ("", input_.written);
  EXPECT_EQ(At(500 + AskQueue::kReactMs), asks_.next_wakeup());
  // At the main prompt a REPL may hold the interrupt until its next input:
  // an empty line flushes it.
  Update(500 + AskQueue::kReactMs);
  EXPECT_EQ("\r", input_.Take());
  EXPECT_EQ(AskQueue::Resync::kNudged, asks_.resync());
  EXPECT_EQ(At(500 + 2 * AskQueue::kReactMs), asks_.next_wakeup());
  Update(500 + 2 * AskQueue::kReactMs - 1);
  EXPECT_EQ("", input_.written);
  Update(500 + 2 * AskQueue::kReactMs);  // no second nudge: it goes on
  EXPECT_EQ("1+1\r", input_.Take());
}

TEST_F(AskQueueTest, AQuestionLeftOpenIsInterruptedBeforeTheNextAsk) {
  AskEndsAtQuestion("input()", "input()\r\nName? ");
  EXPECT_EQ(AskQueue::Resync::kInterruptFirst, asks_.resync());
  EXPECT_EQ(TimePoint::max(), asks_.next_wakeup());  // idle: nothing to do yet
  ASSERT_TRUE(asks_.Add(AskFor("2", "1+1"), At(3000)));
  Update(3000);
  EXPECT_EQ("\x03", input_.Take());
  EXPECT_EQ(AskQueue::Resync::kAwaitReaction, asks_.resync());
  Output("^C\r\n>>> ", 3050);
  Update(3050);
  Update(3050 + AskQueue::kQuietMs);
  EXPECT_EQ("1+1\r", input_.Take());
}

// A question the interrupt keys do not end (less ignores C-c): once every
// nudge is spent, the ask it holds back fails with needs_input, and so does
// the next at once, until input reaches the program.
TEST_F(AskQueueTest, AQuestionInterruptsDoNotEndFailsTheAsksItHoldsBack) {
  AskEndsAtQuestion("page", "page\r\nmore? ");
  ASSERT_TRUE(asks_.Add(AskFor("2", "1+1", 60000), At(3000)));
  for (int ms = 3000; ms <= 12000 && sink_.lines.size() < 2; ms += 50) Update(ms);
  EXPECT_EQ("\x03\x03\r", input_.Take()) << "interrupt, interrupt again, then Enter";
  ASSERT_EQ(2u, sink_.lines.size());
  EXPECT_TRUE(sink_.Has(R"({"id":2,"type":"reply","ok":false,"kind":"needs_input")")) << sink_.lines.back();
  EXPECT_NE(std::string::npos, sink_.lines.back().find(R"("question":"more?")")) << sink_.lines.back();
  EXPECT_EQ(AskQueue::Resync::kStuckAtQuestion, asks_.resync());
  ASSERT_TRUE(asks_.Add(AskFor("3", "2+2", 60000), At(12000)));
  ASSERT_TRUE(asks_.Add(AskFor("5", "4+4", 60000), At(12000)));
  Update(12000);  // both, in one go: the second is held back by the same question
  EXPECT_TRUE(sink_.Has(R"({"id":3,"type":"reply","ok":false,"kind":"needs_input")")) << sink_.lines.back();
  EXPECT_TRUE(sink_.Has(R"({"id":5,"type":"reply","ok":false,"kind":"needs_input")")) << sink_.lines.back();
  EXPECT_EQ("", input_.Take()) << "no more interrupts: the answer is known";
  // The client answers; the prompt comes back and the next ask runs.
  asks_.OnInput(At(13000));
  Output("y\r\n>>> ", 13010);
  ASSERT_TRUE(asks_.Add(AskFor("4", "3+3"), At(13010)));
  for (int ms = 13010; ms <= 14000; ms += 50) Update(ms);
  EXPECT_EQ("3+3\r", input_.Take());
}

// The client answered the question (or pressed q in a pager) just before the
// next ask: the answer takes effect first, since an interrupt would flush it
// unread.
TEST_F(AskQueueTest, AnAnswerSentAfterTheQuestionTakesEffectBeforeAnyInterrupt) {
  AskEndsAtQuestion("input()", "input()\r\nName? ");
  asks_.OnInput(At(3000));  // the client typed the answer
  ASSERT_TRUE(asks_.Add(AskFor("2", "1+1"), At(3000)));
  Update(3000);
  EXPECT_EQ("", input_.written);
  EXPECT_EQ(At(3000 + AskQueue::kAnswerEffectMs), asks_.next_wakeup());
  Output("Ada\r\n>>> ", 3100);
  Update(3100);
  Update(3100 + AskQueue::kQuietMs);
  EXPECT_EQ("1+1\r", input_.Take()) << "no interrupt: the prompt came back";
}

TEST_F(AskQueueTest, AnAnswerThatLeavesTheQuestionUpIsInterruptedAfterAWhile) {
  AskEndsAtQuestion("input()", "input()\r\nName? ");
  asks_.OnInput(At(3000));  // typed, but no Enter
  Output("Ad", 3010);
  ASSERT_TRUE(asks_.Add(AskFor("2", "1+1"), At(3000)));
  Update(3010);
  EXPECT_EQ("", input_.written);
  Update(3000 + AskQueue::kAnswerEffectMs);
  EXPECT_EQ("\x03", input_.Take());
}

TEST_F(AskQueueTest, BackgroundOutputAtThePromptGetsAnEnterOncePerScreen) {
  ASSERT_TRUE(asks_.Add(AskFor("1", "6*7"), At(0)));
  asks_.OnReady(At(0));
  Update(0);
  input_.Take();
  Output("6*7\r\n42\r\n>>> ", 10);
  Update(10);
  // A background thread prints over the prompt.
  Output("tick\r\n", 1000);
  ASSERT_TRUE(asks_.Add(AskFor("2", "1+1"), At(1000)));
  Update(1000);
  EXPECT_EQ("", input_.written);
  EXPECT_EQ(At(1000 + AskQueue::kBackgroundQuietMs), asks_.next_wakeup());
  Update(1000 + AskQueue::kBackgroundQuietMs);
  EXPECT_EQ("\r", input_.Take());
  Update(1400);
  EXPECT_EQ("", input_.written);  // once per screen
  Output(">>> ", 1450);
  Update(1450);
  EXPECT_EQ("1+1\r", input_.Take());
}

TEST_F(AskQueueTest, InputSentByTheClientEndsTheAtPromptState) {
  asks_.OnInput(clock_.t0);
  EXPECT_EQ(AskQueue::Resync::kUnknown, asks_.resync());
  Output("tick\r\n", 0);
  ASSERT_TRUE(asks_.Add(AskFor("1", "1+1", 1000), At(0)));
  asks_.OnReady(At(0));
  Update(1000 + AskQueue::kBackgroundQuietMs);
  EXPECT_EQ("", input_.written);  // what the program does with the input is unknown: no Enter
}

TEST_F(AskQueueTest, AQueuedAskThatNeverGetsReadyTimesOut) {
  asks_.OnInput(clock_.t0);  // (else an Enter would try to bring the prompt back)
  Output("busy\r\n", 0);  // no prompt
  ASSERT_TRUE(asks_.Add(AskFor("1", "1+1", 1000), At(0)));
  asks_.OnReady(At(0));
  Update(0);
  EXPECT_EQ(At(1000), asks_.next_wakeup());
  Update(1000);
  ASSERT_EQ(1u, sink_.lines.size());
  EXPECT_NE(std::string::npos, sink_.lines[0].find(R"("kind":"timeout")"));
  EXPECT_TRUE(asks_.empty());
  EXPECT_EQ(TimePoint::max(), asks_.next_wakeup());
}

// A queued ask's own deadline is no wake-up while another ask runs (it
// cannot start then; its clock restarts when it reaches the head).
TEST_F(AskQueueTest, AQueuedAsksDeadlineIsNoWakeUpWhileAnotherRuns) {
  ASSERT_TRUE(asks_.Add(AskFor("1", "sleep", 10000), At(0)));
  ASSERT_TRUE(asks_.Add(AskFor("2", "1+1", 1000), At(0)));
  asks_.OnReady(At(0));
  Update(0);
  Output("sleep\r\n", 5);
  Update(2000);
  EXPECT_GT(asks_.next_wakeup(), At(2000));
  EXPECT_EQ(1u, asks_.queued());
  EXPECT_TRUE(sink_.lines.empty());
}

// not_ready: every queued ask gets its reply.
TEST_F(AskQueueTest, FailQueuedAnswersEveryQueuedAsk) {
  for (const char* id : {"1", "2", "3"}) ASSERT_TRUE(asks_.Add(AskFor(id, "x"), At(0)));
  asks_.FailQueued(ErrorKind::kNotReady, "it never showed its prompt");
  ASSERT_EQ(3u, sink_.lines.size());
  for (const std::string& l : sink_.lines) {
    EXPECT_NE(std::string::npos, l.find(R"("ok":false,"kind":"not_ready","error":"it never showed its prompt")")) << l;
  }
  EXPECT_TRUE(asks_.empty());
}

// The program exited: the active ask and the queued ones are answered, and
// nothing is left to wake up for (no interrupt to a dead program).
TEST_F(AskQueueTest, ChildExitAnswersTheActiveAndQueuedAsks) {
  ASSERT_TRUE(asks_.Add(AskFor("1", "sleep"), At(0)));
  ASSERT_TRUE(asks_.Add(AskFor("2", "x"), At(0)));
  asks_.OnReady(At(0));
  Update(0);
  input_.Take();
  asks_.Cancel(CancelOf("9", "2"), &term_, &input_, At(1));  // queued: no interrupt
  EXPECT_EQ("", input_.written);
  ASSERT_TRUE(asks_.Add(AskFor("3", "y"), At(2)));
  Output("sleep\r\nbye\r\n", 10);
  asks_.LastLook(term_, &input_, At(10));
  asks_.ChildExited(&term_, "the program exited with code 3", At(10));
  EXPECT_TRUE(sink_.Has(R"({"id":1,"type":"reply","ok":false,"kind":"exited")"));
  EXPECT_TRUE(sink_.Has(R"({"id":3,"type":"reply","ok":false,"kind":"exited")"));
  EXPECT_TRUE(asks_.empty());
  EXPECT_EQ(TimePoint::max(), asks_.next_wakeup());
}

// EOF waits for pending asks: the session closes only once empty().
TEST_F(AskQueueTest, EmptyOnlyOnceEveryAskIsAnswered) {
  EXPECT_TRUE(asks_.empty());
  ASSERT_TRUE(asks_.Add(AskFor("1", "6*7"), At(0)));
  EXPECT_FALSE(asks_.empty());
  asks_.OnReady(At(0));
  Update(0);
  EXPECT_FALSE(asks_.empty());  // active
  Output("6*7\r\n42\r\n>>> ", 10);
  Update(10);
  EXPECT_TRUE(asks_.empty());
}

TEST_F(AskQueueTest, CancelOfAnUnknownAskIsAnError) {
  asks_.Cancel(CancelOf("2", "7"), &term_, &input_, At(0));
  ASSERT_EQ(1u, sink_.lines.size());
  EXPECT_EQ(R"({"id":2,"type":"reply","ok":false,"kind":"error","error":"no ask with id 7 is running or queued"})",
            sink_.lines[0]);
}

// An agent's input box that kept a prompt whose Enter it lost, and ignores
// the interrupt (Cline and Escape): once the nudge had its time too, the
// box is cleared (clear_input_keys) and the next ask runs, its prompt alone.
TEST(AskQueueInputBox, APromptLeftInTheBoxThroughEveryNudgeIsCleared) {
  EngineConfig c;
  c.name = "agent";
  c.prompt = {"^❯ $", MatchScope::kCursorLine};
  c.submit.mode = SubmitMode::kPaste;
  c.submit.enter_delay_ms = 0;
  c.interrupt_keys = {"Escape"};
  c.clear_input_keys = {"C-u"};
  c.reply.start = "^● ";
  ScreenMatcher matcher(c);
  Terminal term(40, 6, 100);
  TranscriptReader transcript("", "", "", "");
  RecordingSink sink;
  AskQueue asks(c, matcher, "exec", &transcript, &sink);
  FakeChild input;
  FakeClock clock;
  auto update = [&](int ms) { asks.Update(&term, clock.At(0), false, &input, clock.At(ms)); };
  Feed(&term, "❯ ");
  ASSERT_TRUE(asks.Add(AskFor("1", "say one", 500), clock.At(0)));
  asks.OnReady(clock.At(0));
  update(0);
  update(1);
  EXPECT_EQ("say one\r", input.Take());  // no bracketed paste asked for
  Feed(&term, "say one");  // the paste shows; the Enter is lost
  update(500);
  ASSERT_TRUE(sink.Has(R"({"id":1,"type":"reply","ok":false,"kind":"timeout")"));
  EXPECT_EQ("\x1b", input.Take());
  ASSERT_TRUE(asks.Add(AskFor("2", "say two"), clock.At(600)));
  update(500 + AskQueue::kReactMs);
  EXPECT_EQ("\x1b", input.Take());  // no reaction: the interrupt again
  update(500 + 2 * AskQueue::kReactMs - 1);
  EXPECT_EQ("", input.written);
  update(500 + 2 * AskQueue::kReactMs);  // still none: the box is cleared
  EXPECT_EQ("\x15", input.Take());
  Feed(&term, "\r\x1b[K❯ ");
  for (int ms = 500 + 2 * AskQueue::kReactMs; ms < 5000 && input.written.empty(); ms += 50) update(ms);
  EXPECT_EQ("say two\r", input.Take());
}

// An agent TUI that waits reply_settle_ms after its done state, with pi's
// transcript: its reply's end comes when the record says the turn is over,
// not a quiet time later.
class SettlingAgentTest : public ::testing::Test {
 protected:
  static EngineConfig Agent(const std::string& dir) {
    EngineConfig c;
    c.name = "agent";
    c.prompt = {"^> $", MatchScope::kCursorLine};
    c.busy = {{"working", MatchScope::kScreen}};
    c.submit.mode = SubmitMode::kPaste;
    c.submit.enter_delay_ms = 0;
    c.reply.start = "^\\* ";
    c.timeouts.reply_settle_ms = 150;
    c.transcript.format = "pi";
    c.transcript.path = dir + "/*.jsonl";
    return c;
  }
  SettlingAgentTest()
      : dir_(MakeDir()), file_(dir_ + "/session.jsonl"), engine_(Agent(dir_)), matcher_(engine_),
        term_(60, 10, 100), transcript_("pi", engine_.transcript.path, "/tmp/clisb-pi/proj", kSessionId),
        asks_(engine_, matcher_, "exec", &transcript_, &sink_) {
    std::ofstream(file_) << Lines(RecordedTranscript("pi-0.73.1.jsonl"), 0, 3);  // the header
    Feed(&term_, "> ");
  }
  ~SettlingAgentTest() override {
    unlink(file_.c_str());
    rmdir(dir_.c_str());
  }
  static std::string MakeDir() {
    char dir[] = "/tmp/tuidriver-settle-XXXXXX";
    return mkdtemp(dir) ? dir : "";
  }
  void Update(int ms) { asks_.Update(&term_, clock_.At(ms), false, &input_, clock_.At(ms)); }
  // The ask's turn up to its done state at 100 ms: typed, busy, answered
  // with `reply` on screen.
  void TurnShownDone(const std::string& reply = "Done.", bool stream = false) {
    Request ask = AskFor("1", "run two commands");
    if (stream) ask.type = RequestType::kAskStream;
    ASSERT_TRUE(asks_.Add(ask, clock_.At(0)));
    asks_.OnReady(clock_.At(0));
    Update(0);
    Update(1);
    EXPECT_NE("", input_.Take());
    Feed(&term_, "run two commands\r\nworking");
    Update(20);
    Feed(&term_, "\r\x1b[K* " + reply + "\r\n> ");
    Update(100);
  }
  // The turn's records (the prompt, two tool calls, "Done."), as pi writes them.
  void RecordTurn() { std::ofstream(file_, std::ios::app) << Lines(RecordedTranscript("pi-0.73.1.jsonl"), 3, 9); }

  static constexpr const char* kSessionId = "01a214af-98e8-7262-a7c1-fdd5b0865a01";
  std::string dir_, file_;
  EngineConfig engine_;
  ScreenMatcher matcher_;
  Terminal term_;
  TranscriptReader transcript_;
  FakeChild input_;
  RecordingSink sink_;
  AskQueue asks_;
  FakeClock clock_;
};

// The screen may still be painting then (here: a row the TUI is about to
// replace), so the text is the record's.
TEST_F(SettlingAgentTest, TheRecordedEndOfTheTurnCutsTheQuietTimeShort) {
  TurnShownDone("Done. ───");
  EXPECT_TRUE(sink_.lines.empty());
  // Nothing recorded yet: the transcript is read again every poll.
  EXPECT_EQ(clock_.At(100 + AskQueue::kTranscriptPollMs), asks_.next_wakeup());
  Update(110);
  EXPECT_TRUE(sink_.lines.empty());
  RecordTurn();
  Update(120);  // 130 ms before the quiet time was over
  ASSERT_EQ(1u, sink_.lines.size());
  EXPECT_NE(std::string::npos, sink_.lines[0].find(R"("ok":true,"text":"Done.","markdown":"Done.")")) << sink_.lines[0];
}

// ask_stream: the last delta is the record's too, not the half-painted row.
TEST_F(SettlingAgentTest, AStreamCutShortEndsWithTheRecordsText) {
  TurnShownDone("Done. ───", true);
  RecordTurn();
  Update(110);
  std::string streamed;
  for (const std::string& line : sink_.lines) {
    size_t at = line.find(R"("delta":")");
    if (at != std::string::npos) streamed += line.substr(at + 9, line.find('"', at + 9) - at - 9);
  }
  EXPECT_EQ("Done.", streamed);
  EXPECT_EQ(std::string::npos, sink_.Find(R"("type":"reply")").find("revised"));
}

TEST_F(SettlingAgentTest, WithoutARecordTheQuietTimeDecides) {
  TurnShownDone();
  for (int ms = 110; ms < 250; ms += 10) {
    Update(ms);
    ASSERT_TRUE(sink_.lines.empty()) << ms;
  }
  Update(250);  // quiet long enough: finished, its reply held for the record
  EXPECT_TRUE(sink_.lines.empty());
  RecordTurn();
  Update(260);
  ASSERT_EQ(1u, sink_.lines.size());
  EXPECT_NE(std::string::npos, sink_.lines[0].find(R"("markdown":"Done.")")) << sink_.lines[0];
}


// A person typed at the prompt without Enter (`abc`): asks fail at once
// with unfinished_input, and nothing is typed over it, until the line is
// finished; then asks run again.
TEST_F(AskQueueTest, AHalfTypedLineFailsAsksAtOnce) {
  asks_.OnInput(At(0));  // the person's keys
  Output("abc", 5);
  input_.reader = TerminalReader::kReading;
  ASSERT_TRUE(asks_.Add(AskFor("1", "6*7", 30000), At(10)));
  Update(10);
  EXPECT_TRUE(sink_.lines.empty());  // the input has not settled yet
  EXPECT_EQ(At(155), asks_.next_wakeup());
  Update(155);
  ASSERT_EQ(1u, sink_.lines.size());
  EXPECT_NE(std::string::npos, sink_.lines[0].find(R"({"id":1,"type":"reply","ok":false,"kind":"unfinished_input")"))
      << sink_.lines[0];
  EXPECT_NE(std::string::npos, sink_.lines[0].find(">>> abc")) << sink_.lines[0];
  EXPECT_EQ("", input_.written);  // the person's line is left as it is
  ASSERT_TRUE(asks_.Add(AskFor("2", "6*7", 30000), At(200)));
  Update(200);
  EXPECT_TRUE(sink_.Has(R"({"id":2,"type":"reply","ok":false,"kind":"unfinished_input")"));
  // The person finishes it: the next ask runs.
  asks_.OnInput(At(300));
  Output("\r\nNameError\r\n>>> ", 310);
  ASSERT_TRUE(asks_.Add(AskFor("3", "6*7"), At(320)));
  Update(320);
  EXPECT_EQ("6*7\r", input_.Take());
}

// The same for a block begun at the continuation prompt.
TEST_F(AskQueueTest, ABlockBegunFailsAsksAtOnce) {
  asks_.OnInput(At(0));
  Output("for i in range(2):\r\n... ", 5);
  input_.reader = TerminalReader::kReading;
  ASSERT_TRUE(asks_.Add(AskFor("1", "6*7", 30000), At(200)));
  Update(200);
  EXPECT_TRUE(sink_.Has(R"({"id":1,"type":"reply","ok":false,"kind":"unfinished_input")")) << sink_.lines.back();
  EXPECT_EQ("", input_.written);
}

// An Enter still on its way (the program has not read it: it is seen not
// waiting for the terminal) is no unfinished input: the ask waits for the
// prompt, asking the process again meanwhile.
TEST_F(AskQueueTest, ALineOnItsWayIsNotUnfinished) {
  asks_.OnInput(At(0));
  Output("abc", 5);
  input_.reader = TerminalReader::kNotReading;
  ASSERT_TRUE(asks_.Add(AskFor("1", "6*7", 30000), At(200)));
  Update(200);
  EXPECT_TRUE(sink_.lines.empty());
  EXPECT_EQ(At(300), asks_.next_wakeup());
  Output("\r\nNameError\r\n>>> ", 250);
  Update(300);
  EXPECT_EQ("6*7\r", input_.Take());
  EXPECT_TRUE(sink_.lines.empty());
}

}  // namespace
}  // namespace tuidriver
