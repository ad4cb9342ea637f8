#include "json_writer.h"

#include <gtest/gtest.h>

#include <random>

#include "utf8.h"

namespace tuidriver {
namespace {

std::string Quote(const std::string& s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}

TEST(JsonWriter, EscapesControlsAndQuotes) {
  EXPECT_EQ(R"("a\"b\\c\n\t\u0001")", Quote("a\"b\\c\n\t\x01"));
  EXPECT_EQ(R"("\u001b[31m")", Quote("\x1b[31m"));
}

TEST(JsonWriter, KeepsUtf8AndReplacesInvalidBytes) {
  EXPECT_EQ("\"caf\xC3\xA9 \xF0\x9F\x9A\x80\"", Quote("caf\xC3\xA9 \xF0\x9F\x9A\x80"));
  EXPECT_EQ("\"a\xEF\xBF\xBD" "b\"", Quote("a\xFF" "b"));
  EXPECT_EQ(R"("\u2028\u2029")", Quote("\xE2\x80\xA8\xE2\x80\xA9"));
}

TEST(JsonWriter, RunsBetweenEscapesComeThroughWhole) {
  // Escapes at the start, in the middle and at the end of runs of text.
  EXPECT_EQ(R"("\u001b[1mbold\u001b[0m plain\r\n")", Quote("\x1b[1mbold\x1b[0m plain\r\n"));
  EXPECT_EQ("\"x\xC3\xA9\\u001by\xEF\xBF\xBDz\\u2028\"", Quote("x\xC3\xA9\x1by\xC3z\xE2\x80\xA8"));
  EXPECT_EQ(R"("")", Quote(""));
  EXPECT_EQ("\"\x7f\"", Quote("\x7f"));  // DEL is valid JSON as it is
}

// The escaper as it was, a character at a time: the fast one (eight bytes at
// a time, blocks of 2 KiB) must write exactly what this writes.
std::string SlowQuote(const std::string& s) {
  std::string out = "\"";
  size_t pos = 0;
  while (pos < s.size()) {
    unsigned char b = static_cast<unsigned char>(s[pos]);
    size_t at = pos;
    uint32_t cp;
    bool ok = DecodeUtf8(s, &pos, &cp);
    char esc[8];
    if (!ok) AppendUtf8(0xFFFD, &out);
    else if (cp == 0x2028 || cp == 0x2029) out += cp == 0x2028 ? "\\u2028" : "\\u2029";
    else if (b == '"' || b == '\\') out += std::string("\\") + static_cast<char>(b);
    else if (b == '\n') out += "\\n";
    else if (b == '\r') out += "\\r";
    else if (b == '\t') out += "\\t";
    else if (b == '\b') out += "\\b";
    else if (b == '\f') out += "\\f";
    else if (b < 0x20) out += (snprintf(esc, sizeof esc, "\\u%04x", b), esc);
    else out.append(s, at, pos - at);
  }
  return out + "\"";
}

TEST(JsonWriter, FastEscapingWritesWhatTheSlowOneWrites) {
  std::mt19937 rng(28);
  // Bytes that matter: plain ASCII, controls, quotes, lead and continuation
  // bytes, U+2028's, invalid ones; lengths around the 2 KiB blocks.
  const std::string pieces[] = {"abcdefgh", "x", "\x1b[31m", "\"", "\\", "\r\n", "\t", "\x01", "\x7f",
                                "\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x9A\x80", "\xE2\x80\xA8", "\xE2\x80\xA9",
                                "\xE2\x80", "\xC3", "\xFF", "\x80", "\xED\xA0\x80", "\xE0\x80\xAF", "\xF4\x90\x80\x80"};
  for (int round = 0; round < 300; ++round) {
    std::string s;
    size_t len = rng() % 5000;
    while (s.size() < len) s += pieces[rng() % (sizeof pieces / sizeof pieces[0])];
    ASSERT_EQ(SlowQuote(s), Quote(s)) << "round " << round;
  }
}

// Every ASCII byte, alone and at each place in an eight-byte word (the
// fast path looks up escapes in a table).
TEST(JsonWriter, EveryAsciiByteAsTheSlowOne) {
  for (int b = 0; b < 0x80; ++b) {
    for (size_t at = 0; at < 10; ++at) {
      std::string s = std::string(at, 'a') + static_cast<char>(b) + "bcdefghij";
      ASSERT_EQ(SlowQuote(s), Quote(s)) << "byte " << b << " at " << at;
    }
  }
}

TEST(JsonWriter, OutputEventsQuoteWhatTheSanitizerGives) {
  // The daemon quotes Utf8Sanitizer::Complete's views (invalid bytes left
  // in): the same JSON as quoting Append's sanitised text, for every cut.
  const std::string text = "a\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x9A\x80\xFF\xE2\x80\xC3z\xF0\x9F";
  for (size_t cut = 0; cut <= text.size(); ++cut) {
    Utf8Sanitizer append, complete;
    for (auto [from, len] : {std::pair<size_t, size_t>{0, cut}, {cut, text.size() - cut}}) {
      std::string sanitised;
      append.Append(text.data() + from, len, &sanitised);
      std::string quoted;
      AppendJsonString(complete.Complete(text.data() + from, len), &quoted);
      EXPECT_EQ(Quote(sanitised), quoted) << "cut at " << cut;
    }
    std::string a, c;
    append.Flush(&a);
    complete.Flush(&c);
    EXPECT_EQ(a, c);
  }
}

TEST(JsonWriter, BuildsObjects) {
  JsonObject o;
  o.Add("type", "ready").Add("pid", 42).Add("ok", true).AddNull("engine")
      .AddStringArray("lines", {"a", "b"}).AddRaw("cursor", "{\"row\":1}");
  EXPECT_EQ(R"({"type":"ready","pid":42,"ok":true,"engine":null,"lines":["a","b"],"cursor":{"row":1}})",
            o.Finish());
  EXPECT_EQ("{}", JsonObject().Finish());
}

}  // namespace
}  // namespace tuidriver
