#include "request.h"

#include <algorithm>
#include <cstring>

#include "json_fields.h"
#include "json_type_name.h"
#include "json_writer.h"

namespace tuidriver {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

// Reads an id-shaped value: a number or a string.
bool ReadId(const element& e, RequestId* id) {
  if (e.is_null()) {
    *id = RequestId();
    return true;
  }
  if (e.is_string()) {
    std::string_view s;
    if (e.get(s)) return false;
    id->kind = RequestId::Kind::kString;
    id->json.clear();
    AppendJsonString(s, &id->json);
    return true;
  }
  if (e.is_int64() || e.is_uint64() || e.is_double()) {
    id->kind = RequestId::Kind::kNumber;
    id->json = simdjson::minify(e);
    return true;
  }
  return false;
}

// Request-only shapes, on top of the shared reader (json_fields.h).
bool ReadTarget(const object& obj, const char* name, JsonFields* f, RequestId* out) {
  element e;
  if (!f->Find(obj, name, true, &e)) return false;
  if (e.is_null() || !ReadId(e, out)) return f->Wrong(name, "a number or a string", e);
  return true;
}

// A field that may be a string or a number, kept as text ("INT", "2").
bool ReadStringOrNumber(const object& obj, const char* name, JsonFields* f, std::string* out) {
  element e;
  if (!f->Find(obj, name, true, &e)) return false;
  std::string_view s;
  if (!e.get(s)) {
    out->assign(s.data(), s.size());
    return true;
  }
  int64_t n;
  if (e.is_int64() && !e.get(n)) {
    *out = std::to_string(n);
    return true;
  }
  return f->Wrong(name, "a string or a number", e);
}

constexpr int64_t kMaxTimeoutMs = int64_t{7} * 24 * 3600 * 1000;

// The code unit of a `\uXXXX` escape at line[i] (the backslash), or -1.
long EscapedUnit(const std::string& line, size_t i) {
  if (i + 6 > line.size() || line[i + 1] != 'u') return -1;
  long v = 0;
  for (size_t k = i + 2; k < i + 6; k++) {
    char c = line[k];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

// JSON allows a lone UTF-16 surrogate escape ("\ud800": JavaScript's
// JSON.stringify writes one for half an emoji); simdjson refuses it. Each
// becomes U+FFFD, as a browser's TextDecoder does. A backslash only occurs
// inside strings, so escapes are found without tracking quotes.
std::string ReplaceLoneSurrogates(const std::string& line) {
  if (line.find("\\u") == std::string::npos) return line;
  std::string out;
  out.reserve(line.size());
  for (size_t i = 0; i < line.size();) {
    if (line[i] != '\\' || i + 1 >= line.size()) {
      out.push_back(line[i++]);
      continue;
    }
    long unit = EscapedUnit(line, i);
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      long low = EscapedUnit(line, i + 6);
      if (i + 6 < line.size() && line[i + 6] == '\\' && low >= 0xDC00 && low <= 0xDFFF) {
        out.append(line, i, 12);
        i += 12;
        continue;
      }
    }
    if (unit >= 0xD800 && unit <= 0xDFFF) {
      out += "\\ufffd";
      i += 6;
      continue;
    }
    out.append(line, i, 2);  // any other escape, whole: an escaped backslash is no escape start
    i += 2;
  }
  return out;
}

// The id of a line the DOM parser refused (a bad escape in some other
// field, a wrong value), read lazily so a reply can still carry it.
void RecoverId(const std::string& line, RequestId* id) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string padded(line);
  simdjson::ondemand::document doc;
  simdjson::ondemand::object obj;
  simdjson::ondemand::value v;
  if (parser.iterate(padded).get(doc) || doc.get_object().get(obj) || obj.find_field_unordered("id").get(v)) return;
  int64_t n;
  std::string_view s;
  simdjson::ondemand::json_type type;
  if (v.type().get(type)) return;
  if (type == simdjson::ondemand::json_type::number && !v.get_int64().get(n)) {
    id->kind = RequestId::Kind::kNumber;
    id->json = std::to_string(n);
  } else if (!v.get_string().get(s)) {
    id->kind = RequestId::Kind::kString;
    id->json.clear();
    AppendJsonString(s, &id->json);
  }
}

// One reader per request shape: each reads the fields its table row lists.
using FieldReader = bool (*)(const object& obj, Request* r, JsonFields* f, std::string* err);

// The time limit: `timeout_ms`, or `timeout` in seconds (the older spelling,
// fractions allowed). CheckFieldNames has refused a request with both.
bool ReadTimeout(const object& obj, Request* r, JsonFields* f) {
  double seconds = -1;
  int64_t ms = -1;
  if (!f->Number(obj, "timeout", false, 0.001, kMaxTimeoutMs / 1000.0, &seconds) ||
      !f->Int(obj, "timeout_ms", false, 1, kMaxTimeoutMs, &ms)) {
    return false;
  }
  r->timeout_ms = seconds > 0 ? static_cast<long>(seconds * 1000) : static_cast<long>(ms);
  return true;
}

bool ReadAsk(const object& obj, Request* r, JsonFields* f, std::string* err) {
  if (!f->String(obj, "prompt", true, &r->prompt) ||
      !ReadTimeout(obj, r, f) ||
      !f->String(obj, "on_input", false, &r->on_input)) {
    return false;
  }
  if (!r->on_input.empty() && r->on_input != "wait" && r->on_input != "fail") {
    *err = "field 'on_input' must be \"wait\" or \"fail\", got '" + r->on_input + "'";
    return false;
  }
  return true;
}

bool ReadAnswer(const object& obj, Request* r, JsonFields* f, std::string* err) {
  bool has_text = obj["text"].error() == simdjson::SUCCESS;
  int64_t option = 0;
  if (!ReadTarget(obj, "target", f, &r->target) || !f->Int(obj, "option", false, 1, 1000, &option) ||
      !f->String(obj, "text", false, &r->text)) {
    return false;
  }
  r->option = static_cast<long>(option);
  if ((r->option > 0) == has_text) {
    *err = "an answer needs exactly one of 'option' (a choice's number) and 'text'";
    return false;
  }
  return true;
}

bool ReadCancel(const object& obj, Request* r, JsonFields* f, std::string*) {
  return ReadTarget(obj, "target", f, &r->target);
}

bool ReadData(const object& obj, Request* r, JsonFields* f, std::string*) {
  return f->String(obj, "data", true, &r->data);
}

bool ReadKeys(const object& obj, Request* r, JsonFields* f, std::string*) {
  return f->Strings(obj, "keys", true, &r->keys);
}

bool ReadPaste(const object& obj, Request* r, JsonFields* f, std::string*) {
  return f->String(obj, "text", true, &r->text);
}

bool ReadResize(const object& obj, Request* r, JsonFields* f, std::string*) {
  int64_t cols = 0, rows = 0;
  bool ok = f->Int(obj, "cols", true, 2, 1000, &cols) && f->Int(obj, "rows", true, 2, 1000, &rows) &&
            f->Int(obj, "follow_row", false, 0, int64_t{1} << 53, &r->follow_row);
  r->cols = static_cast<int>(cols);
  r->rows = static_cast<int>(rows);
  return ok;
}

bool ReadScreen(const object& obj, Request* r, JsonFields* f, std::string*) {
  return f->Bool(obj, "styles", false, &r->styles);
}

bool ReadScrollback(const object& obj, Request* r, JsonFields* f, std::string*) {
  int64_t lines = r->lines;
  bool ok = f->Int(obj, "lines", false, 0, 100000000, &lines) && f->Bool(obj, "wrapped", false, &r->wrapped);
  r->lines = static_cast<long>(lines);
  return ok;
}

bool ReadExpect(const object& obj, Request* r, JsonFields* f, std::string*) {
  return f->String(obj, "pattern", true, &r->pattern) &&
         ReadTimeout(obj, r, f) &&
         f->Bool(obj, "output_only", false, &r->output_only);
}

bool ReadWaitIdle(const object& obj, Request* r, JsonFields* f, std::string*) {
  int64_t idle = 500;
  bool ok = f->Int(obj, "idle_ms", false, 1, 3600000, &idle) &&
            ReadTimeout(obj, r, f);
  r->idle_ms = static_cast<int>(idle);
  return ok;
}

bool ReadRun(const object& obj, Request* r, JsonFields* f, std::string*) {
  int64_t idle = 500;
  int64_t timeout = -1;
  bool ok = f->String(obj, "line", true, &r->line) && f->Int(obj, "idle_ms", false, 1, 3600000, &idle) &&
            f->Int(obj, "timeout_ms", false, 1, kMaxTimeoutMs, &timeout);
  r->idle_ms = static_cast<int>(idle);
  r->timeout_ms = static_cast<long>(timeout);
  return ok;
}

bool ReadSignal(const object& obj, Request* r, JsonFields* f, std::string*) {
  return ReadStringOrNumber(obj, "signal", f, &r->signal);
}

bool ReadEvents(const object& obj, Request* r, JsonFields* f, std::string* err) {
  if (!f->Strings(obj, "events", false, &r->events)) return false;
  if (r->events.empty()) r->events = {"output"};
  for (const std::string& e : r->events) {
    if (e != "output" && e != "program_state") {
      *err = "unknown event '" + e + "' (known: output, program_state)";
      return false;
    }
  }
  return true;
}

// subscribe: the events, and how `output` carries the bytes: "utf8" (the
// default: a JSON string) or "base64" (exact bytes, cheaper to write).
bool ReadSubscribe(const object& obj, Request* r, JsonFields* f, std::string* err) {
  if (!ReadEvents(obj, r, f, err)) return false;
  std::string encoding = "utf8";
  if (!f->String(obj, "encoding", false, &encoding)) return false;
  if (encoding != "utf8" && encoding != "base64") {
    *err = "unknown encoding '" + encoding + "' (known: utf8, base64)";
    return false;
  }
  r->output_base64 = encoding == "base64";
  return true;
}

bool ReadRecord(const object& obj, Request* r, JsonFields* f, std::string* err) {
  if (!f->String(obj, "path", false, &r->path) || !f->Bool(obj, "stop", false, &r->stop)) return false;
  if (r->path.empty() == !r->stop) {
    *err = "a record request needs exactly one of 'path' (a file to record to) and \"stop\":true";
    return false;
  }
  return true;
}

bool ReadNothing(const object&, Request*, JsonFields*, std::string*) { return true; }

// The one list of request types: wire name, type, the fields it may carry
// besides id and type, and their reader (docs/protocol.md).
struct RequestSpec {
  const char* name;
  RequestType type;
  std::vector<std::string> fields;
  FieldReader read;
};

const std::vector<RequestSpec>& RequestTable() {
  static const std::vector<RequestSpec> kTable = {
      {"ask", RequestType::kAsk, {"prompt", "timeout_ms", "timeout", "on_input"}, ReadAsk},
      {"ask_stream", RequestType::kAskStream, {"prompt", "timeout_ms", "timeout", "on_input"}, ReadAsk},
      {"cancel", RequestType::kCancel, {"target"}, ReadCancel},
      {"send", RequestType::kSend, {"data"}, ReadData},
      {"send_secret", RequestType::kSendSecret, {"data"}, ReadData},
      {"keys", RequestType::kKeys, {"keys"}, ReadKeys},
      {"paste", RequestType::kPaste, {"text"}, ReadPaste},
      {"resize", RequestType::kResize, {"cols", "rows", "follow_row"}, ReadResize},
      {"screen", RequestType::kScreen, {"styles"}, ReadScreen},
      {"scrollback", RequestType::kScrollback, {"lines", "wrapped"}, ReadScrollback},
      {"expect", RequestType::kExpect, {"pattern", "timeout_ms", "timeout", "output_only"}, ReadExpect},
      {"wait_idle", RequestType::kWaitIdle, {"idle_ms", "timeout_ms", "timeout"}, ReadWaitIdle},
      {"run", RequestType::kRun, {"line", "timeout_ms", "idle_ms"}, ReadRun},
      {"signal", RequestType::kSignal, {"signal"}, ReadSignal},
      {"status", RequestType::kStatus, {}, ReadNothing},
      {"subscribe", RequestType::kSubscribe, {"events", "encoding"}, ReadSubscribe},
      {"unsubscribe", RequestType::kUnsubscribe, {"events"}, ReadEvents},
      {"close", RequestType::kClose, {}, ReadNothing},
      {"answer", RequestType::kAnswer, {"target", "option", "text"}, ReadAnswer},
      {"record", RequestType::kRecord, {"path", "stop"}, ReadRecord},
      {"history", RequestType::kHistory, {}, ReadNothing},
  };
  return kTable;
}

const RequestSpec* FindRequestSpec(std::string_view name) {
  for (const RequestSpec& spec : RequestTable()) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

// "a 'screen' request", "an 'ask' request".
std::string RequestOfType(const std::string& type) {
  bool vowel = !type.empty() && std::strchr("aeiou", type[0]) != nullptr;
  return std::string(vowel ? "an '" : "a '") + type + "' request";
}

// A field the type does not have is refused, naming what it has: a typo
// ("timeout_sec") must not silently fall back to a default. So are both
// spellings of the time limit at once: which one was meant is unclear.
bool CheckFieldNames(const object& obj, const RequestSpec& spec, std::string* err) {
  if (obj["timeout"].error() == simdjson::SUCCESS && obj["timeout_ms"].error() == simdjson::SUCCESS) {
    *err = RequestOfType(spec.name) + " gives both 'timeout_ms' and 'timeout' (seconds, the older spelling): send one";
    return false;
  }
  for (auto field : obj) {
    std::string key(field.key);
    if (key == "id" || key == "type" || std::find(spec.fields.begin(), spec.fields.end(), key) != spec.fields.end()) {
      continue;
    }
    std::string list = "id, type";
    for (const std::string& f : spec.fields) list += ", " + f;
    *err = "unknown field '" + key + "' in " + RequestOfType(spec.name) + " (known: " + list + ")";
    return false;
  }
  return true;
}

}  // namespace

const char* RequestTypeName(RequestType type) {
  for (const RequestSpec& spec : RequestTable()) {
    if (spec.type == type) return spec.name;
  }
  return "?";  // unreachable: every type has a row (request_test.cc checks)
}

const std::vector<std::string>& KnownRequestTypes() {
  static const std::vector<std::string> kTypes = [] {
    std::vector<std::string> types;
    for (const RequestSpec& spec : RequestTable()) types.push_back(spec.name);
    return types;
  }();
  return kTypes;
}

const std::vector<std::string>& KnownRequestFields(const std::string& type) {
  static const std::vector<std::string> kNone;
  const RequestSpec* spec = FindRequestSpec(type);
  return spec ? spec->fields : kNone;
}

ErrorKind RequestErrorKind(RequestError error) {
  switch (error) {
    case RequestError::kUnknownType: return ErrorKind::kUnknownType;
    case RequestError::kBadRequest: return ErrorKind::kBadRequest;
    default: return ErrorKind::kProtocol;
  }
}

bool RequestParser::Parse(const std::string& line, Request* request,
                          RequestError* kind, std::string* err) {
  *request = Request();
  *kind = RequestError::kProtocol;
  if (line.size() > kMaxRequestBytes) {
    *err = "request line longer than " + std::to_string(kMaxRequestBytes) + " bytes";
    return false;
  }
  if (line.find_first_not_of(" \t\r") == std::string::npos) {
    *err = "empty request line";
    return false;
  }
  buffer_ = simdjson::padded_string(ReplaceLoneSurrogates(line));
  element doc;
  if (auto error = parser_.parse(buffer_).get(doc)) {
    *err = std::string("invalid JSON: ") + simdjson::error_message(error);
    RecoverId(line, &request->id);
    return false;
  }
  object obj;
  if (doc.get(obj)) {
    *err = std::string("a request must be a JSON object, got ") + JsonTypeName(doc.type());
    return false;
  }
  element id;
  if (obj["id"].get(id) == simdjson::SUCCESS && !ReadId(id, &request->id)) {
    *err = std::string("field 'id' must be a number or a string, got ") + JsonTypeName(id.type());
    return false;
  }
  element type;
  std::string_view type_name;
  if (obj["type"].get(type)) {
    *err = "missing field 'type'";
    return false;
  }
  if (type.get(type_name)) {
    *err = std::string("field 'type' must be a string, got ") + JsonTypeName(type.type());
    return false;
  }
  const RequestSpec* spec = FindRequestSpec(type_name);
  if (!spec) {
    *kind = RequestError::kUnknownType;
    std::string list;
    for (const std::string& t : KnownRequestTypes()) list += (list.empty() ? "" : ", ") + t;
    *err = "unknown request type '" + std::string(type_name) + "' (known: " + list + ")";
    return false;
  }
  request->type = spec->type;
  if (!CheckFieldNames(obj, *spec, err)) {
    *kind = RequestError::kBadRequest;
    return false;
  }
  JsonFields fields(err);
  if (!spec->read(obj, request, &fields, err)) return false;
  *kind = RequestError::kNone;
  return true;
}

}  // namespace tuidriver
