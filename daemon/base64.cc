#include "base64.h"

#include <cstdint>
#include <cstring>

namespace tuidriver {

namespace {

constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The two digits of every 12 bits: one lookup where the plain table takes
// two (base64 was a sixth of a subscribed daemon's instructions).
struct DigitPairs {
  char pair[4096][2];
};

constexpr DigitPairs MakeDigitPairs() {
  DigitPairs t{};
  for (int i = 0; i < 4096; ++i) {
    t.pair[i][0] = kDigits[i >> 6];
    t.pair[i][1] = kDigits[i & 63];
  }
  return t;
}

constexpr DigitPairs kPairs = MakeDigitPairs();

// Eight bytes as one number, the first byte highest.
uint64_t LoadBigEndian(const unsigned char* p) {
  uint64_t v;
  memcpy(&v, p, sizeof v);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  return v;
}

}  // namespace

void AppendBase64(std::string_view bytes, std::string* out) {
  const unsigned char* in = reinterpret_cast<const unsigned char*>(bytes.data());
  size_t n = bytes.size();
  size_t start = out->size();
  out->resize(start + (n + 2) / 3 * 4);
  char* o = &(*out)[start];
  size_t i = 0;
  // Six bytes (eight digits) a step, loaded as eight: stop while eight remain.
  for (; i + 8 <= n; i += 6) {
    uint64_t v = LoadBigEndian(in + i);
    memcpy(o, kPairs.pair[v >> 52], 2);
    memcpy(o + 2, kPairs.pair[(v >> 40) & 4095], 2);
    memcpy(o + 4, kPairs.pair[(v >> 28) & 4095], 2);
    memcpy(o + 6, kPairs.pair[(v >> 16) & 4095], 2);
    o += 8;
  }
  for (; i + 3 <= n; i += 3) {
    uint32_t v = uint32_t{in[i]} << 16 | uint32_t{in[i + 1]} << 8 | in[i + 2];
    memcpy(o, kPairs.pair[v >> 12], 2);
    memcpy(o + 2, kPairs.pair[v & 4095], 2);
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
