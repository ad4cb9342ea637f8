#include "request.h"

#include <gtest/gtest.h>

#include <set>

namespace tuidriver {
namespace {

struct Parsed {
  bool ok;
  Request request;
  RequestError kind;
  std::string err;
};

Parsed Parse(RequestParser* p, const std::string& line) {
  Parsed r;
  r.ok = p->Parse(line, &r.request, &r.kind, &r.err);
  return r;
}

TEST(Request, ParsesAnAsk) {
  RequestParser p;
  Parsed r = Parse(&p, R"({"id":1,"type":"ask","prompt":"6*7","timeout":60})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ(RequestType::kAsk, r.request.type);
  EXPECT_EQ("1", r.request.id.json);
  EXPECT_EQ("6*7", r.request.prompt);
  EXPECT_EQ(60000, r.request.timeout_ms);
}

// Issue 29, point 5: every duration on the wire is in ms; `timeout` (seconds)
// stays accepted as the older spelling, and both at once are refused.
TEST(Request, TimeoutMsAndTheOlderSecondsSpelling) {
  RequestParser p;
  for (const char* type : {"ask", "ask_stream"}) {
    Parsed r = Parse(&p, std::string(R"({"id":1,"type":")") + type + R"(","prompt":"x","timeout_ms":1500})");
    ASSERT_TRUE(r.ok) << r.err;
    EXPECT_EQ(1500, r.request.timeout_ms) << type;
  }
  Parsed r = Parse(&p, R"({"type":"expect","pattern":"x","timeout_ms":250})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ(250, r.request.timeout_ms);
  r = Parse(&p, R"({"type":"wait_idle","idle_ms":5,"timeout_ms":7000})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ(7000, r.request.timeout_ms);
  r = Parse(&p, R"({"type":"wait_idle","timeout":2.5})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ(2500, r.request.timeout_ms);
  r = Parse(&p, R"({"type":"expect","pattern":"x"})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_GT(0, r.request.timeout_ms) << "absent: the default";

  r = Parse(&p, R"({"id":4,"type":"ask","prompt":"x","timeout_ms":400,"timeout":1})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(RequestError::kBadRequest, r.kind);
  EXPECT_EQ("4", r.request.id.json);
  EXPECT_EQ("an 'ask' request gives both 'timeout_ms' and 'timeout' (seconds, the older spelling): send one", r.err);

  // Whole milliseconds, at least 1, at most a week.
  EXPECT_FALSE(Parse(&p, R"({"type":"ask","prompt":"x","timeout_ms":0})").ok);
  EXPECT_FALSE(Parse(&p, R"({"type":"ask","prompt":"x","timeout_ms":1.5})").ok);
  EXPECT_FALSE(Parse(&p, R"({"type":"ask","prompt":"x","timeout_ms":"5"})").ok);
  EXPECT_FALSE(Parse(&p, R"({"type":"ask","prompt":"x","timeout_ms":604800001})").ok);
  EXPECT_TRUE(Parse(&p, R"({"type":"ask","prompt":"x","timeout_ms":604800000})").ok);
  r = Parse(&p, R"({"type":"expect","pattern":"x","timeout_ms":-3})");
  EXPECT_NE(std::string::npos, r.err.find("timeout_ms")) << r.err;
}

// Each type has one row in the table, and each name parses back to its type.
TEST(Request, EveryTypeHasOneNameThatParsesBackToIt) {
  RequestParser p;
  std::set<std::string> names;
  for (int i = 0; i <= static_cast<int>(RequestType::kClose); ++i) {
    auto type = static_cast<RequestType>(i);
    std::string name = RequestTypeName(type);
    EXPECT_TRUE(names.insert(name).second) << name;
    Request r;
    RequestError kind;
    std::string err;
    p.Parse(R"({"type":")" + name + R"("})", &r, &kind, &err);
    EXPECT_NE(RequestError::kUnknownType, kind) << name << ": " << err;
    EXPECT_EQ(type, r.type) << name;
  }
  EXPECT_EQ(KnownRequestTypes().size(), names.size());
}

TEST(Request, OnInputAndAnswer) {
  RequestParser p;
  Parsed r = Parse(&p, R"({"id":1,"type":"ask","prompt":"go","on_input":"wait"})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ("wait", r.request.on_input);
  r = Parse(&p, R"({"id":1,"type":"ask","prompt":"go","on_input":"later"})");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(std::string::npos, r.err.find("on_input")) << r.err;

  r = Parse(&p, R"({"id":2,"type":"answer","target":"a","option":2})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ("\"a\"", r.request.target.json);
  EXPECT_EQ(2, r.request.option);
  r = Parse(&p, R"({"id":2,"type":"answer","target":1,"text":"use the other file"})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ("use the other file", r.request.text);
  EXPECT_EQ(0, r.request.option);
  for (const char* bad : {R"({"id":2,"type":"answer","target":1})",
                          R"({"id":2,"type":"answer","target":1,"option":1,"text":"x"})",
                          R"({"id":2,"type":"answer","option":1})",
                          R"({"id":2,"type":"answer","target":1,"option":0})",
                          R"({"id":2,"type":"answer","target":1,"option":"1"})"}) {
    r = Parse(&p, bad);
    EXPECT_FALSE(r.ok) << bad;
    EXPECT_EQ(RequestError::kProtocol, r.kind) << bad;
    EXPECT_FALSE(r.err.empty());
  }
}

TEST(Request, IdsAreEchoedVerbatim) {
  RequestParser p;
  EXPECT_EQ("\"abc\"", Parse(&p, R"({"id":"abc","type":"status"})").request.id.json);
  EXPECT_EQ("1.5", Parse(&p, R"({"id":1.5,"type":"status"})").request.id.json);
  EXPECT_EQ("null", Parse(&p, R"({"type":"status"})").request.id.json);
}

TEST(Request, BadLinesAreProtocolErrors) {
  RequestParser p;
  for (const char* line : {"", "   ", "{", "[1,2]", "42", "\"x\"", R"({"id":1})",
                           R"({"id":1,"type":7})", R"({"id":{},"type":"status"})",
                           R"({"id":1,"type":"status"} junk)"}) {
    Parsed r = Parse(&p, line);
    EXPECT_FALSE(r.ok) << line;
    EXPECT_EQ(RequestError::kProtocol, r.kind) << line;
    EXPECT_FALSE(r.err.empty()) << line;
  }
}

TEST(Request, ScreenStylesAndRecord) {
  RequestParser p;
  Parsed r = Parse(&p, R"({"id":1,"type":"screen"})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_FALSE(r.request.styles);
  r = Parse(&p, R"({"id":1,"type":"screen","styles":true})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_TRUE(r.request.styles);
  r = Parse(&p, R"({"id":1,"type":"screen","styles":"yes"})");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(std::string::npos, r.err.find("'styles' must be true or false")) << r.err;
  r = Parse(&p, R"({"id":2,"type":"record","path":"/tmp/x.cast"})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ("/tmp/x.cast", r.request.path);
  r = Parse(&p, R"({"id":2,"type":"record","stop":true})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_TRUE(r.request.stop);
  for (const char* line : {R"({"id":3,"type":"record"})", R"({"id":3,"type":"record","stop":false})",
                           R"({"id":3,"type":"record","path":"a","stop":true})",
                           R"({"id":3,"type":"record","path":""})"}) {
    r = Parse(&p, line);
    EXPECT_FALSE(r.ok) << line;
    EXPECT_EQ(RequestError::kProtocol, r.kind) << line;
  }
}

TEST(Request, IdIsKeptWhenAFieldIsWrong) {
  RequestParser p;
  Parsed r = Parse(&p, R"({"id":9,"type":"ask","prompt":5})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ("9", r.request.id.json);
  EXPECT_NE(std::string::npos, r.err.find("prompt"));
}

TEST(Request, UnknownTypeHasItsOwnKind) {
  RequestParser p;
  Parsed r = Parse(&p, R"({"id":1,"type":"fly"})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(RequestError::kUnknownType, r.kind);
  EXPECT_NE(std::string::npos, r.err.find("fly"));
}

// Issue 22, item 3: a field the type does not have is a bad_request naming
// it and the type's fields, not silently ignored (the default timeout used).
TEST(Request, UnknownFieldsAreBadRequests) {
  RequestParser p;
  Parsed r = Parse(&p, R"({"id":3,"type":"ask","prompt":"hi","timeout_sec":400})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(RequestError::kBadRequest, r.kind);
  EXPECT_EQ(ErrorKind::kBadRequest, RequestErrorKind(r.kind));
  EXPECT_EQ("3", r.request.id.json);
  EXPECT_EQ("unknown field 'timeout_sec' in an 'ask' request (known: id, type, prompt, timeout_ms, timeout, on_input)", r.err);
  r = Parse(&p, R"({"type":"status","verbose":true})");
  EXPECT_EQ("unknown field 'verbose' in a 'status' request (known: id, type)", r.err);
  // A field of another type is unknown here too.
  EXPECT_EQ(RequestError::kBadRequest, Parse(&p, R"({"type":"screen","lines":5})").kind);
}

// Every field the table names is one ReadFields reads: a request with all of
// a type's fields (but mutually exclusive ones) parses.
TEST(Request, EveryKnownFieldIsRead) {
  RequestParser p;
  const char* lines[] = {
      R"({"id":1,"type":"ask","prompt":"p","timeout":1,"on_input":"wait"})",
      R"({"id":1,"type":"ask_stream","prompt":"p","timeout_ms":1,"on_input":"wait"})",
      R"({"id":1,"type":"expect","pattern":"x","timeout_ms":1,"output_only":true})",
      R"({"id":1,"type":"wait_idle","idle_ms":5,"timeout_ms":1})",
      R"({"id":1,"type":"expect","pattern":"x","timeout":1})",
      R"({"id":1,"type":"wait_idle","idle_ms":5,"timeout":1})",
      R"({"id":1,"type":"resize","cols":80,"rows":24})",
      R"({"id":1,"type":"subscribe","events":["output"],"encoding":"base64"})",
      R"({"id":1,"type":"answer","target":"a","option":1})",
      R"({"id":1,"type":"answer","target":"a","text":"t"})",
      R"({"id":1,"type":"record","path":"/tmp/x"})",
      R"({"id":1,"type":"record","stop":true})",
      R"({"id":1,"type":"scrollback","lines":3})",
      R"({"id":1,"type":"screen","styles":true})",
  };
  for (const char* line : lines) {
    Parsed r = Parse(&p, line);
    EXPECT_TRUE(r.ok) << line << ": " << r.err;
  }
}

TEST(Request, SubscribeTakesAnEncoding) {
  RequestParser p;
  Parsed r = Parse(&p, R"({"type":"subscribe"})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_FALSE(r.request.output_base64);
  r = Parse(&p, R"({"type":"subscribe","encoding":"base64"})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_TRUE(r.request.output_base64);
  r = Parse(&p, R"({"type":"subscribe","encoding":"hex"})");
  EXPECT_EQ("unknown encoding 'hex' (known: utf8, base64)", r.err);
  r = Parse(&p, R"({"type":"unsubscribe","encoding":"base64"})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(0u, r.err.find("unknown field 'encoding' in an 'unsubscribe' request")) << r.err;
}

TEST(Request, FieldRangesAreChecked) {
  RequestParser p;
  EXPECT_FALSE(Parse(&p, R"({"type":"resize","cols":1,"rows":10})").ok);
  EXPECT_FALSE(Parse(&p, R"({"type":"resize","cols":80})").ok);
  EXPECT_FALSE(Parse(&p, R"({"type":"ask","prompt":"x","timeout":-1})").ok);
  EXPECT_FALSE(Parse(&p, R"({"type":"keys","keys":["Enter",3]})").ok);
  EXPECT_FALSE(Parse(&p, R"({"type":"subscribe","events":["bogus"]})").ok);
  Parsed r = Parse(&p, R"({"type":"resize","cols":80,"rows":24})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ(80, r.request.cols);
}

TEST(Request, SignalAcceptsNameOrNumber) {
  RequestParser p;
  EXPECT_EQ("INT", Parse(&p, R"({"type":"signal","signal":"INT"})").request.signal);
  EXPECT_EQ("2", Parse(&p, R"({"type":"signal","signal":2})").request.signal);
}

TEST(Request, InvalidUtf8AndNulAreRefused) {
  RequestParser p;
  EXPECT_FALSE(Parse(&p, "{\"type\":\"send\",\"data\":\"\xff\"}").ok);
  EXPECT_FALSE(Parse(&p, std::string("{\"type\":\"status\"}\0", 18)).ok);
  // An escaped NUL is fine: it is valid JSON.
  Parsed r = Parse(&p, R"({"type":"send","data":"a\u0000b"})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ(std::string("a\0b", 3), r.request.data);
}

TEST(Request, LoneSurrogatesBecomeReplacementCharacters) {
  RequestParser p;
  // Half an emoji, as JavaScript's JSON.stringify writes it, alone or before
  // other text; a low half alone; a whole pair stays the emoji.
  Parsed r = Parse(&p, R"({"id":1,"type":"send","data":"a\ud83db"})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ("a\xEF\xBF\xBD" "b", r.request.data);
  r = Parse(&p, R"({"id":1,"type":"send","data":"\udc00\ud800"})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ("\xEF\xBF\xBD\xEF\xBF\xBD", r.request.data);
  r = Parse(&p, R"({"id":1,"type":"send","data":"\ud83d\ude00"})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ("\xF0\x9F\x98\x80", r.request.data);
  // An escaped backslash followed by "ud800" is text, not an escape.
  r = Parse(&p, R"({"id":1,"type":"send","data":"\\ud800"})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ("\\ud800", r.request.data);
  r = Parse(&p, R"({"id":1,"type":"keys","keys":["\ud800x"]})");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ("\xEF\xBF\xBDx", r.request.keys[0]);
}

TEST(Request, BrokenJsonStillEchoesTheId) {
  RequestParser p;
  Parsed r = Parse(&p, R"({"id":7,"type":"send","data":"\q"})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(RequestError::kProtocol, r.kind);
  EXPECT_EQ("7", r.request.id.json);
  r = Parse(&p, R"({"type":"send","data":"\x","id":"abc"})");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ("\"abc\"", r.request.id.json);
  r = Parse(&p, R"({"id":7,"type":"send",)");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ("null", r.request.id.json);
}

}  // namespace
}  // namespace tuidriver
