#include "paced_keys.h"

#include <gtest/gtest.h>

#include "test_fakes.h"

namespace tuidriver {
namespace {

class PacedKeysTest : public ::testing::Test {
 protected:
  TimePoint At(int ms) const { return clock_.At(ms); }
  Terminal term_{80, 24, 100};
  FakeChild child_;
  FakeClock clock_;
  PacedKeys keys_;
};

TEST_F(PacedKeysTest, EachKeyGoesOutOnItsOwnOnceTheProgramTookTheLast) {
  keys_.Send({"Escape", "Escape", "C-u"}, term_, &child_, At(0));
  EXPECT_EQ("\x1b", child_.Take());
  EXPECT_TRUE(keys_.pending());
  keys_.Update(term_, &child_, At(300), false);
  EXPECT_EQ("", child_.Take());  // no sign yet
  keys_.Update(term_, &child_, At(320), true);
  EXPECT_EQ("\x1b", child_.Take());
  keys_.Update(term_, &child_, At(330), true);
  EXPECT_EQ("\x15", child_.Take());
  EXPECT_FALSE(keys_.pending());
  EXPECT_EQ(TimePoint::max(), keys_.next_wakeup());
  EXPECT_EQ(3, child_.writes);
}

TEST_F(PacedKeysTest, WithoutASignTheNextKeyGoesAfterTheFallback) {
  keys_.Send({"Escape", "Escape"}, term_, &child_, At(0));
  child_.Take();
  EXPECT_EQ(At(PacedKeys::kFallbackMs), keys_.next_wakeup());
  keys_.Update(term_, &child_, At(PacedKeys::kFallbackMs - 1), false);
  EXPECT_EQ("", child_.Take());
  keys_.Update(term_, &child_, At(PacedKeys::kFallbackMs), false);
  EXPECT_EQ("\x1b", child_.Take());
  EXPECT_FALSE(keys_.pending());
}

TEST_F(PacedKeysTest, KeysSentWhileOthersWaitGoAfterThem) {
  keys_.Send({"Escape", "Escape"}, term_, &child_, At(0));
  keys_.Send({"C-c"}, term_, &child_, At(10));
  EXPECT_EQ("\x1b", child_.Take());
  keys_.Update(term_, &child_, At(50), true);
  keys_.Update(term_, &child_, At(100), true);
  EXPECT_EQ("\x1b\x03", child_.Take());
  EXPECT_EQ(3, child_.writes);
}

TEST_F(PacedKeysTest, NoKeysNoWrite) {
  keys_.Send({}, term_, &child_, At(0));
  EXPECT_FALSE(keys_.pending());
  EXPECT_EQ(0, child_.writes);
}

}  // namespace
}  // namespace tuidriver
