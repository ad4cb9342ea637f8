// Writing JSON lines. Strings are always emitted as valid UTF-8: invalid
// bytes become U+FFFD, and U+2028/U+2029 are escaped so a line stays one
// line even for JavaScript parsers.
#ifndef TUIDRIVER_JSON_WRITER_H_
#define TUIDRIVER_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tuidriver {

// Appends `s` as a quoted JSON string.
void AppendJsonString(std::string_view s, std::string* out);

// Builds one JSON object, field by field, in insertion order:
//   JsonObject o; o.Add("type", "ready").Add("pid", 42); o.Finish()
class JsonObject {
 public:
  JsonObject& Add(const char* key, std::string_view value);
  JsonObject& Add(const char* key, const char* value);
  JsonObject& Add(const char* key, bool value);
  JsonObject& Add(const char* key, int64_t value);
  JsonObject& Add(const char* key, int value) { return Add(key, static_cast<int64_t>(value)); }
  JsonObject& AddNull(const char* key);
  // `json` must already be valid JSON (an object, an array, a number...).
  JsonObject& AddRaw(const char* key, const std::string& json);
  JsonObject& AddStringArray(const char* key, const std::vector<std::string>& items);
  // Appends another object's fields (a message's common part plus its own).
  JsonObject& Merge(const JsonObject& other);
  // The object's text, "{...}", without a newline.
  std::string Finish() const { return text_ + "}"; }

 private:
  void Key(const char* key);
  std::string text_ = "{";
};

}  // namespace tuidriver

#endif  // TUIDRIVER_JSON_WRITER_H_
