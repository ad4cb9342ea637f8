#include "child.h"

#include <gtest/gtest.h>
#include <signal.h>

namespace tuidriver {
namespace {

// A `signal` request names its signal as `kill` takes it: a name, with or
// without SIG, in any case, or a number.
TEST(SignalNames, NamesNumbersAndSigPrefixesAllRead) {
  EXPECT_EQ(SIGINT, SignalFromName("INT"));
  EXPECT_EQ(SIGINT, SignalFromName("SIGINT"));
  EXPECT_EQ(SIGINT, SignalFromName("int"));
  EXPECT_EQ(SIGINT, SignalFromName("sigint"));
  EXPECT_EQ(SIGTERM, SignalFromName(std::to_string(SIGTERM)));
  EXPECT_EQ(SIGWINCH, SignalFromName("WINCH"));
}

TEST(SignalNames, UnknownNamesAndNumbersOutOfRangeAreZero) {
  EXPECT_EQ(0, SignalFromName(""));
  EXPECT_EQ(0, SignalFromName("SIG"));
  EXPECT_EQ(0, SignalFromName("NOPE"));
  EXPECT_EQ(0, SignalFromName("0"));
  EXPECT_EQ(0, SignalFromName(std::to_string(NSIG)));
  EXPECT_EQ(0, SignalFromName("-9"));
}

TEST(SignalNames, ANumberWithoutANameStaysANumber) {
  EXPECT_EQ("KILL", SignalName(SIGKILL));
  EXPECT_EQ("HUP", SignalName(SIGHUP));
  EXPECT_EQ(SIGKILL, SignalFromName(SignalName(SIGKILL)));
  EXPECT_EQ("0", SignalName(0));
}

}  // namespace
}  // namespace tuidriver
