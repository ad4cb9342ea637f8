#include "typist.h"

#include <gtest/gtest.h>

#include "test_fakes.h"

namespace tuidriver {
namespace {

class TypistTest : public ::testing::Test {
 protected:
  TimePoint At(int ms) const { return clock_.At(ms); }
  void Update(int ms) { typist_.Update(generation_, &child_, At(ms)); }
  FakeClock clock_;
  FakeChild child_;
  Typist typist_;
  uint64_t generation_ = 1;  // the screen's
};

TEST_F(TypistTest, NothingQueuedNoWakeUp) {
  EXPECT_TRUE(typist_.empty());
  EXPECT_EQ(TimePoint::max(), typist_.next_wakeup());
  Update(0);
  EXPECT_EQ("", child_.written);
}

TEST_F(TypistTest, WritesEachAfterItsDelay) {
  typist_.Queue("a", 0);
  typist_.Queue("b", 0);
  typist_.Queue("\r", 100);
  Update(0);
  EXPECT_EQ(1, child_.writes);
  EXPECT_EQ("ab", child_.Take());  // no delay: together, in one write
  EXPECT_EQ(At(100), typist_.next_wakeup());
  Update(99);
  EXPECT_EQ("", child_.Take());
  Update(100);
  EXPECT_EQ("\r", child_.Take());
  EXPECT_TRUE(typist_.empty());
  EXPECT_EQ(TimePoint::max(), typist_.next_wakeup());
}

TEST_F(TypistTest, AfterEchoWaitsForAScreenChangeThenItsDelay) {
  typist_.Queue("text", 0);
  typist_.Queue("\r", 50, true);
  Update(0);
  EXPECT_EQ("text", child_.Take());
  EXPECT_EQ(At(Typist::kEchoWaitMs), typist_.next_wakeup());  // gives up waiting then
  Update(500);
  EXPECT_EQ("", child_.Take());  // the screen has not changed
  ++generation_;                 // the echo
  Update(600);
  EXPECT_EQ("", child_.Take());  // the pause starts now
  EXPECT_EQ(At(650), typist_.next_wakeup());
  Update(650);
  EXPECT_EQ("\r", child_.Take());
}

TEST_F(TypistTest, AfterEchoGivesUpWaitingAfterASecond) {
  typist_.Queue("text", 0);
  typist_.Queue("\r", 0, true);
  Update(0);
  child_.Take();
  Update(Typist::kEchoWaitMs - 1);
  EXPECT_EQ("", child_.Take());
  Update(Typist::kEchoWaitMs);
  EXPECT_EQ("\r", child_.Take());
}

TEST_F(TypistTest, HoldUntilDelaysTheNextWrite) {
  typist_.HoldUntil(At(800));
  typist_.Queue("1", 0);
  Update(0);
  EXPECT_EQ("", child_.Take());
  EXPECT_EQ(At(800), typist_.next_wakeup());
  Update(800);
  EXPECT_EQ("1", child_.Take());
}

TEST_F(TypistTest, ClearDropsWhatIsQueued) {
  typist_.Queue("a", 0);
  typist_.Queue("b", 100);
  Update(0);
  typist_.Clear();
  Update(100);
  EXPECT_EQ("a", child_.Take());
  EXPECT_EQ(TimePoint::max(), typist_.next_wakeup());
}

TEST_F(TypistTest, ResubmitsAtMostTwiceAndNotAgainWhenDeclined) {
  constexpr int kResubmitMs = 1000;
  typist_.Submitted(At(0));
  EXPECT_EQ(At(1000), typist_.ResubmitDue(At(0), kResubmitMs));
  EXPECT_EQ(At(1500), typist_.ResubmitDue(At(500), kResubmitMs));  // from the last change
  typist_.Decline(At(1000));
  EXPECT_EQ(TimePoint::max(), typist_.ResubmitDue(At(0), kResubmitMs));  // checked then already
  EXPECT_EQ(At(1200), typist_.ResubmitDue(At(200), kResubmitMs));        // a change: a new chance
  typist_.Resubmit("\r", &child_, At(1200));
  EXPECT_EQ("\r", child_.Take());
  EXPECT_EQ(At(2200), typist_.ResubmitDue(At(200), kResubmitMs));  // from that Enter
  typist_.Resubmit("\r", &child_, At(2200));
  EXPECT_EQ(TimePoint::max(), typist_.ResubmitDue(At(200), kResubmitMs));  // twice is enough
  typist_.Restart();
  EXPECT_EQ(At(3200), typist_.ResubmitDue(At(200), kResubmitMs));
}

}  // namespace
}  // namespace tuidriver
