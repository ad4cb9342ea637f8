#include "base64.h"

#include <cstdint>

namespace tuidriver {

void AppendBase64(std::string_view bytes, std::string* out) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const unsigned char* in = reinterpret_cast<const unsigned char*>(bytes.data());
  size_t n = bytes.size();
  size_t start = out->size();
  out->resize(start + (n + 2) / 3 * 4);
  char* o = &(*out)[start];
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = uint32_t{in[i]} << 16 | uint32_t{in[i + 1]} << 8 | in[i + 2];
    o[0] = kDigits[v >> 18];
    o[1] = kDigits[(v >> 12) & 63];
    o[2] = kDigits[(v >> 6) & 63];
    o[3] = kDigits[v & 63];
    o += 4;
  }
  if (i < n) {
    uint32_t v = uint32_t{in[i]} << 16 | (i + 1 < n ? uint32_t{in[i + 1]} << 8 : 0);
    o[0] = kDigits[v >> 18];
    o[1] = kDigits[(v >> 12) & 63];
    o[2] = i + 1 < n ? kDigits[(v >> 6) & 63] : '=';
    o[3] = '=';
  }
}

}  // namespace tuidriver
