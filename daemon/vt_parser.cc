#include "vt_parser.h"

#include "swar.h"

namespace tuidriver {

namespace {

constexpr unsigned char kEsc = 0x1b;
constexpr unsigned char kBel = 0x07;
// CAN and SUB cancel a sequence or string; ESC abandons it and starts anew.
bool Cancels(unsigned char b) { return b == 0x18 || b == 0x1a; }
// C0 controls act inside sequences without ending them.
bool ActsInside(unsigned char b) { return b < 0x20 && b != kEsc && !Cancels(b); }
constexpr int kMaxParamValue = 99999;

// The end of the text at `p`: the first C0 control or DEL, or `end`. Eight
// bytes at a time: text runs are most of the output.
const unsigned char* TextEnd(const unsigned char* p, const unsigned char* end) {
  while (end - p >= 8) {
    uint64_t w = swar::Load(p);
    uint64_t stop = swar::BytesBelow(w, 0x20) | swar::BytesEqual(w, 0x7f);
    if (stop != 0) return p + swar::FirstFlagged(stop);
    p += 8;
  }
  while (p < end && *p >= 0x20 && *p != 0x7f) ++p;
  return p;
}

}  // namespace

void VtParser::Feed(const char* data, size_t len) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(data);
  const unsigned char* end = p + len;
  while (p < end) {
    if (state_ == State::kGround) {
      // The hot path: most output is text, handed over in runs.
      const unsigned char* run = p;
      p = TextEnd(p, end);
      if (p > run) handler_->Print(run, static_cast<size_t>(p - run));
      if (p == end) break;
      unsigned char b = *p++;
      if (b == kEsc) EnterEscape();
      else if (b != 0x7f) handler_->Execute(b);
      continue;
    }
    if (state_ == State::kCsi) {
      p = CsiParams(p, end);
      if (p == end) break;
    }
    unsigned char b = *p++;
    switch (state_) {
      case State::kEscape: EscapeByte(b); break;
      case State::kCsi:
      case State::kCsiIgnore: CsiByte(b); break;
      case State::kString: StringByte(b); break;
      case State::kStringEscape: StringEscapeByte(b); break;
      case State::kGround: break;  // handled above
    }
  }
}

void VtParser::EnterEscape() {
  state_ = State::kEscape;
  intermediate_ = 0;
}

void VtParser::EscapeByte(unsigned char b) {
  if (b == '[') {  // CSI, by far the most common: no other test below takes '['
    EnterCsi();
  } else if (ActsInside(b)) {
    handler_->Execute(b);
  } else if (b == kEsc) {
    EnterEscape();
  } else if (Cancels(b)) {
    state_ = State::kGround;
  } else if (b >= 0x20 && b <= 0x2f) {
    intermediate_ = static_cast<char>(b);
  } else if (b == ']') {
    EnterString(StringKind::kOsc);
  } else if (b == 'P') {
    EnterString(StringKind::kDcs);
  } else if (intermediate_ == 0 && (b == 'X' || b == '^' || b == '_')) {
    EnterString(StringKind::kIgnored);  // SOS, PM, APC
  } else if (b >= 0x30 && b <= 0x7e) {
    state_ = State::kGround;
    handler_->Escape(intermediate_, static_cast<char>(b));
  }
  // DEL and bytes from 0x80 are ignored here.
}

void VtParser::EnterCsi() {
  state_ = State::kCsi;
  csi_ = CsiSequence();
  csi_.count = 1;
  for (int& v : csi_.params) v = CsiSequence::kMissing;
  param_started_ = false;
}

