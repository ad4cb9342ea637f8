#include "json_fields.h"

#include <gtest/gtest.h>

#include "engine_config.h"
#include "request.h"

namespace tuidriver {
namespace {

// Parses `json` (an object) and runs `read` on it; returns the error, or
// "" when `read` succeeded.
std::string Read(const std::string& json,
                 const std::function<bool(JsonFields*, const simdjson::dom::object&)>& read) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  EXPECT_EQ(simdjson::SUCCESS, parser.parse(json).get(doc)) << json;
  simdjson::dom::object obj;
  EXPECT_EQ(simdjson::SUCCESS, doc.get(obj)) << json;
  std::string err;
  JsonFields f(&err);
  bool ok = read(&f, obj);
  EXPECT_EQ(ok, err.empty()) << err;
  EXPECT_EQ(!ok, f.failed());
  return err;
}

TEST(JsonFields, ByNameRequiredOptionalAndWrongTypes) {
  std::string s = "unset";
  EXPECT_EQ("", Read(R"({"a":"x"})", [&](JsonFields* f, auto& o) { return f->String(o, "a", true, &s); }));
  EXPECT_EQ("x", s);
  EXPECT_EQ("", Read(R"({})", [&](JsonFields* f, auto& o) { return f->String(o, "b", false, &s); }));
  EXPECT_EQ("x", s);  // absent and optional: left alone
  EXPECT_EQ("missing field 'b'",
            Read(R"({})", [&](JsonFields* f, auto& o) { return f->String(o, "b", true, &s); }));
  EXPECT_EQ("field 'a' must be a string, got a number",
            Read(R"({"a":1})", [&](JsonFields* f, auto& o) { return f->String(o, "a", true, &s); }));
  EXPECT_EQ("x", s);
}

TEST(JsonFields, NumbersAndTheirRanges) {
  int64_t i = 7;
  double d = 0;
  EXPECT_EQ("field 'n' must be an integer, got a number",
            Read(R"({"n":1.5})", [&](JsonFields* f, auto& o) { return f->Int(o, "n", true, 0, 10, &i); }));
  EXPECT_EQ("field 'n' must be between 0 and 10, got 11",
            Read(R"({"n":11})", [&](JsonFields* f, auto& o) { return f->Int(o, "n", true, 0, 10, &i); }));
  EXPECT_EQ(7, i);
  EXPECT_EQ("", Read(R"({"t":2})", [&](JsonFields* f, auto& o) { return f->Number(o, "t", false, 0.001, 9, &d); }));
  EXPECT_EQ(2.0, d);
  EXPECT_EQ("field 't' must be between 0.001 and 9, got 0",
            Read(R"({"t":0})", [&](JsonFields* f, auto& o) { return f->Number(o, "t", false, 0.001, 9, &d); }));
  EXPECT_EQ("field 't' must be a number, got a string",
            Read(R"({"t":"2"})", [&](JsonFields* f, auto& o) { return f->Number(o, "t", false, 0, 9, &d); }));
}

TEST(JsonFields, ArraysNameTheBadItem) {
  std::vector<std::string> v = {"kept"};
  EXPECT_EQ("field 'k[1]' must be a string, got null",
            Read(R"({"k":["a",null]})", [&](JsonFields* f, auto& o) { return f->Strings(o, "k", true, &v); }));
  EXPECT_EQ(std::vector<std::string>{"kept"}, v);  // nothing half-read
  EXPECT_EQ("field 'k' must be an array of strings, got an object",
            Read(R"({"k":{}})", [&](JsonFields* f, auto& o) { return f->Strings(o, "k", true, &v); }));
}

TEST(JsonFields, StrictObjectsRefuseUnknownFieldsAndKeepTheFirstError) {
  bool b = false;
  std::string s;
  auto walk = [&](JsonFields* f, const simdjson::dom::object& o) {
    simdjson::dom::element top;
    EXPECT_EQ(simdjson::SUCCESS, o["top"].get(top));
    return f->Object(top, "top", [&](const std::string& key, const JsonFields::Element& v, const std::string& path) {
      if (key == "on") f->Bool(v, path, &b);
      else if (key == "name") f->String(v, path, &s);
      else return false;
      return true;
    });
  };
  EXPECT_EQ("", Read(R"({"top":{"on":true,"$comment":"skipped","name":"n"}})", walk));
  EXPECT_TRUE(b);
  EXPECT_EQ("field 'top.other': unknown field", Read(R"({"top":{"other":1}})", walk));
  EXPECT_EQ("field 'top.on' must be true or false, got a number", Read(R"({"top":{"on":1,"name":2}})", walk));
  EXPECT_EQ("field 'top' must be an object, got an array", Read(R"({"top":[]})", walk));
}

// Both callers speak through it: a request and an engine file.
TEST(JsonFields, RequestsAndEngineFilesUseIt) {
  RequestParser parser;
  Request r;
  RequestError kind;
  std::string err;
  EXPECT_FALSE(parser.Parse(R"({"id":1,"type":"resize","cols":1,"rows":5})", &r, &kind, &err));
  EXPECT_EQ("field 'cols' must be between 2 and 1000, got 1", err);
  EngineConfig c;
  EXPECT_FALSE(ParseEngineConfig("x.json", R"({"command":["a",2]})", &c, &err));
  EXPECT_EQ("x.json: field 'command[1]' must be a string, got a number", err);
}

}  // namespace
}  // namespace tuidriver
