#include "request.h"

#include <cmath>

#include "json_type_name.h"
#include "json_writer.h"

namespace tuidriver {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

bool IsNumber(const element& e) {
  return e.is_int64() || e.is_uint64() || e.is_double();
}

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
  if (IsNumber(e)) {
    id->kind = RequestId::Kind::kNumber;
    id->json = simdjson::minify(e);
    return true;
  }
  return false;
}

// Field readers: absent optional fields leave *out untouched.
class Fields {
 public:
  Fields(const object& obj, std::string* err) : obj_(obj), err_(err) {}

  bool String(const char* name, bool required, std::string* out) {
    element e;
    if (!Find(name, required, &e)) return !failed_;
    std::string_view s;
    if (e.get(s)) return Wrong(name, "a string", e);
    out->assign(s.data(), s.size());
    return true;
  }

  bool Number(const char* name, double min, double max, double* out) {
    element e;
    if (!Find(name, false, &e)) return !failed_;
    double v;
    if (!IsNumber(e) || e.get(v) || !std::isfinite(v)) return Wrong(name, "a number", e);
    if (v < min || v > max) return Range(name, min, max);
    *out = v;
    return true;
  }

  bool Int(const char* name, bool required, long min, long max, long* out) {
    element e;
    if (!Find(name, required, &e)) return !failed_;
    int64_t v;
    if (!e.is_int64() || e.get(v)) return Wrong(name, "an integer", e);
    if (v < min || v > max) return Range(name, static_cast<double>(min), static_cast<double>(max));
    *out = static_cast<long>(v);
    return true;
  }

  bool Bool(const char* name, bool* out) {
    element e;
    if (!Find(name, false, &e)) return !failed_;
    if (e.get(*out)) return Wrong(name, "true or false", e);
    return true;
  }

  bool StringArray(const char* name, bool required, std::vector<std::string>* out) {
    element e;
    if (!Find(name, required, &e)) return !failed_;
    simdjson::dom::array arr;
    if (e.get(arr)) return Wrong(name, "an array of strings", e);
    out->clear();
    for (element item : arr) {
      std::string_view s;
      if (item.get(s)) return Wrong(name, "an array of strings", e);
      out->emplace_back(s.data(), s.size());
    }
    return true;
  }

  bool Id(const char* name, RequestId* out) {
    element e;
    if (!Find(name, true, &e)) return false;
    if (e.is_null() || !ReadId(e, out)) return Wrong(name, "a number or a string", e);
    return true;
  }

  // A field that may be a string or a number, kept as text ("INT", "2").
  bool StringOrNumber(const char* name, std::string* out) {
    element e;
    if (!Find(name, true, &e)) return false;
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
    return Wrong(name, "a string or a number", e);
  }

 private:
  bool Find(const char* name, bool required, element* e) {
    if (obj_[name].get(*e) == simdjson::SUCCESS) return true;
    if (required) {
      *err_ = std::string("missing field '") + name + "'";
      failed_ = true;
    }
    return false;
  }
  bool Wrong(const char* name, const char* want, const element& e) {
    *err_ = std::string("field '") + name + "' must be " + want + ", got " + JsonTypeName(e.type());
    failed_ = true;
    return false;
  }
  bool Range(const char* name, double min, double max) {
    char buf[160];
    snprintf(buf, sizeof buf, "field '%s' must be between %g and %g", name, min, max);
    *err_ = buf;
    failed_ = true;
    return false;
  }

  const object& obj_;
  std::string* err_;
  bool failed_ = false;
};

constexpr double kMaxTimeoutS = 7 * 24 * 3600.0;

