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

// Every length around the six bytes taken at a time, every byte value:
// the same as encoding six bits at a time.
TEST(Base64, EveryLengthAsSixBitsAtATime) {
  static const char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string bytes;
  for (int i = 0; i < 300; ++i) bytes.push_back(static_cast<char>(i * 37 + 11));
  for (size_t len = 0; len <= bytes.size(); ++len) {
    std::string expected;
    size_t bits = len * 8;
    for (size_t at = 0; at < bits; at += 6) {
      int digit = 0;
      for (size_t b = at; b < at + 6; ++b) {
        int bit = b < bits ? (static_cast<unsigned char>(bytes[b / 8]) >> (7 - b % 8)) & 1 : 0;
        digit = digit << 1 | bit;
      }
      expected += kDigits[digit];
    }
    while (expected.size() % 4 != 0) expected += '=';
    ASSERT_EQ(expected, Base64(std::string_view(bytes).substr(0, len))) << len;
  }
}

}  // namespace
}  // namespace tuidriver
