// The one strict reader of JSON fields, shared by requests (request.cc) and
// engine files (engine_config.cc): every value of the right type and range,
// and the first problem kept as an error naming the field by its dotted
// path ("timeout", "submit.mode", "command[2]"):
//   missing field 'prompt'
//   field 'timeout' must be a number, got a string
//   field 'cols' must be between 2 and 1000, got 5000
//   field 'submit.mode': expected one of lines, paste, type; got 'fast'
#ifndef TUIDRIVER_JSON_FIELDS_H_
#define TUIDRIVER_JSON_FIELDS_H_

#include <simdjson.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tuidriver {

class JsonFields {
 public:
  using Element = simdjson::dom::element;
  // Called for each field of an object: false when `key` is unknown.
  using FieldFn = std::function<bool(const std::string& key, const Element& value, const std::string& path)>;

  // The first error goes to *err (which must outlive the reader).
  explicit JsonFields(std::string* err) : err_(err) {}
  bool failed() const { return failed_; }

  // Keep an error (unless one is kept already); always false.
  // "field 'path': message".
  bool Fail(const std::string& path, const std::string& message);
  // "field 'path' must be WANT, got TYPE".
  bool Wrong(const std::string& path, const char* want, const Element& e);
  // "missing field 'path'".
  bool Missing(const std::string& path);

  // The field `name` of `obj`: true with *e when present. When absent,
  // false, and a Missing error if it is required.
  bool Find(const simdjson::dom::object& obj, const char* name, bool required, Element* e);
  // Every field of the object `e`, strictly: an unknown key is an error.
  // Keys starting with '$' ($schema, $comment) are skipped.
  bool Object(const Element& e, const std::string& path, const FieldFn& field);

  // One value at `path`: false, with the error kept, if it has the wrong
  // type or is out of range; *out is left alone then.
  bool String(const Element& e, const std::string& path, std::string* out);
  bool Int(const Element& e, const std::string& path, int64_t min, int64_t max, int64_t* out);
  bool Int(const Element& e, const std::string& path, int64_t min, int64_t max, int* out);
  // Any finite JSON number.
  bool Number(const Element& e, const std::string& path, double min, double max, double* out);
  bool Bool(const Element& e, const std::string& path, bool* out);
  bool Strings(const Element& e, const std::string& path, std::vector<std::string>* out);

  // The field `name` of `obj`, read as above. Absent: true, *out left
  // alone, unless it is required.
  bool String(const simdjson::dom::object& obj, const char* name, bool required, std::string* out);
  bool Int(const simdjson::dom::object& obj, const char* name, bool required, int64_t min, int64_t max,
           int64_t* out);
  bool Number(const simdjson::dom::object& obj, const char* name, bool required, double min, double max,
              double* out);
  bool Bool(const simdjson::dom::object& obj, const char* name, bool required, bool* out);
  bool Strings(const simdjson::dom::object& obj, const char* name, bool required,
               std::vector<std::string>* out);

  // path + "." + key, or key at the top.
  static std::string Sub(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }
  static std::string Item(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

 private:
  bool Range(const std::string& path, double min, double max, double got);

  std::string* err_;
  bool failed_ = false;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_JSON_FIELDS_H_
