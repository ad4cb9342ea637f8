#include "json_writer.h"

#include <gtest/gtest.h>

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
