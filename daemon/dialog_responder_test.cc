#include "dialog_responder.h"

#include <gtest/gtest.h>

#include "test_fakes.h"

namespace tuidriver {
namespace {

class DialogResponderTest : public ::testing::Test {
 protected:
  DialogResponderTest() : term_(40, 5, 10) {}
  static EngineConfig Engine() {
    EngineConfig c;
    c.prompt = {"^> $", MatchScope::kCursorLine};
    DialogRule trust;
    trust.name = "trust";
    trust.pattern = "Trust this folder\\?";
    trust.keys = {"Down", "Enter"};
    c.dialogs = {trust};
    return c;
  }
  TimePoint At(int ms) const { return clock_.At(ms); }
  int Update(int ms, bool answer = true) {
    return dialogs_.Update(term_, last_output_, answer, &input_, At(ms));
  }
  void Output(const std::string& s, int ms) {
    Feed(&term_, s);
    last_output_ = At(ms);
  }
  EngineConfig engine_ = Engine();
  ScreenMatcher matcher_{engine_};
  Terminal term_;
  FakeChild input_;
  DialogResponder dialogs_{engine_, matcher_, "exec"};
  FakeClock clock_;
  TimePoint last_output_ = clock_.t0;
};

TEST_F(DialogResponderTest, NoDialogNoKeysNoWakeUp) {
  Output("> ", 0);
  EXPECT_EQ(-1, Update(0));
  EXPECT_EQ(TimePoint::max(), dialogs_.next_wakeup());
  EXPECT_EQ(-1, Update(5000));
  EXPECT_EQ("", input_.written);
}

TEST_F(DialogResponderTest, AnswersASettledDialogOneKeyAtATime) {
  Output("Trust this folder?", 0);
  EXPECT_EQ(-1, Update(10));  // drawn, but not settled
  EXPECT_EQ(At(DialogResponder::kSettleMs), dialogs_.next_wakeup());
  EXPECT_EQ(0, Update(DialogResponder::kSettleMs));
  EXPECT_EQ("\x1b[B", input_.written);  // Down now, Enter a little later
  EXPECT_TRUE(dialogs_.sending());
  EXPECT_EQ(At(DialogResponder::kSettleMs + DialogResponder::kKeyGapMs), dialogs_.next_wakeup());
  Update(DialogResponder::kSettleMs + DialogResponder::kKeyGapMs);
  EXPECT_EQ("\x1b[B\r", input_.written);
  EXPECT_FALSE(dialogs_.sending());
  // Still there later: looked at again at the retry time.
  EXPECT_EQ(At(DialogResponder::kSettleMs + DialogResponder::kRetryMs), dialogs_.next_wakeup());
}

// Gemini's auth dialog on a loaded machine drew seconds before it read its
// keys: three answers 2 s apart were all lost. Each wait is now twice the last.
TEST_F(DialogResponderTest, ADialogThatStaysIsAnsweredAgainLessOftenThenNoMore) {
  Output("Trust this folder?", 0);
  std::vector<int> answered_at;
  for (int ms = 0; ms < 200000; ms += 25) {
    if (Update(ms) >= 0) answered_at.push_back(ms);
  }
  std::vector<int> expected = {150, 2150, 6150, 14150, 30150, 46150, 62150, 78150};
  EXPECT_EQ(expected, answered_at);
  EXPECT_EQ(TimePoint::max(), dialogs_.next_wakeup());  // given up: idle
  // What a start that then times out says about it.
  EXPECT_EQ("trust 8 times, the most it is answered, and still there", dialogs_.Answered());
}

TEST_F(DialogResponderTest, ADialogStillThereIsNamedSo) {
  Output("Trust this folder?", 0);
  for (int ms = 0; ms < 3000; ms += 25) Update(ms);
  EXPECT_EQ("trust 2 times, and still there", dialogs_.Answered());
  Output("\x1b[2J\x1b[H> ", 3000);
  Update(3500);
  EXPECT_EQ("trust 2 times", dialogs_.Answered());
}

TEST_F(DialogResponderTest, ADialogThatWentAwayIsAnsweredAgainWhenItComesBack) {
  Output("Trust this folder?", 0);
  EXPECT_EQ(0, Update(200));
  Update(300);
  Output("\x1b[2J\x1b[H> ", 400);
  EXPECT_EQ(-1, Update(400));
  Output("\x1b[2J\x1b[HTrust this folder?", 500);
  EXPECT_EQ(0, Update(700));
  EXPECT_EQ("trust 2 times, and still there", dialogs_.Answered());
}

TEST_F(DialogResponderTest, NotAnsweringMeansNoWakeUps) {
  Output("Trust this folder?", 0);
  EXPECT_EQ(-1, Update(10, false));
  EXPECT_EQ(TimePoint::max(), dialogs_.next_wakeup());
  EXPECT_EQ("", input_.written);
}

}  // namespace
}  // namespace tuidriver
