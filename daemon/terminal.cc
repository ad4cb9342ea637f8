#include "terminal.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>

#include "utf8.h"

namespace tuidriver {

namespace {

std::string CsiReply(const char* fmt, int a, int b = 0) {
  char buf[48];
  int n = snprintf(buf, sizeof buf, fmt, a, b);
  return std::string(buf, static_cast<size_t>(n));
}

}  // namespace

Terminal::Terminal(int cols, int rows, size_t scrollback_limit) : parser_(this), screen_(cols, rows, scrollback_limit) {}

Terminal::~Terminal() = default;

void Terminal::Feed(const char* data, size_t len) { parser_.Feed(data, len); }

std::string Terminal::TakeReplies() {
  std::string out;
  out.swap(replies_);
  return out;
}

// ---- text ------------------------------------------------------------------

// Whole characters go to the screen a run at a time (Screen::WriteRun, the
// fast path); what it cannot take is decoded here a byte at a time.
void Terminal::Print(const unsigned char* text, size_t len) {
  ++generation_;
  const unsigned char* p = text;
  const unsigned char* end = text + len;
  while (p < end) {
    if (utf8_missing_ > 0) {
      DecodeUtf8Byte(*p++);
    } else if (screen_.WritesOneByOne()) {
      // Modes that change what a character does: one at a time.
      unsigned char b = *p++;
      if (b < 0x80) screen_.WriteChar(b);
      else DecodeUtf8Byte(b);
    } else {
      const unsigned char* next = screen_.WriteRun(p, end);
      if (next == p) DecodeUtf8Byte(*p++);  // not a whole character
      else p = next;
    }
  }
}

// One byte of a multi-byte character. Invalid bytes, overlong forms and
// surrogates print U+FFFD, as terminals show them.
void Terminal::DecodeUtf8Byte(unsigned char b) {
  if (utf8_missing_ > 0) {
    if ((b & 0xC0) == 0x80) {
      utf8_cp_ = (utf8_cp_ << 6) | (b & 0x3F);
      if (--utf8_missing_ > 0) return;
      static const char32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
      bool valid = utf8_cp_ >= kMin[utf8_length_] && utf8_cp_ <= 0x10FFFF &&
                   (utf8_cp_ < 0xD800 || utf8_cp_ > 0xDFFF);
      screen_.WriteChar(valid ? utf8_cp_ : 0xFFFD);
      return;
    }
    utf8_missing_ = 0;  // cut short: the broken character shows as U+FFFD
    screen_.WriteChar(0xFFFD);
    if (b < 0x80) {
      screen_.WriteChar(b);
      return;
    }
  }
  if (b >= 0xC2 && b <= 0xF4) {
    utf8_length_ = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
    utf8_missing_ = utf8_length_ - 1;
    utf8_cp_ = b & (0x7F >> utf8_length_);
  } else {
    screen_.WriteChar(0xFFFD);
  }
}

// ---- controls and escape sequences -----------------------------------------

void Terminal::Execute(unsigned char control) {
  ++generation_;
  screen_.ForgetLastChar();
  switch (control) {
    case '\b': screen_.Backspace(); break;
    case '\t': screen_.Tab(); break;
    case '\n':
    case '\v':
    case '\f': screen_.LineFeed(); break;
    case '\r': screen_.CarriageReturn(); break;
    case 0x0e: screen_.SelectCharset(1); break;  // SO
    case 0x0f: screen_.SelectCharset(0); break;  // SI
    default: break;  // BEL and the rest: nothing to show
  }
}

void Terminal::Escape(char intermediate, char final) {
  ++generation_;
  utf8_missing_ = 0;
  screen_.ForgetLastChar();
  if (intermediate == '(' || intermediate == ')') {
    screen_.SetLineDrawing(intermediate == ')', final == '0');
    return;
  }
  if (intermediate == '#' && final == '8') {
    screen_.AlignmentTest();
    return;
  }
  if (intermediate != 0) return;
  switch (final) {
    case '7': screen_.SaveCursor(); break;
    case '8': screen_.RestoreCursor(); break;
    case 'D': screen_.Index(); break;
    case 'E': screen_.NextLine(); break;
    case 'M': screen_.ReverseIndex(); break;
    case 'H': screen_.SetTabStop(); break;
    case 'c': Reset(); break;
    case '=': app_keypad_ = true; break;
    case '>': app_keypad_ = false; break;
    default: break;
  }
}

void Terminal::Csi(const CsiSequence& csi) {
  ++generation_;
  utf8_missing_ = 0;
  if (csi.final == 'm' && csi.leader == 0 && csi.intermediate == 0) {
    SetGraphics(csi);  // the most common by far (colours between words): straight there
  } else if (!(csi.leader == 0 && csi.intermediate == 0 && (CsiCursor(csi) || CsiEdit(csi)))) {
    CsiReport(csi);
  }
  screen_.ForgetLastChar();  // REP repeats only a character printed just before it
}

// Cursor moves (no leader, no intermediate). False if `csi` is none.
bool Terminal::CsiCursor(const CsiSequence& csi) {
  int n = csi.Count(0);
  Cursor c = screen_.cursor();
  switch (csi.final) {
    case 'A': screen_.CursorUp(n); break;
    case 'B': screen_.CursorDown(n); break;
    case 'e': screen_.MoveTo(c.row + n, c.col); break;  // VPR ignores the margins, as in xterm
    case 'C': case 'a': screen_.MoveTo(c.row, c.col + n); break;
    case 'D': screen_.MoveTo(c.row, c.col - n); break;
    case 'E': screen_.CursorDown(n); screen_.CarriageReturn(); break;
    case 'F': screen_.CursorUp(n); screen_.CarriageReturn(); break;
    case 'G': case '`': screen_.MoveTo(c.row, n - 1); break;
    case 'H': case 'f': screen_.CursorTo(n - 1, csi.Count(1) - 1); break;
    case 'd': screen_.CursorTo(n - 1, c.col); break;
    case 'I': screen_.TabForward(n); break;  // like a tab: a pending wrap stays pending
    case 'Z': screen_.TabBack(n); break;
    default: return false;
  }
  return true;
}

// Edits and scrolls (no leader, no intermediate). False if `csi` is none.
bool Terminal::CsiEdit(const CsiSequence& csi) {
  int n = csi.Count(0);
  bool bare = csi.count == 1 && csi.params[0] == CsiSequence::kMissing;
  switch (csi.final) {
    case 'J': screen_.EraseInDisplay(csi.Param(0, 0)); break;
    case 'K': screen_.EraseInLine(csi.Param(0, 0)); break;
    case '@': screen_.InsertCells(n); break;
    case 'P': screen_.DeleteCells(n); break;
    case 'X': screen_.EraseCells(n); break;
    case 'L': screen_.InsertLines(n); break;
    case 'M': screen_.DeleteLines(n); break;
    case 'S': screen_.ScrollUp(n); break;
    case 'T': screen_.ScrollDown(n); break;
    case 'b': screen_.Repeat(n); break;  // REP
    case 'g':
      if (csi.Param(0, 0) == 0) screen_.ClearTabStop();
      else if (csi.Param(0, 0) == 3) screen_.ClearAllTabStops();
      break;
    case 'h': SetModes(csi, true); break;
    case 'l': SetModes(csi, false); break;
    case 'r': SetScrollRegion(csi); break;
    case 's': if (bare) screen_.SaveCursor(); break;
    case 'u': if (bare) screen_.RestoreCursor(); break;
    case 'm': SetGraphics(csi); break;
    default: return false;
  }
  return true;
}

// Queries, private modes and the rest.
void Terminal::CsiReport(const CsiSequence& csi) {
  char lead = csi.leader, mid = csi.intermediate;
  if (csi.final == 'h' || csi.final == 'l') {
    if (lead == '?' && mid == 0) {
      for (int i = 0; i < csi.count; ++i) {
        if (csi.params[i] != CsiSequence::kMissing) SetPrivateMode(csi.params[i], csi.final == 'h');
      }
    }
  } else if (csi.final == 'c' && mid == 0) {
    if (lead == 0 && csi.Param(0, 0) == 0) {
      ++da1_queries_;
      replies_ += "\x1b[?1;2c";  // a VT100 with advanced video
    } else if (lead == '>' && csi.Param(0, 0) == 0) {
      replies_ += "\x1b[>0;100;0c";
    }
  } else if (csi.final == 'n' && mid == 0 && (lead == 0 || lead == '?')) {
    const char* q = lead == '?' ? "?" : "";
    if (csi.Param(0, 0) == 5) replies_ += std::string("\x1b[") + q + "0n";
    if (csi.Param(0, 0) == 6) {
      replies_ += std::string("\x1b[") + q + CsiReply("%d;%dR", screen_.cursor().row + 1, screen_.cursor().col + 1);
    }
  } else if (csi.final == 'p' && mid == '$') {
    ReportMode(csi);
  } else if (csi.final == 'p' && mid == '!') {
    screen_.SoftReset();  // DECSTR, a soft reset
  } else if (csi.final == 'u' && lead == '?') {
    // The kitty keyboard protocol query: "not enabled", like a terminal
    // that knows the query, so programs stop waiting for an answer.
    replies_ += "\x1b[?0u";
  }
}

void Terminal::SetModes(const CsiSequence& csi, bool set) {
  for (int i = 0; i < csi.count; ++i) {
    if (csi.params[i] == 4) screen_.set_insert_mode(set);
    if (csi.params[i] == 20) screen_.set_newline_mode(set);
  }
}

void Terminal::SetPrivateMode(int mode, bool set) {
  switch (mode) {
    case 1: app_cursor_keys_ = set; break;
    case 6: screen_.SetOriginMode(set); break;
    case 7: screen_.SetAutowrap(set); break;
    case 3:  // DECCOLM: the width stays (no resize), but the screen is cleared and homed, as in tmux
      screen_.EraseInDisplay(2);
      screen_.CursorTo(0, 0);
      break;
    case 25: screen_.set_cursor_visible(set); break;
    case 47:
    case 1047: screen_.SwitchScreen(set); break;
    case 1048: set ? screen_.SaveCursor() : screen_.RestoreCursor(); break;
    case 1049:
      // The cursor is saved on the main screen and restored on return.
      if (set && !screen_.alt()) screen_.SaveCursor();
      screen_.SwitchScreen(set);
      if (!set) screen_.RestoreCursor();
      break;
    case 2004: bracketed_paste_ = set; break;
    case 2026:
      if (set && !synchronized_update_) ++synchronized_updates_;
      synchronized_update_ = set;
      break;
    case 12: case 1000: case 1002: case 1003: case 1004: case 1005: case 1006: case 1015:
      other_modes_[mode] = set;  // blinking cursor, mouse and focus reports
      break;
    default: break;
  }
}

// DECRQM: 1 set, 2 reset, 0 a mode this terminal does not know.
void Terminal::ReportMode(const CsiSequence& csi) {
  int mode = csi.Param(0, 0);
  int state = 0;
  if (csi.leader == '?') {
    switch (mode) {
      case 1: state = app_cursor_keys_; break;
      case 6: state = screen_.origin_mode(); break;
      case 7: state = screen_.autowrap(); break;
      case 25: state = screen_.cursor().visible; break;
      case 47: case 1047: case 1049: state = screen_.alt(); break;
      case 2004: state = bracketed_paste_; break;
      case 12: case 1000: case 1002: case 1003: case 1004: case 1005: case 1006: case 1015:
        state = other_modes_[mode];
        break;
      default: state = -1; break;
    }
  } else {
    state = mode == 4 ? screen_.insert_mode() : mode == 20 ? screen_.newline_mode() : -1;
  }
  int answer = state < 0 ? 0 : state ? 1 : 2;
  replies_ += std::string("\x1b[") + (csi.leader == '?' ? "?" : "") + CsiReply("%d;%d$y", mode, answer);
}

void Terminal::SetScrollRegion(const CsiSequence& csi) {
  int rows = screen_.rows();
  int bottom = csi.Param(1, rows);
  screen_.SetRegion(csi.Count(0) - 1, bottom == 0 ? rows : bottom);
}

// SGR, as tmux reads it: 16, 256 and RGB colours, with ';' or ':'.
void Terminal::SetGraphics(const CsiSequence& csi) {
  GridCell& pen = screen_.pen();
  for (int i = 0; i < csi.count; ++i) {
    int p = csi.Param(i, 0);
    int next = i + 1;  // the sub-parameters (after ':') belong to this one
    while (next < csi.count && (csi.colons >> next) & 1) ++next;
    static const uint16_t kSet[10] = {0, kBold, kDim, kItalic, kUnderline, kBlink, kBlink, kReverse, kInvisible, kStrike};
    if (p == 0) {
      pen = GridCell();
    } else if (p == 4 && next > i + 1) {  // 4:0 off, 4:1-5 the underline styles
      if (csi.Param(i + 1, 0) == 0) pen.attrs &= static_cast<uint16_t>(~kUnderline);
      else pen.attrs |= kUnderline;
    } else if (p < 10) {
      pen.attrs |= kSet[p];
    } else if (p == 21) {
      pen.attrs |= kUnderline;
    } else if (p == 22) {
      pen.attrs &= static_cast<uint16_t>(~(kBold | kDim));
    } else if (p >= 23 && p <= 29 && p != 26) {
      pen.attrs &= static_cast<uint16_t>(~kSet[p - 20]);
    } else if (p >= 30 && p <= 37) {
      pen.fg = kPaletteColour | static_cast<uint32_t>(p - 30);
    } else if (p >= 40 && p <= 47) {
      pen.bg = kPaletteColour | static_cast<uint32_t>(p - 40);
    } else if (p >= 90 && p <= 97) {
      pen.fg = kPaletteColour | static_cast<uint32_t>(p - 90 + 8);
    } else if (p >= 100 && p <= 107) {
      pen.bg = kPaletteColour | static_cast<uint32_t>(p - 100 + 8);
    } else if (p == 39) {
      pen.fg = 0;
    } else if (p == 49) {
      pen.bg = 0;
    } else if (p == 38 || p == 48) {
      next = ExtendedColour(csi, i, p == 38 ? &pen.fg : &pen.bg);
    }
    i = next - 1;
  }
}

// 38/48 at parameter i: 5;n, 2;r;g;b, or with ':' 5:n, 2:r:g:b, 2:cs:r:g:b.
// Returns the index of the parameter after it; a bad colour changes nothing.
int Terminal::ExtendedColour(const CsiSequence& csi, int i, uint32_t* colour) {
  int kind = csi.Param(i + 1, -1);
  bool colon = i + 1 < csi.count && (csi.colons >> (i + 1)) & 1;
  int end = i + 1;
  while (end < csi.count && (csi.colons >> end) & 1) ++end;
  int first = i + 2;  // the colour's values
  if (colon && kind == 2 && end - i >= 6) first = i + 3;  // a colour space id comes first
  if (!colon) end = kind == 5 ? i + 3 : kind == 2 ? i + 5 : i + 2;
  if (kind == 5) {
    int n = csi.Param(first, -1);
    if (n >= 0 && n <= 255 && first < csi.count) *colour = kPaletteColour | static_cast<uint32_t>(n);
  } else if (kind == 2 && first + 2 < csi.count) {
    uint32_t rgb = 0;
    for (int k = 0; k < 3; ++k) {
      int v = csi.Param(first + k, 0);
      // As tmux: a bad colour is skipped as "38;2" only, the rest read as SGR.
      if (v > 255) return colon ? std::min(end, csi.count) : i + 2;
      rgb = rgb << 8 | static_cast<uint32_t>(v);
    }
    *colour = kRgbColour | rgb;
  }
  return std::min(end, csi.count);
}

void Terminal::Osc(const std::string& payload) {
  ++generation_;
  utf8_missing_ = 0;
  screen_.ForgetLastChar();
  size_t semi = payload.find(';');
  if (semi == std::string::npos || semi == 0) return;
  int number = 0;
  for (size_t i = 0; i < semi; ++i) {
    if (payload[i] < '0' || payload[i] > '9' || number > 100000) return;
    number = number * 10 + (payload[i] - '0');
  }
  std::string value = payload.substr(semi + 1);
  if (number == 0 || number == 2) {
    title_ = SanitizeUtf8(value);
  } else if (number == 1) {
    // the icon name: not shown anywhere
  } else if ((number == 10 || number == 11) && value == "?") {
    // Colour queries: a dark background, light text, as most terminals.
    replies_ += number == 10 ? "\x1b]10;rgb:e5e5/e5e5/e5e5\x1b\\" : "\x1b]11;rgb:0000/0000/0000\x1b\\";
  } else {
    osc_[number] = SanitizeUtf8(value);
    osc_frame_[number] = synchronized_updates_;
    screen_.KeepPlace(number);
  }
}

// DECRQSS (DCS $ q setting ST) is the only DCS answered.
void Terminal::Dcs(const std::string& payload) {
  utf8_missing_ = 0;
  screen_.ForgetLastChar();
  if (payload.compare(0, 2, "$q") != 0) return;
  std::string setting = payload.substr(2);
  std::string answer;
  if (setting == "m") answer = "0m";
  else if (setting == "r") answer = CsiReply("%d;%dr", screen_.region_top() + 1, screen_.region_bottom());
  else if (setting == " q") answer = "1 q";
  else if (setting == "\"q") answer = "2\"q";
  replies_ += answer.empty() ? std::string("\x1bP0$r\x1b\\") : "\x1bP1$r" + answer + "\x1b\\";
}

std::string Terminal::osc(int number) const {
  auto it = osc_.find(number);
  return it == osc_.end() ? std::string() : it->second;
}

uint64_t Terminal::osc_frame(int number) const {
  auto it = osc_frame_.find(number);
  return it == osc_frame_.end() ? 0 : it->second;
}

// RIS: a full reset. The history stays.
void Terminal::Reset() {
  screen_.Reset();
  bracketed_paste_ = app_cursor_keys_ = app_keypad_ = synchronized_update_ = false;
  other_modes_.clear();
}

std::vector<std::string> Terminal::ScreenLines() const {
  std::vector<std::string> lines;
  lines.reserve(static_cast<size_t>(screen_.rows()));
  for (int r = 0; r < screen_.rows(); ++r) lines.push_back(screen_.grid().RowText(r));
  return lines;
}

void Terminal::Resize(int cols, int rows) {
  if (screen_.Resize(cols, rows)) ++generation_;
}

}  // namespace tuidriver
