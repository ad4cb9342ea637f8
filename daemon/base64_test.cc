#include "base64.h"

#include <gtest/gtest.h>

namespace tuidriver {
namespace {

std::string Base64(std::string_view bytes) {
  std::string out = "x";  // appends
  AppendBase64(bytes, &out);
  return out.substr(1);
}

// RFC 4648, section 10.
TEST(Base64, TheRfcVectors) {
  EXPECT_EQ("", Base64(""));
  EXPECT_EQ("Zg==", Base64("f"));
  EXPECT_EQ("Zm8=", Base64("fo"));
  EXPECT_EQ("Zm9v", Base64("foo"));
  EXPECT_EQ("Zm9vYg==", Base64("foob"));
  EXPECT_EQ("Zm9vYmE=", Base64("fooba"));
  EXPECT_EQ("Zm9vYmFy", Base64("foobar"));
}

TEST(Base64, AnyByte) {
  EXPECT_EQ("AP+A", Base64(std::string("\x00\xff\x80", 3)));
  EXPECT_EQ("G1szMm3ihKI=", Base64("\x1b[32m\xe2\x84\xa2"));
}

}  // namespace
}  // namespace tuidriver
