#include "error_kind.h"

#include <gtest/gtest.h>

#include <set>

namespace tuidriver {
namespace {

TEST(ErrorKindTest, EveryKindHasOneDistinctName) {
  std::vector<std::string> names = ErrorKindNames();
  // kError is the enum's last value: each value up to it has its own row.
  ASSERT_EQ(static_cast<size_t>(ErrorKind::kError) + 1, names.size());
  std::set<std::string> seen;
  for (int i = 0; i <= static_cast<int>(ErrorKind::kError); ++i) {
    std::string name = ErrorKindName(static_cast<ErrorKind>(i));
    EXPECT_EQ(names[static_cast<size_t>(i)], name);
    EXPECT_TRUE(seen.insert(name).second) << name;
  }
}

TEST(ErrorKindTest, WireNames) {
  EXPECT_STREQ("needs_input", ErrorKindName(ErrorKind::kNeedsInput));
  EXPECT_STREQ("not_ready", ErrorKindName(ErrorKind::kNotReady));
  EXPECT_STREQ("unknown_type", ErrorKindName(ErrorKind::kUnknownType));
  EXPECT_STREQ("unfinished_input", ErrorKindName(ErrorKind::kUnfinishedInput));
}

}  // namespace
}  // namespace tuidriver
