#include "compile_regex.h"

#include <gtest/gtest.h>

namespace tuidriver {
namespace {

TEST(CompileRegex, CompilesOrSaysWhy) {
  std::string err;
  auto re = CompileRegex("^>>> $", &err);
  ASSERT_NE(nullptr, re);
  EXPECT_TRUE(RE2::FullMatch(">>> ", *re));
  EXPECT_TRUE(err.empty());
  EXPECT_EQ(nullptr, CompileRegex("((", &err));
  EXPECT_NE(std::string::npos, err.find("missing )")) << err;
}

}  // namespace
}  // namespace tuidriver
