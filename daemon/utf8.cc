#include "utf8.h"

#include <cstring>


namespace tuidriver {
namespace {

constexpr uint32_t kReplacement = 0xFFFD;

// Length of the sequence a lead byte starts, or 0 for a byte that cannot
// start one.
size_t SequenceLength(unsigned char b) {
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) return 2;
  if (b >= 0xE0 && b <= 0xEF) return 3;
  if (b >= 0xF0 && b <= 0xF4) return 4;
  return 0;
}

// Whether `n` bytes at `s` (n < the sequence length) can still become a
// valid character.
bool ValidPrefix(const unsigned char* s, size_t n) {
  size_t need = SequenceLength(s[0]);
  if (need <= 1 || n >= need) return false;
  for (size_t i = 1; i < n; ++i) {
    if ((s[i] & 0xC0) != 0x80) return false;
  }
  if (n >= 2) {
    if (s[0] == 0xE0 && s[1] < 0xA0) return false;  // overlong
    if (s[0] == 0xED && s[1] > 0x9F) return false;  // surrogate
    if (s[0] == 0xF0 && s[1] < 0x90) return false;  // overlong
    if (s[0] == 0xF4 && s[1] > 0x8F) return false;  // > U+10FFFF
  }
  return true;
}

}  // namespace

bool DecodeUtf8(const char* str, size_t len, size_t* pos, uint32_t* cp) {
  const unsigned char* s = reinterpret_cast<const unsigned char*>(str) + *pos;
  size_t avail = len - *pos;
  size_t need = SequenceLength(s[0]);
  if (need == 1) {
    *cp = s[0];
    *pos += 1;
    return true;
  }
  if (need == 0 || avail < need || !ValidPrefix(s, need - 1) || (s[need - 1] & 0xC0) != 0x80) {
    *cp = kReplacement;
    *pos += 1;
    return false;
  }
  uint32_t value = s[0] & (0x7F >> need);
  for (size_t i = 1; i < need; ++i) value = (value << 6) | (s[i] & 0x3F);
  *cp = value;
  *pos += need;
  return true;
}

bool DecodeUtf8(const std::string& s, size_t* pos, uint32_t* cp) {
  return DecodeUtf8(s.data(), s.size(), pos, cp);
}

void AppendUtf8(uint32_t cp, std::string* out) {
  char buf[kMaxUtf8Bytes];
  out->append(buf, static_cast<size_t>(WriteUtf8(cp, buf) - buf));
}

bool IsValidUtf8(const std::string& s) {
  size_t pos = 0;
  uint32_t cp;
  while (pos < s.size()) {
    if (!DecodeUtf8(s, &pos, &cp)) return false;
  }
  return true;
}

std::string SanitizeUtf8(const std::string& s) {
  std::string out;
  Utf8Sanitizer sanitizer;
  sanitizer.Append(s.data(), s.size(), &out);
  sanitizer.Flush(&out);
  return out;
}

void Utf8Sanitizer::Append(const char* data, size_t len, std::string* out) {
  std::string_view whole = Complete(data, len);
  size_t pos = 0;
  size_t run = 0;  // start of a run of valid bytes, copied in one go
  while (pos < whole.size()) {
    unsigned char b = static_cast<unsigned char>(whole[pos]);
    if (b < 0x80) {
      ++pos;
      // Skip ASCII eight bytes at a time: most program output is ASCII.
      uint64_t word;
      while (pos + sizeof word <= whole.size()) {
        memcpy(&word, whole.data() + pos, sizeof word);
        if (word & 0x8080808080808080ull) break;
        pos += sizeof word;
      }
      continue;
    }
    size_t at = pos;
    uint32_t cp;
    if (!DecodeUtf8(whole.data(), whole.size(), &pos, &cp)) {
      out->append(whole.data() + run, at - run);
      AppendUtf8(kReplacement, out);
      run = pos;
    }
  }
  out->append(whole.data() + run, whole.size() - run);
}

std::string_view Utf8Sanitizer::Complete(const char* data, size_t len) {
  if (!pending_.empty()) {
    joined_.swap(pending_);
    joined_.append(data, len);
    pending_.clear();
    data = joined_.data();
    len = joined_.size();
  }
  // A cut character starts at a lead byte in the last three whose following
  // bytes can still complete it; no other lead byte can follow it.
  const unsigned char* s = reinterpret_cast<const unsigned char*>(data);
  for (size_t p = len > 3 ? len - 3 : 0; p < len; ++p) {
    if (SequenceLength(s[p]) > len - p && ValidPrefix(s + p, len - p)) {
      pending_.assign(data + p, len - p);  // finished by the next call
      len = p;
      break;
    }
  }
  return std::string_view(data, len);
}

void Utf8Sanitizer::Flush(std::string* out) {
  if (pending_.empty()) return;
  AppendUtf8(kReplacement, out);
  pending_.clear();
}

namespace {

// Length of the escape sequence starting at s[i] (s[i] == ESC), up to and
// including its final byte; strings (OSC, DCS...) end at BEL or ESC '\'.
size_t EscapeLength(const std::string& s, size_t i) {
  size_t n = s.size();
  if (i + 1 >= n) return n - i;
  char c = s[i + 1];
  if (c == '[') {
    size_t j = i + 2;
    while (j < n && !(s[j] >= 0x40 && s[j] <= 0x7E)) ++j;
    return (j < n ? j + 1 : n) - i;
  }
  if (c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_') {
    size_t j = i + 2;
    while (j < n && s[j] != '\a' && !(s[j] == 0x1b && j + 1 < n && s[j + 1] == '\\')) ++j;
    if (j >= n) return n - i;
    return (s[j] == '\a' ? j + 1 : j + 2) - i;
  }
  return 2;
}

}  // namespace

std::string SanitizePrompt(const std::string& input) {
  std::string s = SanitizeUtf8(input);
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    if (b == 0x1b) {
      i += EscapeLength(s, i);
    } else if (b == '\r') {
      out += '\n';
      i += (i + 1 < s.size() && s[i + 1] == '\n') ? 2 : 1;
    } else if ((b < 0x20 && b != '\t' && b != '\n') || b == 0x7F) {
      ++i;
    } else if (b == 0xC2 && i + 1 < s.size() &&
               static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(s[i + 1]) <= 0x9F) {
      i += 2;  // a C1 control, U+0080..U+009F
    } else {
      out += s[i++];
    }
  }
  return out;
}

int StringColumns(const std::string& s) {
  int cols = 0;
  size_t pos = 0;
  uint32_t cp;
  while (pos < s.size()) {
    DecodeUtf8(s, &pos, &cp);
    cols += CharWidth(cp);
  }
  return cols;
}

}  // namespace tuidriver
