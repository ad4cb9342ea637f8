// Eight bytes at a time in plain C++ (SWAR: SIMD within a register), for the
// loops every byte of program output goes through: the parser's text runs,
// the terminal's ASCII runs, the JSON escaping of `output` events. A test
// sets bit 7 of the bytes it is true for, and FirstFlagged finds the first
// such byte in memory order.
#ifndef TUIDRIVER_SWAR_H_
#define TUIDRIVER_SWAR_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

// The words are loaded with memcpy: byte 0 in memory is the low byte on
// every target (x64, arm64; MSVC has no big-endian target).
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "daemon/swar.h reads words as little-endian"
#endif

namespace tuidriver {
namespace swar {

constexpr uint64_t kOnes = 0x0101010101010101ull;
constexpr uint64_t kHigh = 0x8080808080808080ull;

inline uint64_t Load(const unsigned char* p) {
  uint64_t w;
  memcpy(&w, p, sizeof w);
  return w;
}

// Four bytes, byte 0 the lowest.
inline uint32_t Load4(const unsigned char* p) {
  uint32_t w;
  memcpy(&w, p, sizeof w);
  return w;
}

// The tests below flag the first byte they hold for exactly; a later byte
// may be flagged falsely (a borrow runs up from a flagged byte), which
// FirstFlagged and "any flagged" never see.

// Bytes that are zero.
inline uint64_t ZeroBytes(uint64_t w) { return (w - kOnes) & ~w & kHigh; }
// Bytes equal to `c`.
inline uint64_t BytesEqual(uint64_t w, unsigned char c) { return ZeroBytes(w ^ (kOnes * c)); }
// Bytes below `n` (n <= 0x80).
inline uint64_t BytesBelow(uint64_t w, unsigned char n) { return (w - kOnes * n) & ~w & kHigh; }
// Bytes from 0x80 (not ASCII): exact.
inline uint64_t HighBytes(uint64_t w) { return w & kHigh; }

// The index (0-7) of the first byte flagged in `flags` (bit 7 of a byte set,
// nothing else; flags != 0). The lowest flag times the byte ramp puts its
// byte's index into the top byte.
inline size_t FirstFlagged(uint64_t flags) {
  uint64_t lowest = (flags & (~flags + 1)) >> 7;  // 1 << (8 * index)
  return static_cast<size_t>((lowest * 0x0001020304050607ull) >> 56);
}

// How many of the `n` bytes at `p` are ASCII (below 0x80) before the first
// that is not.
inline size_t AsciiPrefix(const unsigned char* p, size_t n) {
  size_t i = 0;
  for (; i + sizeof(uint64_t) <= n; i += sizeof(uint64_t)) {
    uint64_t high = HighBytes(Load(p + i));
    if (high != 0) return i + FirstFlagged(high);
  }
  while (i < n && p[i] < 0x80) ++i;
  return i;
}

}  // namespace swar
}  // namespace tuidriver

#endif  // TUIDRIVER_SWAR_H_
