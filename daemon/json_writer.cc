#include "json_writer.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "swar.h"
#include "utf8.h"

namespace tuidriver {

namespace {

// The first byte of `w` that needs a second look (bit 7 set): a control,
// '"', '\\', or a byte >= 0x80 (a character to check).
uint64_t NeedsLook(uint64_t w) {
  return swar::BytesBelow(w, 0x20) | swar::BytesEqual(w, '"') | swar::BytesEqual(w, '\\') | swar::HighBytes(w);
}

// The length of the valid UTF-8 sequence at `s` (as DecodeUtf8 judges:
// no overlong form, surrogate or code point past U+10FFFF), or 0.
inline size_t ValidSequence(const unsigned char* s, size_t avail) {
  unsigned char b = s[0];
  auto cont = [s](size_t i) { return (s[i] & 0xC0) == 0x80; };
  if (b >= 0xC2 && b <= 0xDF) return avail >= 2 && cont(1) ? 2 : 0;
  if (b >= 0xE0 && b <= 0xEF) {
    if (avail < 3 || !cont(1) || !cont(2)) return 0;
    return (b == 0xE0 && s[1] < 0xA0) || (b == 0xED && s[1] > 0x9F) ? 0 : 3;
  }
  if (b >= 0xF0 && b <= 0xF4) {
    if (avail < 4 || !cont(1) || !cont(2) || !cont(3)) return 0;
    return (b == 0xF0 && s[1] < 0x90) || (b == 0xF4 && s[1] > 0x8F) ? 0 : 4;
  }
  return 0;
}

// U+2028 or U+2029 (E2 80 A8, E2 80 A9): valid, but escaped.
bool LineSeparator(const unsigned char* s) { return s[0] == 0xE2 && s[1] == 0x80 && (s[2] == 0xA8 || s[2] == 0xA9); }

// The length of the character that starts the four bytes `w` (byte 0 the
// lowest) if it is one of the common ones that go into JSON as they are: a
// lead C2-DF, or E1-EF but ED (no overlong form or surrogate is possible
// after those) with its continuation bytes, and not U+2028 or U+2029. Else
// 0: WriteNonAscii judges it.
size_t CommonUtf8(uint32_t w) {
  uint32_t lead = w & 0xFF;
  if (lead >= 0xC2 && lead <= 0xDF) return (w & 0xC000) == 0x8000 ? 2 : 0;
  if (lead < 0xE1 || lead > 0xEF || lead == 0xED || (w & 0xC0C000) != 0x808000) return 0;
  uint32_t three = w & 0xFFFFFF;
  return three == 0xA880E2 || three == 0xA980E2 ? 0 : 3;  // E2 80 A8, E2 80 A9
}

// How each ASCII byte goes into a JSON string: itself, a short escape
// (\n, \"), or \u00XX. Eight bytes a row, so that one move writes any.
struct AsciiEscapes {
  char text[128][8] = {};
  unsigned char len[128] = {};
  constexpr AsciiEscapes() {
    constexpr char kHex[] = "0123456789abcdef";
    for (int b = 0; b < 128; ++b) {
      char short_escape = b == '"' ? '"' : b == '\\' ? '\\' : b == '\n' ? 'n' : b == '\r' ? 'r' : b == '\t' ? 't'
                          : b == '\b' ? 'b' : b == '\f' ? 'f' : 0;
      if (short_escape) {
        text[b][0] = '\\';
        text[b][1] = short_escape;
        len[b] = 2;
      } else if (b < 0x20) {
        const char esc[6] = {'\\', 'u', '0', '0', kHex[b >> 4], kHex[b & 0xF]};
        for (int i = 0; i < 6; ++i) text[b][i] = esc[i];
        len[b] = 6;
      } else {
        text[b][0] = static_cast<char>(b);
        len[b] = 1;
      }
    }
  }
};
constexpr AsciiEscapes kAscii;

// Writes the ASCII byte `b` as it goes into a JSON string at `o` (which has
// room for eight bytes). Returns the end.
inline char* WriteAscii(unsigned char b, char* o) {
  memcpy(o, kAscii.text[b], 8);
  return o + kAscii.len[b];
}

// Writes the character that starts with the byte >= 0x80 at `*pos` at `o`
// (room for eight bytes): the valid UTF-8 sequence (U+2028 and U+2029
// escaped), or U+FFFD for an invalid byte. Returns the end.
char* WriteNonAscii(std::string_view s, size_t* pos, char* o) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data()) + *pos;
  size_t n = ValidSequence(p, s.size() - *pos);
  *pos += n ? n : 1;
  if (n == 0) return WriteUtf8(0xFFFD, o);
  if (n == 3 && LineSeparator(p)) {
    memcpy(o, p[2] == 0xA8 ? "\\u2028" : "\\u2029", 6);
    return o + 6;
  }
  for (size_t i = 0; i < n; ++i) o[i] = static_cast<char>(p[i]);
  return o + n;
}

}  // namespace

// `output` events pass every byte the program writes through here, so it
// escapes a block at a time into a buffer with room for the worst case (six
// bytes for one). Eight bytes are copied at a time, as they are; the output
// then advances to the first that needs a look. A valid UTF-8 character
// there is copied on the spot and the next word starts after it, so text
// between escapes costs a word or two, not a loop per byte.
void AppendJsonString(std::string_view s, std::string* out) {
  constexpr size_t kBlock = 2048;
  char buf[kBlock * 6 + 8];
  const unsigned char* u = reinterpret_cast<const unsigned char*>(s.data());
  out->reserve(out->size() + s.size() + 2);
  out->push_back('"');
  size_t pos = 0;
  while (pos < s.size()) {
    size_t block_end = std::min(s.size(), pos + kBlock);
    char* o = buf;
    while (pos < block_end) {
      if (pos + sizeof(uint64_t) <= block_end) {
        uint64_t w = swar::Load(u + pos);
        memcpy(o, &w, sizeof w);  // the buffer has room: only the plain bytes count
        uint64_t look = NeedsLook(w);
        if (look == 0) {
          o += sizeof w;
          pos += sizeof w;
          continue;
        }
        size_t plain = swar::FirstFlagged(look);
        o += plain;
        pos += plain;
      } else {
        while (pos < block_end && u[pos] < 0x80 && kAscii.len[u[pos]] == 1) *o++ = static_cast<char>(u[pos++]);
        if (pos == block_end) break;
      }
      if (u[pos] < 0x80) {  // a control (ESC of every colour change), '"' or '\\'
        o = WriteAscii(u[pos++], o);
        continue;
      }
      size_t n = pos + 4 <= s.size() ? CommonUtf8(swar::Load4(u + pos)) : 0;
      if (n > 0) {
        memcpy(o, u + pos, 4);  // one move; the buffer has room
        o += n;
        pos += n;  // may pass block_end: a character stays whole
        continue;
      }
      o = WriteNonAscii(s, &pos, o);  // the same
    }
    out->append(buf, static_cast<size_t>(o - buf));
  }
  out->push_back('"');
}

void JsonObject::Key(const char* key) {
  if (text_.size() > 1) text_.push_back(',');
  AppendJsonString(key, &text_);
  text_.push_back(':');
}

JsonObject& JsonObject::Add(const char* key, std::string_view value) {
  Key(key);
  AppendJsonString(value, &text_);
  return *this;
}

JsonObject& JsonObject::Add(const char* key, const char* value) {
  return Add(key, std::string_view(value));
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
