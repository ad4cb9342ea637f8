// UTF-8 helpers. Everything the daemon prints is valid UTF-8: bytes from the
// program may split a character across reads, and may not be UTF-8 at all.
#ifndef TUIDRIVER_UTF8_H_
#define TUIDRIVER_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "char_width_table.h"

namespace tuidriver {

// Decodes one code point at *pos and advances *pos past it. An invalid or
// truncated sequence yields U+FFFD, consumes one byte and returns false.
bool DecodeUtf8(const std::string& s, size_t* pos, uint32_t* cp);
bool DecodeUtf8(const char* s, size_t len, size_t* pos, uint32_t* cp);

// Appends the UTF-8 encoding of `cp` (invalid code points become U+FFFD).
void AppendUtf8(uint32_t cp, std::string* out);
// The same into a buffer with room for kMaxUtf8Bytes; returns the end.
// Inline: the history's text of every scrolled row goes through it.
constexpr size_t kMaxUtf8Bytes = 4;
inline char* WriteUtf8(uint32_t cp, char* out) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
  if (cp < 0x80) {
    *out++ = static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out++ = static_cast<char>(0xC0 | (cp >> 6));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out++ = static_cast<char>(0xE0 | (cp >> 12));
    *out++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out++ = static_cast<char>(0xF0 | (cp >> 18));
    *out++ = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

bool IsValidUtf8(const std::string& s);

// Invalid bytes replaced by U+FFFD.
std::string SanitizeUtf8(const std::string& s);

// Turns a byte stream into valid UTF-8 incrementally: a character split
// between two Append calls comes out whole, once.
class Utf8Sanitizer {
 public:
  void Append(const char* data, size_t len, std::string* out);
  // The same cut without the replacement: `data` with the start of a
  // character cut by the previous call in front, and one cut at its end held
  // back for the next. Invalid bytes stay (AppendJsonString replaces them
  // as Append would); the view lives until the next call.
  std::string_view Complete(const char* data, size_t len);
  // End of stream: an unfinished character becomes U+FFFD.
  void Flush(std::string* out);

 private:
  std::string pending_;  // the start of a character cut off by a read
  std::string joined_;   // pending_ and the next read, when there was one
};

// Text safe to type into a program: escape sequences and C0/C1 controls are
// removed except TAB and LF; CR LF and lone CR become LF; invalid UTF-8
// becomes U+FFFD. A prompt can therefore never inject terminal commands.
std::string SanitizePrompt(const std::string& s);

// Columns a character takes on the terminal: 0 (combining), 1, or 2 (wide:
// CJK, emoji), by utf8proc's Unicode tables (copied into char_width_table.h),
// as current terminals count. The
// emulator and the reply extractor both count with this one function.
// Inline: the emulator asks for every character that is not ASCII.
inline int CharWidth(char32_t cp) {
  if (cp < 0x80) return cp >= 0x20 && cp != 0x7f ? 1 : 0;
  // utf8proc's widths, copied into char_width_table.h (scripts/gen-char-width.cc):
  // its full property tables would be about 330 KB of the binary.
  if (cp >= 0x110000) return kCharWidthPastUnicode;
  uint8_t packed = kCharWidthStage2[kCharWidthStage1[cp / kCharWidthBlock]][cp % kCharWidthBlock / 4];
  return (packed >> (2 * (cp % 4))) & 3;
}

// Columns of a UTF-8 string, the sum of CharWidth.
int StringColumns(const std::string& s);

}  // namespace tuidriver

#endif  // TUIDRIVER_UTF8_H_
