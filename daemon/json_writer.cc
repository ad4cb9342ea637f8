#include "json_writer.h"

#include <cstdio>

#include "utf8.h"

namespace tuidriver {

// Runs of bytes that need no escaping (most of any text) are copied in one
// append; `output` events pass every byte the program writes through here.
void AppendJsonString(std::string_view s, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  out->reserve(out->size() + s.size() + 2);
  out->push_back('"');
  size_t pos = 0;
  size_t run = 0;  // start of the bytes not yet copied
  while (pos < s.size()) {
    unsigned char b = static_cast<unsigned char>(s[pos]);
    if (b >= 0x20 && b < 0x80 && b != '"' && b != '\\') {
      ++pos;
      continue;
    }
    size_t start = pos;
    if (b >= 0x80) {
      uint32_t cp;
      bool ok = DecodeUtf8(s.data(), s.size(), &pos, &cp);
      if (ok && cp != 0x2028 && cp != 0x2029) continue;  // valid: stays in the run
      out->append(s.data() + run, start - run);
      if (ok) {
        out->append(cp == 0x2028 ? "\\u2028" : "\\u2029");
      } else {
        AppendUtf8(0xFFFD, out);
      }
      run = pos;
      continue;
    }
    out->append(s.data() + run, start - run);
    ++pos;
    run = pos;
    switch (b) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default: {
        const char esc[6] = {'\\', 'u', '0', '0', kHex[b >> 4], kHex[b & 0xF]};
        out->append(esc, sizeof esc);
      }
    }
  }
  out->append(s.data() + run, pos - run);
  out->push_back('"');
}

void JsonObject::Key(const char* key) {
  if (text_.size() > 1) text_.push_back(',');
  AppendJsonString(key, &text_);
  text_.push_back(':');
}

JsonObject& JsonObject::Add(const char* key, const std::string& value) {
  Key(key);
  AppendJsonString(value, &text_);
  return *this;
}

JsonObject& JsonObject::Add(const char* key, const char* value) {
  return Add(key, std::string(value));
}

JsonObject& JsonObject::Add(const char* key, bool value) {
  Key(key);
  text_.append(value ? "true" : "false");
  return *this;
}

JsonObject& JsonObject::Add(const char* key, int64_t value) {
  Key(key);
  text_.append(std::to_string(value));
  return *this;
}

JsonObject& JsonObject::AddNull(const char* key) {
  Key(key);
  text_.append("null");
  return *this;
}

JsonObject& JsonObject::AddRaw(const char* key, const std::string& json) {
  Key(key);
  text_.append(json);
  return *this;
}

JsonObject& JsonObject::AddStringArray(const char* key, const std::vector<std::string>& items) {
  Key(key);
  text_.push_back('[');
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text_.push_back(',');
    AppendJsonString(items[i], &text_);
  }
  text_.push_back(']');
  return *this;
}

JsonObject& JsonObject::Merge(const JsonObject& other) {
  if (other.text_.size() <= 1) return *this;
  if (text_.size() > 1) text_ += ',';
  text_.append(other.text_, 1, std::string::npos);
  return *this;
}

}  // namespace tuidriver
