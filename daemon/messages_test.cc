#include "messages.h"

#include <gtest/gtest.h>

namespace tuidriver {
namespace {

RequestId Id(const std::string& json) {
  RequestId id;
  id.json = json;
  return id;
}

TEST(Messages, RepliesCarryTheIdVerbatimAndTheirFields) {
  JsonObject fields;
  fields.Add("text", "4\"2").Add("revised", true);
  EXPECT_EQ(R"({"id":7,"type":"reply","ok":true,"text":"4\"2","revised":true})", ReplyOkMessage(Id("7"), fields));
  EXPECT_EQ(R"({"id":"a","type":"reply","ok":true})", ReplyOkMessage(Id("\"a\"")));
  EXPECT_EQ(R"({"id":null,"type":"reply","ok":false,"kind":"protocol","error":"bad"})",
            ReplyErrorMessage(RequestId(), ErrorKind::kProtocol, "bad"));
}

TEST(Messages, EventsAndChunks) {
  EXPECT_EQ(R"({"id":1,"type":"chunk","delta":"a\nb"})", ChunkMessage(Id("1"), "a\nb"));
  JsonObject exit;
  exit.Add("exit_code", 3).AddNull("signal");
  EXPECT_EQ(R"({"type":"exit","exit_code":3,"signal":null})", ExitEvent(exit));
  EXPECT_EQ(R"({"type":"dialog","name":"trust","keys":["Enter"]})", DialogEvent("trust", {"Enter"}));
  EXPECT_EQ(R"({"type":"output","data":"x"})", OutputEvent("x"));
  EXPECT_EQ(R"({"type":"error","kind":"spawn","error":"no such file"})", SessionErrorMessage(ErrorKind::kSpawn, "no such file"));
}

// OutputEvent writes its line in place: the same line as a JsonObject of
// the two fields, however much the escapes make the data grow.
TEST(Messages, OutputEventIsTheObjectOfItsData) {
  std::string escapes;
  for (int i = 0; i < 20000; ++i) escapes += "\x1b[1m\x01\"\xC3\xA9\n";
  for (const std::string& data : {std::string(), std::string("\x1b[31mred\x1b[0m\r\n"), escapes}) {
    JsonObject o;
    o.Add("type", "output").Add("data", data);
    EXPECT_EQ(o.Finish(), OutputEvent(data));
  }
}

TEST(JsonObject, MergeAppendsFields) {
  JsonObject a, b, empty;
  a.Add("x", 1);
  b.Add("y", 2);
  EXPECT_EQ(R"({"x":1,"y":2})", a.Merge(b).Finish());
  EXPECT_EQ(R"({"y":2})", empty.Merge(b).Finish());
  EXPECT_EQ(R"({"x":1,"y":2})", a.Merge(JsonObject()).Finish());
}

}  // namespace
}  // namespace tuidriver
