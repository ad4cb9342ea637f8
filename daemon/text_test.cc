#include "text.h"

#include <gtest/gtest.h>

namespace tuidriver {
namespace {

using Lines = std::vector<std::string>;

TEST(TextTest, SplitLinesKeepsEveryLine) {
  EXPECT_EQ(Lines({""}), SplitLines(""));
  EXPECT_EQ(Lines({"a"}), SplitLines("a"));
  EXPECT_EQ(Lines({"a", "b", ""}), SplitLines("a\nb\n"));
  EXPECT_EQ(Lines({"", "", "x"}), SplitLines("\n\nx"));
}

TEST(TextTest, JoinLinesUndoesSplitLines) {
  for (const std::string& text : {"", "a", "a\nb", "a\n\nb\n"}) EXPECT_EQ(text, JoinLines(SplitLines(text)));
}

TEST(TextTest, TrimsSpacesOnly) {
  EXPECT_EQ("a b", Trim("  a b  "));
  EXPECT_EQ("", Trim("   "));
  EXPECT_EQ("\ta", Trim(" \ta "));
  EXPECT_EQ("  a", TrimRight("  a  "));
  EXPECT_EQ("", TrimRight(""));
}

}  // namespace
}  // namespace tuidriver