void VtParser::CsiByte(unsigned char b) {
  if (ActsInside(b)) {
    handler_->Execute(b);
    return;
  }
  if (b == kEsc) {
    EnterEscape();
    return;
  }
  if (Cancels(b)) {
    state_ = State::kGround;
    return;
  }
  if (b >= 0x40 && b <= 0x7e) {
    bool malformed = state_ == State::kCsiIgnore;
    state_ = State::kGround;
    if (!malformed) {
      if (csi_.count > CsiSequence::kMaxParams) csi_.count = CsiSequence::kMaxParams;
      csi_.final = static_cast<char>(b);
      handler_->Csi(csi_);
    }
    return;
  }
  if (state_ == State::kCsiIgnore || b < 0x20 || b >= 0x7f) return;  // DEL, 0x80+: ignored
  if (b >= 0x20 && b <= 0x2f) {
    csi_.intermediate = static_cast<char>(b);
  } else if (csi_.intermediate != 0) {
    state_ = State::kCsiIgnore;  // parameters after an intermediate
  } else if (b >= 0x3c) {  // ? > < =
    if (param_started_) state_ = State::kCsiIgnore;
    else csi_.leader = static_cast<char>(b);
  } else if (b == ';' || b == ':') {
    param_started_ = true;
    if (csi_.count <= CsiSequence::kMaxParams) ++csi_.count;  // past the limit: dropped
    if (b == ':' && csi_.count <= CsiSequence::kMaxParams) csi_.colons |= 1u << (csi_.count - 1);
  } else {  // a digit
    param_started_ = true;
    if (csi_.count > CsiSequence::kMaxParams) return;
    int& v = csi_.params[csi_.count - 1];
    int digit = b - '0';
    v = v == CsiSequence::kMissing ? digit : v * 10 + digit;
    if (v > kMaxParamValue) v = kMaxParamValue;
  }
}

// The digits and ';' of a CSI's parameters, most of its bytes, in a loop
// of their own; they do what CsiByte does with them. Returns the first
// other byte, for CsiByte.
const unsigned char* VtParser::CsiParams(const unsigned char* p, const unsigned char* end) {
  if (csi_.intermediate != 0) return p;  // parameters after one: CsiByte ignores the CSI
  for (; p < end; ++p) {
    unsigned char b = *p;
    if (b == ';') {
      if (csi_.count <= CsiSequence::kMaxParams) ++csi_.count;  // past the limit: dropped
    } else if (b >= '0' && b <= '9') {
      if (csi_.count <= CsiSequence::kMaxParams) {
        int& v = csi_.params[csi_.count - 1];
        v = v == CsiSequence::kMissing ? b - '0' : v * 10 + (b - '0');
        if (v > kMaxParamValue) v = kMaxParamValue;
      }
    } else {
      break;
    }
    param_started_ = true;
  }
  return p;
}

void VtParser::EnterString(StringKind kind) {
  state_ = State::kString;
  string_kind_ = kind;
  string_.clear();
  string_overflow_ = false;
}

void VtParser::StringByte(unsigned char b) {
  if (b == kBel) {
    FinishString();
  } else if (b == kEsc) {
    state_ = State::kStringEscape;
  } else if (Cancels(b)) {
    state_ = State::kGround;  // abandoned
  } else if (b >= 0x20 && b != 0x7f && string_kind_ != StringKind::kIgnored) {
    size_t limit = string_kind_ == StringKind::kOsc ? kMaxOsc : kMaxDcs;
    if (string_.size() < limit) string_.push_back(static_cast<char>(b));
    else string_overflow_ = true;
  }
  // Other controls inside a string are not part of it.
}

// ESC '\' is the string terminator; controls between the two act (DEL is
// ignored) and do not break it. Anything else abandons the string and is an
// escape sequence of its own.
void VtParser::StringEscapeByte(unsigned char b) {
  if (b == '\\') {
    FinishString();
  } else if (ActsInside(b)) {
    handler_->Execute(b);
  } else if (b == 0x7f) {
    // ignored, as after any ESC
  } else if (Cancels(b)) {
    state_ = State::kGround;
  } else {
    EnterEscape();
    EscapeByte(b);
  }
}

void VtParser::FinishString() {
  state_ = State::kGround;
  if (string_kind_ == StringKind::kOsc) handler_->Osc(string_);
  else if (string_kind_ == StringKind::kDcs && !string_overflow_) handler_->Dcs(string_);
  if (string_.capacity() > kMaxDcs) std::string().swap(string_);  // a long title: give it back
}

}  // namespace tuidriver