bool ReadFields(const object& obj, Request* r, std::string* err) {
  Fields f(obj, err);
  const std::string& t = r->type;
  if (t == "ask" || t == "ask_stream") {
    if (!f.String("prompt", true, &r->prompt) || !f.Number("timeout", 0.001, kMaxTimeoutS, &r->timeout_s) ||
        !f.String("on_input", false, &r->on_input)) {
      return false;
    }
    if (!r->on_input.empty() && r->on_input != "wait" && r->on_input != "fail") {
      *err = "field 'on_input' must be \"wait\" or \"fail\", got '" + r->on_input + "'";
      return false;
    }
    return true;
  }
  if (t == "answer") {
    bool has_text = obj["text"].error() == simdjson::SUCCESS;
    if (!f.Id("target", &r->target) || !f.Int("option", false, 1, 1000, &r->option) ||
        !f.String("text", false, &r->text)) {
      return false;
    }
    if ((r->option > 0) == has_text) {
      *err = "an answer needs exactly one of 'option' (a choice's number) and 'text'";
      return false;
    }
    return true;
  }
  if (t == "cancel") return f.Id("target", &r->target);
  if (t == "send" || t == "send_secret") return f.String("data", true, &r->data);
  if (t == "keys") return f.StringArray("keys", true, &r->keys);
  if (t == "paste") return f.String("text", true, &r->text);
  if (t == "resize") {
    long cols = 0, rows = 0;
    bool ok = f.Int("cols", true, 2, 1000, &cols) && f.Int("rows", true, 2, 1000, &rows);
    r->cols = static_cast<int>(cols);
    r->rows = static_cast<int>(rows);
    return ok;
  }
  if (t == "scrollback") return f.Int("lines", false, 0, 100000000, &r->lines);
  if (t == "expect") {
    return f.String("pattern", true, &r->pattern) &&
           f.Number("timeout", 0.001, kMaxTimeoutS, &r->timeout_s);
  }
  if (t == "wait_idle") {
    long idle = 500;
    bool ok = f.Int("idle_ms", false, 1, 3600000, &idle) &&
              f.Number("timeout", 0.001, kMaxTimeoutS, &r->timeout_s);
    r->idle_ms = static_cast<int>(idle);
    return ok;
  }
  if (t == "signal") return f.StringOrNumber("signal", &r->signal);
  if (t == "subscribe" || t == "unsubscribe") {
    if (!f.StringArray("events", false, &r->events)) return false;
    if (r->events.empty()) r->events = {"output"};
    for (const std::string& e : r->events) {
      if (e != "output") {
        *err = "unknown event '" + e + "' (known: output)";
        return false;
      }
    }
    return true;
  }
  if (t == "screen") return f.Bool("styles", &r->styles);
  if (t == "record") {
    if (!f.String("path", false, &r->path) || !f.Bool("stop", &r->stop)) return false;
    if (r->path.empty() == !r->stop) {
      *err = "a record request needs exactly one of 'path' (a file to record to) and \"stop\":true";
      return false;
    }
    return true;
  }
  return true;  // status, close: no fields
}

}  // namespace

const std::vector<std::string>& KnownRequestTypes() {
  static const std::vector<std::string> kTypes = {
      "ask",   "ask_stream", "cancel",     "send",      "send_secret", "keys",
      "paste", "resize",     "screen",     "scrollback", "expect",     "wait_idle",
      "signal", "status",    "subscribe",  "unsubscribe", "close",      "answer",
      "record"};
  return kTypes;
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
  buffer_ = simdjson::padded_string(line);
  element doc;
  if (auto error = parser_.parse(buffer_).get(doc)) {
    *err = std::string("invalid JSON: ") + simdjson::error_message(error);
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
  request->type.assign(type_name.data(), type_name.size());
  bool known = false;
  for (const std::string& t : KnownRequestTypes()) known |= (t == request->type);
  if (!known) {
    *kind = RequestError::kUnknownType;
    std::string list;
    for (const std::string& t : KnownRequestTypes()) list += (list.empty() ? "" : ", ") + t;
    *err = "unknown request type '" + request->type + "' (known: " + list + ")";
    return false;
  }
  if (!ReadFields(obj, request, err)) return false;
  *kind = RequestError::kNone;
  return true;
}

}  // namespace tuidriver
