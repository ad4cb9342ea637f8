#include "closer.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <vector>

namespace tuidriver {
namespace {

using std::chrono::milliseconds;

struct RecordingInput : ChildInput {
  void Write(const std::string& bytes) override { written += bytes; }
  TerminalReader ReadsTerminal() const override { return TerminalReader::kUnknown; }
  std::string written;
};

// Records the signals as "fg:15", "group:1", ...
struct RecordingSignals : ChildSignals {
  void SignalForeground(int sig) override { sent.push_back("fg:" + std::to_string(sig)); }
  void SignalGroup(int sig) override { sent.push_back("group:" + std::to_string(sig)); }
  std::vector<std::string> sent;
};

class CloserTest : public ::testing::Test {
 protected:
  CloserTest() : term_(40, 5, 10) {
    engine_.quit_keys = {"C-d"};
    engine_.timeouts.quit_grace_ms = 1000;
    engine_.timeouts.term_grace_ms = 2000;
  }
  TimePoint At(int ms) const { return t0_ + milliseconds(ms); }
  void Update(int ms, bool settled = false) {
    closer_.Update(settled, TimePoint::min(), term_, &input_, &signals_, At(ms));
  }
  EngineConfig engine_;
  Terminal term_;
  RecordingInput input_;
  RecordingSignals signals_;
  Closer closer_{engine_};
  TimePoint t0_ = TimePoint() + std::chrono::hours(1);
};

TEST_F(CloserTest, QuitKeysThenTermThenKillThenGiveUp) {
  EXPECT_EQ(TimePoint::max(), closer_.next_wakeup());  // not closing: no wake-up
  closer_.Begin(false, false, term_, &input_, At(0));
  EXPECT_EQ("\x04", input_.written);
  EXPECT_EQ(Closer::Phase::kQuitKeys, closer_.phase());
  EXPECT_EQ(At(1000), closer_.next_wakeup());
  Update(999);
  EXPECT_TRUE(signals_.sent.empty());
  Update(1000);
  EXPECT_EQ((std::vector<std::string>{"fg:15", "group:15", "group:1"}), signals_.sent);
  EXPECT_EQ(At(3000), closer_.next_wakeup());
  signals_.sent.clear();
  Update(3000);
  EXPECT_EQ((std::vector<std::string>{"fg:9", "group:9"}), signals_.sent);
  EXPECT_EQ(At(3000 + Closer::kKillWaitMs), closer_.next_wakeup());
  EXPECT_FALSE(closer_.gave_up());
  Update(3000 + Closer::kKillWaitMs);
  EXPECT_TRUE(closer_.gave_up());
  EXPECT_EQ(TimePoint::max(), closer_.next_wakeup());
}

TEST_F(CloserTest, UrgentSkipsTheKeysAndShortensTheGrace) {
  closer_.Begin(false, true, term_, &input_, At(0));
  EXPECT_EQ("", input_.written);
  EXPECT_EQ(At(0), closer_.next_wakeup());
  Update(0);
  EXPECT_EQ(Closer::Phase::kTerm, closer_.phase());
  EXPECT_EQ(At(Closer::kUrgentGraceMs), closer_.next_wakeup());
}

TEST_F(CloserTest, WithoutQuitKeysItSignalsAtOnce) {
  engine_.quit_keys.clear();
  closer_.Begin(false, false, term_, &input_, At(0));
  Update(0);
  EXPECT_EQ(Closer::Phase::kTerm, closer_.phase());
  EXPECT_EQ(At(2000), closer_.next_wakeup());
}

TEST_F(CloserTest, SettleWaitsForTheInterruptedProgramThenTypesTheKeys) {
  closer_.Begin(true, false, term_, &input_, At(0));
  EXPECT_EQ(Closer::Phase::kSettle, closer_.phase());
  EXPECT_EQ("", input_.written);
  // Quiet at 150 ms: that is when it may be settled without new output.
  closer_.Update(false, At(150), term_, &input_, &signals_, At(10));
  EXPECT_EQ(At(150), closer_.next_wakeup());
  // Past the quiet time but not settled (no prompt): only the deadline.
  closer_.Update(false, At(150), term_, &input_, &signals_, At(200));
  EXPECT_EQ(At(Closer::kSettleMs), closer_.next_wakeup());
  Update(300, true);
  EXPECT_EQ("\x04", input_.written);
  EXPECT_EQ(Closer::Phase::kQuitKeys, closer_.phase());
}

TEST_F(CloserTest, SettleGivesUpAfterItsTime) {
  closer_.Begin(true, false, term_, &input_, At(0));
  Update(Closer::kSettleMs);
  EXPECT_EQ("\x04", input_.written);
}

TEST_F(CloserTest, HurryDuringTheQuitKeysShortensTheirGrace) {
  closer_.Begin(false, false, term_, &input_, At(0));
  closer_.Hurry(At(100));
  EXPECT_EQ(At(100 + Closer::kUrgentGraceMs), closer_.next_wakeup());
  Update(100 + Closer::kUrgentGraceMs);
  EXPECT_EQ(At(100 + 2 * Closer::kUrgentGraceMs), closer_.next_wakeup());
}

TEST_F(CloserTest, HurryDuringTheSettleSkipsTheKeys) {
  closer_.Begin(true, false, term_, &input_, At(0));
  closer_.Hurry(At(50));
  Update(50);
  EXPECT_EQ("", input_.written);
  EXPECT_EQ(Closer::Phase::kTerm, closer_.phase());
}

}  // namespace
}  // namespace tuidriver
