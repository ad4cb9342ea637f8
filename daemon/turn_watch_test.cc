#include "turn_watch.h"

#include <gtest/gtest.h>

#include "echo_tracker.h"
#include "engine_config.h"
#include "reply_collector.h"
#include "screen_matcher.h"
#include "terminal.h"
#include "test_fakes.h"

namespace tuidriver {
namespace {

// An agent's TUI as the engines describe one: an input box `❯ ` (empty
// while the cursor is right after it), `Working` while busy, and replies
// marked `● `.
EngineConfig Agent(int settle_ms) {
  EngineConfig c;
  c.prompt = {"^❯ $", MatchScope::kCursorLine};
  c.busy = {{"Working", MatchScope::kScreen}};
  c.submit.mode = SubmitMode::kPaste;
  c.reply.start = "^● ";
  c.timeouts.reply_settle_ms = settle_ms;
  return c;
}

// A prompt ("hi") typed whole on a terminal showing `screen`, watched the
// way the Ask watches it: the screen is followed before each judgement, at
// the fake time `at`.
struct Turn {
  Turn(const EngineConfig& c, const std::string& screen)
      : term(40, 6, 100),
        matcher(c),
        prompt("hi"),
        echo(0),
        reply(c, matcher, prompt),
        submission(c),
        watch(c, matcher, &echo, reply, &submission) {
    Feed(&term, screen);
    echo.PromptTyped(term);
    reply.Start(term, echo);
  }
  TurnWatch::Verdict Judge(TimePoint at) {
    watch.Follow(term.generation(), at);
    return watch.Judge(term, at);
  }
  Terminal term;
  ScreenMatcher matcher;
  std::string prompt;  // before `reply`, which holds it
  EchoTracker echo;
  ReplyCollector reply;
  Submission submission;
  TurnWatch watch;
};

// The screen an agent shows at rest: an empty box, the cursor after `❯ `.
const char kEmptyBox[] = "\x1b[4;1H\x1b[K❯ ";
const char kBusy[] = "\x1b[3;1H\x1b[KWorking";
const char kIdle[] = "\x1b[3;1H\x1b[K";

TEST(TurnWatch, DoneOnceBackAtItsPromptAndQuietForTheSettleTime) {
  EngineConfig c = Agent(300);
  Turn turn(c, kEmptyBox);
  Terminal& term = turn.term;
  TimePoint t0 = Clock::now();
  Feed(&term, "hi");  // the paste in the box
  EXPECT_EQ(TurnWatch::Verdict::kGoing, turn.Judge(t0));
  Feed(&term, std::string("\x1b[1;1H❯ hi") + kBusy + kEmptyBox);
  EXPECT_EQ(TurnWatch::Verdict::kGoing, turn.Judge(t0 + Ms(100)));  // busy
  EXPECT_TRUE(turn.watch.saw_busy());
  Feed(&term, std::string("\x1b[2;1H● said hi") + kIdle + kEmptyBox);
  EXPECT_EQ(TurnWatch::Verdict::kSettling, turn.Judge(t0 + Ms(200)));
  EXPECT_EQ(t0 + Ms(500), turn.watch.settle_due());
  EXPECT_EQ(TurnWatch::Verdict::kSettling, turn.Judge(t0 + Ms(499)));
  EXPECT_EQ(TurnWatch::Verdict::kDone, turn.Judge(t0 + Ms(500)));
}

TEST(TurnWatch, ANewChangeRestartsTheSettleTime) {
  EngineConfig c = Agent(300);
  Turn turn(c, kEmptyBox);
  Terminal& term = turn.term;
  TimePoint t0 = Clock::now();
  Feed(&term, kBusy);
  turn.Judge(t0);
  Feed(&term, std::string("\x1b[2;1H● said") + kIdle + kEmptyBox);
  EXPECT_EQ(TurnWatch::Verdict::kSettling, turn.Judge(t0 + Ms(100)));
  Feed(&term, std::string("\x1b[2;1H● said hi") + kEmptyBox);  // the reply's end, painted late
  EXPECT_EQ(TurnWatch::Verdict::kSettling, turn.Judge(t0 + Ms(350)));
  EXPECT_EQ(t0 + Ms(650), turn.watch.settle_due());
  EXPECT_EQ(TurnWatch::Verdict::kDone, turn.Judge(t0 + Ms(650)));
}

// A turn too quick to see busy has begun once a new reply shows.
TEST(TurnWatch, ATurnNeverSeenBusyBeginsWithItsReply) {
  EngineConfig c = Agent(0);
  Turn turn(c, kEmptyBox);
  Terminal& term = turn.term;
  TimePoint t0 = Clock::now();
  EXPECT_TRUE(turn.watch.NotStarted(term));
  EXPECT_EQ(TurnWatch::Verdict::kGoing, turn.Judge(t0));  // at its prompt, nothing of the turn yet
  Feed(&term, std::string("\x1b[1;1H❯ hi\x1b[2;1H● said hi") + kEmptyBox);
  EXPECT_FALSE(turn.watch.NotStarted(term));
  EXPECT_EQ(TurnWatch::Verdict::kDone, turn.Judge(t0 + Ms(10)));
}

// The same prompt asked again: the earlier turn's reply, still on screen,
// is not this turn's.
TEST(TurnWatch, TheReplyOnScreenWhenTheAskBeganIsStale) {
  EngineConfig c = Agent(0);
  Turn turn(c, std::string("\x1b[1;1H❯ hi\x1b[2;1H● said hi") + kEmptyBox);
  Terminal& term = turn.term;
  TimePoint t0 = Clock::now();
  EXPECT_TRUE(turn.watch.ShowsStaleReply(term));
  EXPECT_TRUE(turn.watch.NotStarted(term));
  EXPECT_EQ(TurnWatch::Verdict::kGoing, turn.Judge(t0));
  Feed(&term, kBusy);  // busy: the turn has begun, whatever the screen shows
  turn.Judge(t0 + Ms(10));
  EXPECT_FALSE(turn.watch.ShowsStaleReply(term));
  Feed(&term, std::string(kIdle) + kEmptyBox);
  EXPECT_EQ(TurnWatch::Verdict::kDone, turn.Judge(t0 + Ms(20)));
}

// submit.resubmit_ms asks this: the prompt still in the box (no prompt, as
// a box holding text is none), nothing busy, no reply.
TEST(TurnWatch, TheEnterIsLostWhileThePromptStaysInTheBox) {
  EngineConfig c = Agent(0);
  Turn turn(c, kEmptyBox);
  Terminal& term = turn.term;
  EXPECT_FALSE(turn.watch.EnterLost(term));  // an empty box
  Feed(&term, "hi");
  EXPECT_TRUE(turn.watch.EnterLost(term));
  Feed(&term, kBusy);
  EXPECT_FALSE(turn.watch.EnterLost(term));
  Feed(&term, std::string(kIdle) + "\x1b[1;1H❯ hi\x1b[2;1H● said hi\x1b[4;5H");
  EXPECT_FALSE(turn.watch.EnterLost(term));  // a new reply shows below the echo
}

// submit.resubmit_ms after the screen's last change, the prompt still in
// the box gets its Enter again; a turn begun never does.
TEST(TurnWatch, ALostEnterIsPressedAgainOnceTheScreenIsStill) {
  EngineConfig c = Agent(0);
  c.submit.resubmit_ms = 1000;
  Turn turn(c, kEmptyBox);
  Terminal& term = turn.term;
  FakeChild child;
  TimePoint t0 = Clock::now();
  turn.submission.Submitted(t0);
  Feed(&term, "hi");  // the paste, which took its Enter in
  EXPECT_EQ(TurnWatch::Verdict::kGoing, turn.Judge(t0 + Ms(100)));
  EXPECT_EQ(t0 + Ms(1100), turn.watch.ResubmitDue(false));
  EXPECT_EQ(TimePoint::max(), turn.watch.ResubmitDue(true));  // some of its reply streamed: begun
  turn.watch.ResubmitIfLost(term, &child, false, t0 + Ms(1099));
  EXPECT_EQ("", child.Take());
  turn.watch.ResubmitIfLost(term, &child, false, t0 + Ms(1100));
  EXPECT_EQ("\r", child.Take());
  EXPECT_EQ(t0 + Ms(2100), turn.watch.ResubmitDue(false));
  Feed(&term, kBusy);
  turn.Judge(t0 + Ms(1200));
  EXPECT_EQ(TimePoint::max(), turn.watch.ResubmitDue(false));
}

// An Enter that was not lost (the box is empty again) is not pressed
// again; the next look comes after the screen changes.
TEST(TurnWatch, AnEnterNotLostIsNotPressedAgain) {
  EngineConfig c = Agent(0);
  c.submit.resubmit_ms = 1000;
  Turn turn(c, kEmptyBox);
  Terminal& term = turn.term;
  FakeChild child;
  TimePoint t0 = Clock::now();
  turn.submission.Submitted(t0);
  turn.Judge(t0);
  turn.watch.ResubmitIfLost(term, &child, false, t0 + Ms(1000));
  EXPECT_EQ("", child.Take());
  EXPECT_EQ(TimePoint::max(), turn.watch.ResubmitDue(false));
  Feed(&term, "hi");
  turn.Judge(t0 + Ms(1500));
  EXPECT_EQ(t0 + Ms(2500), turn.watch.ResubmitDue(false));
}

TEST(TurnWatch, ResetForgetsTheBusySeen) {
  EngineConfig c = Agent(0);
  Turn turn(c, kEmptyBox);
  Terminal& term = turn.term;
  Feed(&term, kBusy);
  turn.Judge(Clock::now());
  EXPECT_TRUE(turn.watch.saw_busy());
  turn.watch.Reset();
  EXPECT_FALSE(turn.watch.saw_busy());
  Feed(&term, kIdle);
  EXPECT_TRUE(turn.watch.NotStarted(term));
}

// Without a reply marker the turn has begun once the prompt was hidden (the
// echo showed) or the cursor left the row the prompt was typed on.
TEST(TurnWatch, WithoutAReplyMarkerTheCursorsMoveBeginsTheTurn) {
  EngineConfig c = Agent(0);
  c.reply.start.clear();
  Turn turn(c, kEmptyBox);
  Terminal& term = turn.term;
  TimePoint t0 = Clock::now();
  EXPECT_EQ(TurnWatch::Verdict::kGoing, turn.Judge(t0));
  Feed(&term, "\x1b[5;1H❯ ");  // a prompt a row lower
  EXPECT_EQ(TurnWatch::Verdict::kDone, turn.Judge(t0 + Ms(10)));
}

TEST(TurnWatch, WithoutAReplyMarkerAHiddenPromptBeginsTheTurn) {
  EngineConfig c = Agent(0);
  c.reply.start.clear();
  Turn turn(c, kEmptyBox);
  Terminal& term = turn.term;
  TimePoint t0 = Clock::now();
  Feed(&term, "hi");  // no prompt: the echo shows
  EXPECT_EQ(TurnWatch::Verdict::kGoing, turn.Judge(t0));
  Feed(&term, "\x1b[4;1H\x1b[K❯ ");  // the same row, empty again
  EXPECT_EQ(TurnWatch::Verdict::kDone, turn.Judge(t0 + Ms(10)));
}

// An engine that reports its state by OSC and draws in synchronized frames
// (Codex) has painted its reply once a frame begun after that OSC is
// complete: no settle time.
TEST(TurnWatch, AFrameCompleteAfterTheBusyOscNeedsNoSettleTime) {
  EngineConfig c = Agent(300);
  c.busy_osc = 7501;
  Turn turn(c, kEmptyBox);
  Terminal& term = turn.term;
  TimePoint t0 = Clock::now();
  Feed(&term, kBusy);
  turn.Judge(t0);
  Feed(&term, std::string("\x1b]7501;idle\x07\x1b[?2026h\x1b[2;1H● said hi") + kIdle + kEmptyBox + "\x1b[?2026l");
  EXPECT_EQ(TurnWatch::Verdict::kDone, turn.Judge(t0 + Ms(10)));
}

}  // namespace
}  // namespace tuidriver
