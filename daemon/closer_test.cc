#include "closer.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <vector>

#include "test_fakes.h"

namespace tuidriver {
namespace {

class CloserTest : public ::testing::Test {
 protected:
  CloserTest() : term_(40, 5, 10) {
    engine_.quit_keys = {"C-d"};
    engine_.timeouts.quit_grace_ms = 1000;
    engine_.timeouts.term_grace_ms = 2000;
  }
  TimePoint At(int ms) const { return clock_.At(ms); }
  void Update(int ms, bool settled = false) {
    closer_.Update(settled, TimePoint::min(), term_, &child_, &child_, At(ms));
  }
  EngineConfig engine_;
  Terminal term_;
  FakeChild child_;
  Closer closer_{engine_};
  FakeClock clock_;
};

TEST_F(CloserTest, QuitKeysThenTermThenKillThenGiveUp) {
  EXPECT_EQ(TimePoint::max(), closer_.next_wakeup());  // not closing: no wake-up
  closer_.Begin(false, false, term_, &child_, At(0));
  EXPECT_EQ("\x04", child_.written);
  EXPECT_EQ(Closer::Phase::kQuitKeys, closer_.phase());
  EXPECT_EQ(At(1000), closer_.next_wakeup());
  Update(999);
  EXPECT_TRUE(child_.signals.empty());
  Update(1000);
  EXPECT_EQ((std::vector<std::string>{"fg:15", "group:15", "group:1"}), child_.signals);
  EXPECT_EQ(At(3000), closer_.next_wakeup());
  child_.signals.clear();
  Update(3000);
  EXPECT_EQ((std::vector<std::string>{"fg:9", "group:9"}), child_.signals);
  EXPECT_EQ(At(3000 + Closer::kKillWaitMs), closer_.next_wakeup());
  EXPECT_FALSE(closer_.gave_up());
  Update(3000 + Closer::kKillWaitMs);
  EXPECT_TRUE(closer_.gave_up());
  EXPECT_EQ(TimePoint::max(), closer_.next_wakeup());
}

TEST_F(CloserTest, UrgentSkipsTheKeysAndShortensTheGrace) {
  closer_.Begin(false, true, term_, &child_, At(0));
  EXPECT_EQ("", child_.written);
  EXPECT_EQ(At(0), closer_.next_wakeup());
  Update(0);
  EXPECT_EQ(Closer::Phase::kTerm, closer_.phase());
  EXPECT_EQ(At(Closer::kUrgentGraceMs), closer_.next_wakeup());
}

TEST_F(CloserTest, WithoutQuitKeysItSignalsAtOnce) {
  engine_.quit_keys.clear();
  closer_.Begin(false, false, term_, &child_, At(0));
  Update(0);
  EXPECT_EQ(Closer::Phase::kTerm, closer_.phase());
  EXPECT_EQ(At(2000), closer_.next_wakeup());
}

TEST_F(CloserTest, SettleWaitsForTheInterruptedProgramThenTypesTheKeys) {
  closer_.Begin(true, false, term_, &child_, At(0));
  EXPECT_EQ(Closer::Phase::kSettle, closer_.phase());
  EXPECT_EQ("", child_.written);
  // Quiet at 150 ms: that is when it may be settled without new output.
  closer_.Update(false, At(150), term_, &child_, &child_, At(10));
  EXPECT_EQ(At(150), closer_.next_wakeup());
  // Past the quiet time but not settled (no prompt): only the deadline.
  closer_.Update(false, At(150), term_, &child_, &child_, At(200));
  EXPECT_EQ(At(Closer::kSettleMs), closer_.next_wakeup());
  Update(300, true);
  EXPECT_EQ("\x04", child_.written);
  EXPECT_EQ(Closer::Phase::kQuitKeys, closer_.phase());
}

TEST_F(CloserTest, SettleGivesUpAfterItsTime) {
  closer_.Begin(true, false, term_, &child_, At(0));
  Update(Closer::kSettleMs);
  EXPECT_EQ("\x04", child_.written);
}

TEST_F(CloserTest, HurryDuringTheQuitKeysShortensTheirGrace) {
  closer_.Begin(false, false, term_, &child_, At(0));
  closer_.Hurry(At(100));
  EXPECT_EQ(At(100 + Closer::kUrgentGraceMs), closer_.next_wakeup());
  Update(100 + Closer::kUrgentGraceMs);
  EXPECT_EQ(At(100 + 2 * Closer::kUrgentGraceMs), closer_.next_wakeup());
}

TEST_F(CloserTest, HurryDuringTheSettleSkipsTheKeys) {
  closer_.Begin(true, false, term_, &child_, At(0));
  closer_.Hurry(At(50));
  Update(50);
  EXPECT_EQ("", child_.written);
  EXPECT_EQ(Closer::Phase::kTerm, closer_.phase());
}

}  // namespace
}  // namespace tuidriver
