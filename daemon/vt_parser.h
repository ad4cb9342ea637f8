// Splits a terminal byte stream into what a terminal acts on: runs of text,
// C0 controls, escape sequences, control sequences (CSI), and OSC and DCS
// strings. After Paul Williams' parser for DEC terminals
// (vt100.net/emu/dec_ansi_parser), for UTF-8 streams: bytes from 0x80 are
// text, never C1 controls.
//
// Pure: no I/O and no screen. A sequence cut by the end of one Feed goes on
// in the next, so output split anywhere parses the same. Everything is
// bounded: at most kMaxParams CSI parameters are kept (more are dropped),
// and strings longer than their limit are cut (OSC) or dropped (DCS).
#ifndef TUIDRIVER_VT_PARSER_H_
#define TUIDRIVER_VT_PARSER_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace tuidriver {

struct CsiSequence {
  static constexpr int kMaxParams = 16;
  static constexpr int kMissing = -1;
  int params[kMaxParams];  // kMissing where a parameter was left out
  int count = 0;           // how many parameters were given (at least 1)
  uint32_t colons = 0;     // bit i: parameter i came after ':' (a sub-parameter, as in 38:2:r:g:b)
  char leader = 0;         // a private marker before the parameters: ? > < =
  char intermediate = 0;   // the last byte 0x20-0x2f, e.g. '$' in CSI ? 1 $ p
  char final = 0;

  // Parameter i, or `fallback` when it was left out.
  int Param(int i, int fallback) const {
    return i < count && params[i] != kMissing ? params[i] : fallback;
  }
  // Parameter i as a count: left out or 0 means 1.
  int Count(int i) const {
    int v = Param(i, 1);
    return v < 1 ? 1 : v;
  }
};

class VtParser {
 public:
  // Receives what the parser found. The references are valid during the call only.
  class Handler {
   public:
    virtual ~Handler() = default;
    // Bytes >= 0x20 but 0x7f in the ground state: UTF-8 text as the program
    // sent it, a character possibly cut between two calls.
    virtual void Print(const unsigned char* text, size_t len) = 0;
    // A C0 control (BS, HT, LF, CR, ...), also one inside a sequence, which
    // acts without ending it.
    virtual void Execute(unsigned char control) = 0;
    // ESC, an optional intermediate byte (the last, if several) and a final byte.
    virtual void Escape(char intermediate, char final) = 0;
    virtual void Csi(const CsiSequence& csi) = 0;
    // The payload of ESC ] ... (BEL or ST), e.g. "0;title".
    virtual void Osc(const std::string& payload) = 0;
    // The payload of ESC P ... ST, e.g. "$qm"; controls inside are not part of it.
    virtual void Dcs(const std::string& payload) = 0;
  };

  static constexpr size_t kMaxOsc = 65536;  // longer: cut to this
  static constexpr size_t kMaxDcs = 4096;   // longer (images): dropped

  explicit VtParser(Handler* handler) : handler_(handler) {}

  void Feed(const char* data, size_t len);

 private:
  enum class State {
    kGround,
    kEscape,        // after ESC, maybe after intermediates
    kCsi,           // parameters and intermediates of a CSI
    kCsiIgnore,     // a malformed CSI, skipped to its final byte
    kString,        // OSC, DCS, or SOS/PM/APC (ignored)
    kStringEscape,  // an ESC inside a string: ST, or the string is abandoned
  };
  enum class StringKind { kOsc, kDcs, kIgnored };

  // Each handles one byte in its state.
  void EscapeByte(unsigned char b);
  void CsiByte(unsigned char b);
  const unsigned char* CsiParams(const unsigned char* p, const unsigned char* end);
  void StringByte(unsigned char b);
  void StringEscapeByte(unsigned char b);
  void EnterEscape();
  void EnterCsi();
  void EnterString(StringKind kind);
  void FinishString();

  Handler* handler_;  // not owned
  State state_ = State::kGround;
  char intermediate_ = 0;
  CsiSequence csi_;
  bool param_started_ = false;  // a digit or separator came: no more leaders
  StringKind string_kind_ = StringKind::kIgnored;
  std::string string_;
  bool string_overflow_ = false;
};

}  // namespace tuidriver

#endif  // TUIDRIVER_VT_PARSER_H_
