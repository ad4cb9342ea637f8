#include "utf8.h"

#include <gtest/gtest.h>
#include <utf8proc.h>

namespace tuidriver {
namespace {

TEST(Utf8, CharacterSplitAtEveryByteComesOutWhole) {
  const std::string text = "a\xC3\xA9" "\xE4\xB8\xAD" "\xF0\x9F\x9A\x80" "z";  // a é 中 🚀 z
  for (size_t cut = 0; cut <= text.size(); ++cut) {
    Utf8Sanitizer s;
    std::string out;
    s.Append(text.data(), cut, &out);
    s.Append(text.data() + cut, text.size() - cut, &out);
    s.Flush(&out);
    EXPECT_EQ(text, out) << "cut at " << cut;
  }
}

TEST(Utf8, OneByteAtATime) {
  const std::string text = "\xF0\x9F\x9A\x80\xE4\xB8\xAD";
  Utf8Sanitizer s;
  std::string out;
  for (char c : text) s.Append(&c, 1, &out);
  s.Flush(&out);
  EXPECT_EQ(text, out);
}

TEST(Utf8, InvalidBytesBecomeReplacement) {
  EXPECT_EQ("a\xEF\xBF\xBD" "b", SanitizeUtf8("a\xFF" "b"));
  EXPECT_EQ("\xEF\xBF\xBD\xEF\xBF\xBD", SanitizeUtf8("\xC0\xAF"));      // overlong
  EXPECT_EQ("\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", SanitizeUtf8("\xED\xA0\x80"));  // surrogate
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // beyond U+10FFFF
  EXPECT_TRUE(IsValidUtf8("h\xC3\xA9llo"));
}

TEST(Utf8, TruncatedAtEndOfStreamIsReplaced) {
  Utf8Sanitizer s;
  std::string out;
  s.Append("ok\xE4\xB8", 4, &out);
  EXPECT_EQ("ok", out);
  s.Flush(&out);
  EXPECT_EQ("ok\xEF\xBF\xBD", out);
}

TEST(Utf8, BrokenContinuationDoesNotSwallowNextCharacter) {
  Utf8Sanitizer s;
  std::string out;
  s.Append("\xE4", 1, &out);
  s.Append("x", 1, &out);
  s.Flush(&out);
  EXPECT_EQ("\xEF\xBF\xBDx", out);
}

TEST(Utf8, SanitizePromptStripsEscapesAndControls) {
  EXPECT_EQ("red text", SanitizePrompt("\x1b[31mred\x1b[0m text"));
  EXPECT_EQ("title", SanitizePrompt("\x1b]0;evil\x07title"));
  EXPECT_EQ("ab", SanitizePrompt("a\x03\x04\x1b" "cb"));
  EXPECT_EQ("a\tb\nc\nd", SanitizePrompt("a\tb\r\nc\rd"));
  EXPECT_EQ("x", SanitizePrompt("x\xC2\x9B"));  // C1 CSI
  EXPECT_EQ("caf\xC3\xA9 \xF0\x9F\x9A\x80", SanitizePrompt("caf\xC3\xA9 \xF0\x9F\x9A\x80"));
  EXPECT_EQ("\xEF\xBF\xBD", SanitizePrompt("\xFF"));
}

TEST(Utf8, AppendUtf8RoundTrips) {
  for (uint32_t cp : {0x41u, 0xE9u, 0x4E2Du, 0x1F680u}) {
    std::string s;
    AppendUtf8(cp, &s);
    size_t pos = 0;
    uint32_t back = 0;
    EXPECT_TRUE(DecodeUtf8(s, &pos, &back));
    EXPECT_EQ(cp, back);
    EXPECT_EQ(s.size(), pos);
  }
}

TEST(Utf8, SanitizerFindsCharactersAfterLongAsciiRuns) {
  // Multi-byte and invalid bytes at every offset from the 8-byte ASCII skip,
  // and the input split at every point.
  for (size_t n = 0; n < 20; ++n) {
    std::string a(n, 'a'), b(n, 'b'), c(9, 'c');
    std::string in = a + "\xC3\xA9" + b + "\xFF" + c + "\xE4\xB8\xAD";
    std::string want = a + "\xC3\xA9" + b + "\xEF\xBF\xBD" + c + "\xE4\xB8\xAD";
    for (size_t cut = 0; cut <= in.size(); ++cut) {
      Utf8Sanitizer s;
      std::string out;
      s.Append(in.data(), cut, &out);
      s.Append(in.data() + cut, in.size() - cut, &out);
      s.Flush(&out);
      EXPECT_EQ(want, out) << n << " " << cut;
    }
  }
}

TEST(Utf8, WriteUtf8MatchesAppendAndReplacesInvalid) {
  for (uint32_t cp : {0x0u, 0x7Fu, 0x80u, 0x7FFu, 0x800u, 0xFFFFu, 0x10000u, 0x10FFFFu}) {
    char buf[kMaxUtf8Bytes];
    std::string a;
    AppendUtf8(cp, &a);
    EXPECT_EQ(a, std::string(buf, static_cast<size_t>(WriteUtf8(cp, buf) - buf))) << cp;
  }
  for (uint32_t bad : {0xD800u, 0xDFFFu, 0x110000u}) {
    char buf[kMaxUtf8Bytes];
    EXPECT_EQ("\xEF\xBF\xBD", std::string(buf, static_cast<size_t>(WriteUtf8(bad, buf) - buf)));
  }
}

TEST(CharWidth, CountsAsTheTerminalDoes) {
  EXPECT_EQ(1, CharWidth('a'));
  EXPECT_EQ(0, CharWidth(0x0301));   // combining acute
  EXPECT_EQ(2, CharWidth(0x4E2D));   // 中
  EXPECT_EQ(2, CharWidth(0x2705));   // ✅
  EXPECT_EQ(2, CharWidth(0x1F680));  // 🚀
  EXPECT_EQ(5, StringColumns("a\xE4\xB8\xAD\xF0\x9F\x9A\x80"));
}

// char_width_table.h is utf8proc's widths, for every code point: after a
// utf8proc upgrade this fails until scripts/gen-char-width.cc is rerun.
TEST(CharWidth, IsUtf8procsForEveryCodePoint) {
  int mismatches = 0;
  for (char32_t cp = 0x80; cp <= 0x110001; ++cp) {
    int want = utf8proc_charwidth(static_cast<utf8proc_int32_t>(cp));
    if (want > 2) want = 2;
    if (CharWidth(cp) != want && ++mismatches <= 10) ADD_FAILURE() << "U+" << std::hex << cp;
  }
  EXPECT_EQ(0, mismatches);
}

}  // namespace
}  // namespace tuidriver
