#include "terminal.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "swar.h"
#include "utf8.h"

namespace tuidriver {

namespace {

// DEC special graphics (ESC ( 0), as xterm maps it: 0x5f..0x7e ('_' is a
// blank, as in xterm's charsets.c).
const char32_t kLineDrawing[32] = {
    0x0020, 0x25c6, 0x2592, 0x2409, 0x240c, 0x240d, 0x240a, 0x00b0,  // _ ` a b c d e f
    0x00b1, 0x2424, 0x240b, 0x2518, 0x2510, 0x250c, 0x2514, 0x253c,  // g h i j k l m n
    0x23ba, 0x23bb, 0x2500, 0x23bc, 0x23bd, 0x251c, 0x2524, 0x2534,  // o p q r s t u v
    0x252c, 0x2502, 0x2264, 0x2265, 0x03c0, 0x2260, 0x00a3, 0x00b7,  // w x y z { | } ~
};

// Bytes of `cp` in UTF-8.
size_t Utf8Length(char32_t cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }

std::string CsiReply(const char* fmt, int a, int b = 0) {
  char buf[48];
  int n = snprintf(buf, sizeof buf, fmt, a, b);
  return std::string(buf, static_cast<size_t>(n));
}

}  // namespace

Terminal::Terminal(int cols, int rows, size_t scrollback_limit)
    : parser_(this), cols_(cols), rows_(rows), bottom_(rows), scrollback_limit_(scrollback_limit) {
  CutBuffer(&main_, cols, rows, nullptr);
  CutBuffer(&alt_, cols, rows, nullptr);
  tab_stops_.assign(static_cast<size_t>(cols), false);
  for (int c = 0; c < cols; c += 8) tab_stops_[static_cast<size_t>(c)] = true;
}

Terminal::~Terminal() = default;

void Terminal::Feed(const char* data, size_t len) { parser_.Feed(data, len); }

std::string Terminal::TakeReplies() {
  std::string out;
  out.swap(replies_);
  return out;
}

// ---- text ------------------------------------------------------------------

void Terminal::Print(const unsigned char* text, size_t len) {
  ++generation_;
  const unsigned char* p = text;
  const unsigned char* end = text + len;
  while (p < end) {
    if (utf8_missing_ > 0) {
      DecodeUtf8Byte(*p++);
    } else if (graphics_[shift_] || insert_mode_ || joining_) {
      // Modes that change what a character does: one at a time.
      unsigned char b = *p++;
      if (b < 0x80) PrintCodePoint(b);
      else DecodeUtf8Byte(b);
    } else {
      p = PrintRun(p, end);
    }
  }
}

namespace {

// The character at `p` if it is whole and valid UTF-8 (as DecodeUtf8Byte
// judges): its code point, and its length as the result; 0 if it is cut by
// `end` or invalid, for DecodeUtf8Byte to take a byte at a time.
inline size_t DecodeWhole(const unsigned char* p, const unsigned char* end, char32_t* cp) {
  unsigned char b = p[0];
  if (b < 0x80) {
    *cp = b;
    return 1;
  }
  if (b < 0xC2 || b > 0xF4) return 0;
  size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
  if (static_cast<size_t>(end - p) < n) return 0;
  char32_t v = b & (0x7F >> n);
  for (size_t i = 1; i < n; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    v = (v << 6) | (p[i] & 0x3F);
  }
  static const char32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < kMin[n] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return n;
}

// Columns of a character a run can write as it is: 1 or 2; 0 for one that
// needs PrintCodePoint (a C1 control, a mark, a joiner).
inline int RunWidth(char32_t cp) {
  if (cp < 0x80) return 1;
  if (cp < 0xA0) return 0;  // C1
  int width = CharWidth(cp);
  return width == 1 || width == 2 ? width : 0;
}

}  // namespace

// The fast path: text written straight into the cursor's row, up to the
// margin or the first character that needs more (see RunWidth, DecodeWhole),
// which goes alone through PrintCodePoint or the decoder. What a character
// at a time would do at each cell is done once at the run's edges: its
// start may split a wide character, its end may leave a stray right half.
// Returns where it stopped; it always takes at least one byte.
const unsigned char* Terminal::PrintRun(const unsigned char* p, const unsigned char* end) {
  char32_t cp;
  size_t bytes = DecodeWhole(p, end, &cp);
  if (bytes == 0) {
    DecodeUtf8Byte(*p);
    return p + 1;
  }
  int width = RunWidth(cp);
  if (width == 0 || (wrap_next_ ? 0 : cursor_.col) + width > cols_) {
    PrintCodePoint(cp);  // wraps or drops a wide character at the margin
    return p + bytes;
  }
  if (wrap_next_) WrapToNextLine();
  Line& line = ScreenLine(cursor_.row);
  int col = cursor_.col;
  if (line.cells[static_cast<size_t>(col)].kind == kWideRight) SplitWideAt(&line, col);
  Cell* cells = line.cells.data();
  const Cell pen = pen_;  // a copy: the cells written cannot alias it
  char32_t last = 0;
  for (;;) {
    if (width == 1 && cp < 0x80) {
      // ASCII, most of the text: the bytes up to the margin or the next other byte.
      size_t n = std::min(static_cast<size_t>(end - p), static_cast<size_t>(cols_ - col));
      size_t ascii = 1 + swar::AsciiPrefix(p + 1, n - 1);
      FillAscii(cells + col, p, ascii, pen);
      last = p[ascii - 1];
      p += ascii;
      col += static_cast<int>(ascii);
    } else {
      Cell& cell = cells[static_cast<size_t>(col)];
      cell = pen;
      cell.ch = cp;
      if (width == 2) {
        cell.kind = kWideLeft;
        cells[static_cast<size_t>(col) + 1] = pen;
        cells[static_cast<size_t>(col) + 1].kind = kWideRight;
      }
      last = 0;
      p += bytes;
      col += width;
    }
    if (col >= cols_ || p == end) break;
    bytes = DecodeWhole(p, end, &cp);
    if (bytes == 0) break;
    width = RunWidth(cp);
    if (width == 0 || col + width > cols_) break;
  }
  ClearPaddingAfter(&line, col);
  last_char_ = last;
  line.used = std::max(line.used, col);
  Touch(&line, col);
  if (col >= cols_) {
    cursor_.col = cols_ - 1;
    wrap_next_ = autowrap_;
  } else {
    cursor_.col = col;
  }
  return p;
}

// A cell is written as two words, the character in the low half of the
// first (words are little-endian, swar.h): the pen then stays in registers
// instead of being copied field by field for every character.
void Terminal::FillAscii(Cell* cells, const unsigned char* text, size_t n, const Cell& pen) {
  static_assert(offsetof(Cell, ch) == 0 && sizeof(Cell::ch) == 4, "the character is the low half of word 0");
  uint64_t style[2];
  memcpy(style, &pen, sizeof style);
  style[0] &= ~uint64_t{0xFFFFFFFF};
  for (size_t i = 0; i < n; ++i) {
    uint64_t cell[2] = {style[0] | text[i], style[1]};
    memcpy(static_cast<void*>(cells + i), cell, sizeof cell);
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
      PrintCodePoint(valid ? utf8_cp_ : 0xFFFD);
      return;
    }
    utf8_missing_ = 0;  // cut short: the broken character shows as U+FFFD
    PrintCodePoint(0xFFFD);
    if (b < 0x80) {
      PrintCodePoint(b);
      return;
    }
  }
  if (b >= 0xC2 && b <= 0xF4) {
    utf8_length_ = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
    utf8_missing_ = utf8_length_ - 1;
    utf8_cp_ = b & (0x7F >> utf8_length_);
  } else {
    PrintCodePoint(0xFFFD);
  }
}

void Terminal::PrintCodePoint(char32_t cp) {
  if (cp >= 0x80 && cp < 0xA0) return;  // C1 controls sent as UTF-8: not text
  char32_t ascii = cp < 0x80 ? cp : 0;
  last_char_ = 0;
  if (graphics_[shift_] && cp >= 0x5f && cp <= 0x7e) cp = kLineDrawing[cp - 0x5f];
  // As tmux 3.3: a zero-width joiner joins the next character, whatever its
  // width, to the cell before (an emoji sequence takes one cell).
  if (cp == 0x200D) {
    joining_ = true;
    return;
  }
  if (joining_) {
    joining_ = false;
    AddCombining(0x200D);
    AddCombining(cp);
    return;
  }
  int width = cp < 0x80 ? 1 : CharWidth(cp);
  if (width == 0) {
    AddCombining(cp);
    return;
  }
  if (wrap_next_) WrapToNextLine();
  if (width == 2 && cursor_.col == cols_ - 1) {
    if (!autowrap_ || cols_ < 2) return;  // it cannot be shown
    WrapToNextLine();
  }
  if (insert_mode_) InsertCells(width);
  Line& line = ScreenLine(cursor_.row);
  int col = cursor_.col;
  if (line.cells[static_cast<size_t>(col)].kind == kWideRight) SplitWideAt(&line, col);
  ClearPaddingAfter(&line, col + width);
  Cell& cell = line.cells[static_cast<size_t>(col)];
  cell = pen_;
  cell.ch = cp;
  if (width == 2) {
    cell.kind = kWideLeft;
    Cell& right = line.cells[static_cast<size_t>(col + 1)];
    right = pen_;
    right.kind = kWideRight;
  }
  last_char_ = ascii;
  line.used = std::max(line.used, col + width);
  Touch(&line, col + width);
  if (col + width >= cols_) {
    cursor_.col = cols_ - 1;
    wrap_next_ = autowrap_;
  } else {
    cursor_.col = col + width;
  }
}

// A combining mark joins the cell before the cursor, blank or not, while
// the cell's UTF-8 stays within tmux's limit; past it, marks are dropped.
void Terminal::AddCombining(char32_t cp) {
  int col = wrap_next_ ? cursor_.col : cursor_.col - 1;
  if (col < 0) return;
  Line& line = ScreenLine(cursor_.row);
  if (line.cells[static_cast<size_t>(col)].kind == kWideRight) {
    if (col == 0) return;
    --col;
  }
  Cell& cell = line.cells[static_cast<size_t>(col)];
  size_t bytes = Utf8Length(cell.ch) + Utf8Length(cp);
  if (cell.marks != 0) {
    for (char32_t m : line.marks[cell.marks - 1]) bytes += Utf8Length(m);
  }
  if (bytes > kMaxClusterBytes) return;
  if (cell.marks == 0) {
    // Overwritten cells leave their marks behind: drop them now and then.
    if (line.marks.size() >= line.cells.size() * 2 + 16) CompactMarks(&line);
    line.marks.emplace_back();
    cell.marks = static_cast<uint16_t>(line.marks.size());
  }
  line.marks[cell.marks - 1].push_back(cp);
  line.used = std::max(line.used, col + 1);
  Touch(&line, col + 1);
  ++generation_;
}

void Terminal::CompactMarks(Line* line) {
  std::vector<std::u32string> kept;
  for (Cell& cell : line->cells) {
    if (cell.marks == 0) continue;
    kept.push_back(std::move(line->marks[cell.marks - 1]));
    cell.marks = static_cast<uint16_t>(kept.size());
  }
  line->marks = std::move(kept);
}

void Terminal::WrapToNextLine() {
  ScreenLine(cursor_.row).wrapped = true;
  wrap_next_ = false;
  cursor_.col = 0;
  Index(0);  // as tmux: a wrap scrolls in a default row, a line feed a BCE one
}

// ---- controls and escape sequences -----------------------------------------

void Terminal::Execute(unsigned char control) {
  ++generation_;
  last_char_ = 0;
  switch (control) {
    case '\b':
      if (wrap_next_) wrap_next_ = false;  // as tmux: back onto the last column
      else if (cursor_.col > 0) --cursor_.col;
      break;
    case '\t': {
      int from = cursor_.col;
      Tab(1);
      MarkTab(from, cursor_.col);
      break;
    }
    case '\n':
    case '\v':
    case '\f':
      wrap_next_ = false;
      Index(pen_.bg);
      if (newline_mode_) cursor_.col = 0;
      break;
    case '\r':
      wrap_next_ = false;
      cursor_.col = 0;
      break;
    case 0x0e:  // SO
      shift_ = 1;
      break;
    case 0x0f:  // SI
      shift_ = 0;
      break;
    default:  // BEL and the rest: nothing to show
      break;
  }
}

void Terminal::Escape(char intermediate, char final) {
  ++generation_;
  utf8_missing_ = 0;
  last_char_ = 0;
  if (intermediate == '(' || intermediate == ')') {
    graphics_[intermediate == ')'] = final == '0';
    return;
  }
  if (intermediate == '#' && final == '8') {
    ScreenAlignment();
    return;
  }
  if (intermediate != 0) return;
  switch (final) {
    case '7': SaveCursor(); break;
    case '8': RestoreCursor(); break;
    case 'D': wrap_next_ = false; Index(pen_.bg); break;
    case 'E': wrap_next_ = false; cursor_.col = 0; Index(pen_.bg); break;
    case 'M': wrap_next_ = false; ReverseIndex(); break;
    case 'H': tab_stops_[static_cast<size_t>(cursor_.col)] = true; break;
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
  last_char_ = 0;  // REP repeats only a character printed just before it
}

// Cursor moves (no leader, no intermediate). False if `csi` is none.
bool Terminal::CsiCursor(const CsiSequence& csi) {
  int n = csi.Count(0);
  int row = cursor_.row, col = cursor_.col;
  // Vertical moves stop at the scroll region's edges when they start inside
  // it; VPR (CSI e) ignores the margins, as in xterm.
  int up_limit = row >= top_ ? top_ : 0;
  int down_limit = row < bottom_ ? bottom_ - 1 : rows_ - 1;
  int origin_row = origin_mode_ ? top_ : 0;
  switch (csi.final) {
    case 'A': MoveTo(std::max(row - n, up_limit), col); break;
    case 'B': MoveTo(std::min(row + n, down_limit), col); break;
    case 'e': MoveTo(row + n, col); break;
    case 'C': case 'a': MoveTo(row, col + n); break;
    case 'D': MoveTo(row, col - n); break;
    case 'E': MoveTo(std::min(row + n, down_limit), 0); break;
    case 'F': MoveTo(std::max(row - n, up_limit), 0); break;
    case 'G': case '`': MoveTo(row, csi.Count(0) - 1); break;
    case 'H': case 'f': {
      int r = origin_row + csi.Count(0) - 1;
      MoveTo(origin_mode_ ? std::min(r, bottom_ - 1) : r, csi.Count(1) - 1);
      break;
    }
    case 'd': {
      int r = origin_row + csi.Count(0) - 1;
      MoveTo(origin_mode_ ? std::min(r, bottom_ - 1) : r, col);
      break;
    }
    case 'I': Tab(n); break;  // like a tab: a pending wrap stays pending
    case 'Z': wrap_next_ = false; BackTab(n); break;
    default: return false;
  }
  return true;
}

// Edits and scrolls (no leader, no intermediate). False if `csi` is none.
bool Terminal::CsiEdit(const CsiSequence& csi) {
  int n = csi.Count(0);
  switch (csi.final) {
    case 'J': EraseInDisplay(csi.Param(0, 0)); break;
    case 'K': EraseInLine(csi.Param(0, 0)); break;
    case '@': InsertCells(n); break;
    case 'P': DeleteCells(n); break;
    case 'X':  // cells are erased one by one, wide halves too (as tmux)
      BlankCells(&ScreenLine(cursor_.row), cursor_.col, std::min(cols_, cursor_.col + n), pen_.bg);
      wrap_next_ = false;
      break;
    case 'L':
    case 'M':
      // Lines are inserted or deleted only inside the scroll region.
      if (cursor_.row >= top_ && cursor_.row < bottom_) {
        ScrollRows(cursor_.row, bottom_, csi.final == 'M' ? n : -n, false, pen_.bg);
        cursor_.col = 0;
        wrap_next_ = false;
      }
      break;
    case 'S': ScrollRows(top_, bottom_, n, !alt_screen_ && top_ == 0, pen_.bg); break;
    case 'T': ScrollRows(top_, bottom_, -n, false, pen_.bg); break;
    case 'b': {  // REP: as tmux, up to the right margin, never past it
      int times = std::min(n, wrap_next_ ? 0 : cols_ - cursor_.col);
      char32_t ch = last_char_;
      for (int i = 0; ch != 0 && i < times; ++i) PrintCodePoint(ch);
      break;
    }
    case 'g':
      if (csi.Param(0, 0) == 0) tab_stops_[static_cast<size_t>(cursor_.col)] = false;
      else if (csi.Param(0, 0) == 3) std::fill(tab_stops_.begin(), tab_stops_.end(), false);
      break;
    case 'h': SetModes(csi, true); break;
    case 'l': SetModes(csi, false); break;
    case 'r': SetScrollRegion(csi); break;
    case 's': if (csi.count == 1 && csi.params[0] == CsiSequence::kMissing) SaveCursor(); break;
    case 'u': if (csi.count == 1 && csi.params[0] == CsiSequence::kMissing) RestoreCursor(); break;
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
      replies_ += std::string("\x1b[") + q + CsiReply("%d;%dR", cursor_.row + 1, cursor_.col + 1);
    }
  } else if (csi.final == 'p' && mid == '$') {
    ReportMode(csi);
  } else if (csi.final == 'p' && mid == '!') {
    ResetModes();  // DECSTR, a soft reset
  } else if (csi.final == 'u' && lead == '?') {
    // The kitty keyboard protocol query: "not enabled", like a terminal
    // that knows the query, so programs stop waiting for an answer.
    replies_ += "\x1b[?0u";
  }
}

void Terminal::SetModes(const CsiSequence& csi, bool set) {
  for (int i = 0; i < csi.count; ++i) {
    if (csi.params[i] == 4) insert_mode_ = set;
    if (csi.params[i] == 20) newline_mode_ = set;
  }
}

void Terminal::SetPrivateMode(int mode, bool set) {
  switch (mode) {
    case 1: app_cursor_keys_ = set; break;
    case 6:
      origin_mode_ = set;
      MoveTo(origin_mode_ ? top_ : 0, 0);
      break;
    case 7:
      autowrap_ = set;
      if (!set) wrap_next_ = false;
      break;
    case 3:  // DECCOLM: the width stays (no resize), but the screen is cleared and homed, as in tmux
      EraseInDisplay(2);
      MoveTo(origin_mode_ ? top_ : 0, 0);
      break;
    case 25: cursor_.visible = set; break;
    case 47:
    case 1047: SwitchScreen(set); break;
    case 1048: set ? SaveCursor() : RestoreCursor(); break;
    case 1049:
      // The cursor is saved on the main screen and restored on return.
      if (set && !alt_screen_) SaveCursor();
      SwitchScreen(set);
      if (!set) RestoreCursor();
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
      case 6: state = origin_mode_; break;
      case 7: state = autowrap_; break;
      case 25: state = cursor_.visible; break;
      case 47: case 1047: case 1049: state = alt_screen_; break;
      case 2004: state = bracketed_paste_; break;
      case 12: case 1000: case 1002: case 1003: case 1004: case 1005: case 1006: case 1015:
        state = other_modes_[mode];
        break;
      default: state = -1; break;
    }
  } else {
    state = mode == 4 ? insert_mode_ : mode == 20 ? newline_mode_ : -1;
  }
  int answer = state < 0 ? 0 : state ? 1 : 2;
  replies_ += std::string("\x1b[") + (csi.leader == '?' ? "?" : "") + CsiReply("%d;%d$y", mode, answer);
}

void Terminal::SetScrollRegion(const CsiSequence& csi) {
  int top = csi.Count(0) - 1;
  int bottom = std::min(csi.Param(1, rows_) == 0 ? rows_ : csi.Param(1, rows_), rows_);
  if (top + 1 >= bottom) return;  // two rows at least, as xterm
  top_ = top;
  bottom_ = bottom;
  MoveTo(origin_mode_ ? top_ : 0, 0);
}

// SGR, as tmux reads it: 16, 256 and RGB colours, with ';' or ':'.
void Terminal::SetGraphics(const CsiSequence& csi) {
  Cell& pen = pen_;
  for (int i = 0; i < csi.count; ++i) {
    int p = csi.Param(i, 0);
    int next = i + 1;  // the sub-parameters (after ':') belong to this one
    while (next < csi.count && (csi.colons >> next) & 1) ++next;
    static const uint16_t kSet[10] = {0, kBold, kDim, kItalic, kUnderline, kBlink, kBlink, kReverse, kInvisible, kStrike};
    if (p == 0) {
      pen = Cell();
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
  last_char_ = 0;
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
    // A pending wrap puts the next character on the next row: the mark is there.
    bool next_row = wrap_next_ && autowrap_;
    osc_place_[number] = {lines_scrolled_ + static_cast<uint64_t>(cursor_.row + (next_row ? 1 : 0)),
                          next_row ? 0 : cursor_.col, alt_screen_, true};
  }
}

// DECRQSS (DCS $ q setting ST) is the only DCS answered.
void Terminal::Dcs(const std::string& payload) {
  utf8_missing_ = 0;
  last_char_ = 0;
  if (payload.compare(0, 2, "$q") != 0) return;
  std::string setting = payload.substr(2);
  std::string answer;
  if (setting == "m") answer = "0m";
  else if (setting == "r") answer = CsiReply("%d;%dr", top_ + 1, bottom_);
  else if (setting == " q") answer = "1 q";
  else if (setting == "\"q") answer = "2\"q";
  replies_ += answer.empty() ? std::string("\x1bP0$r\x1b\\") : "\x1bP1$r" + answer + "\x1b\\";
}

std::string Terminal::osc(int number) const {
  auto it = osc_.find(number);
  return it == osc_.end() ? std::string() : it->second;
}

Terminal::OscPlace Terminal::osc_place(int number) const {
  auto it = osc_place_.find(number);
  return it == osc_place_.end() ? OscPlace() : it->second;
}

void Terminal::ForgetOscPlaces(int from_row, int from_col, int to_row, int to_col) {
  uint64_t top = lines_scrolled_;
  auto before = [](uint64_t r1, int c1, uint64_t r2, int c2) { return r1 < r2 || (r1 == r2 && c1 < c2); };
  for (auto& kv : osc_place_) {
    OscPlace& p = kv.second;
    if (p.alt != alt_screen_ || !p.held) continue;
    if (!before(p.row, p.col, top + static_cast<uint64_t>(from_row), from_col) &&
        before(p.row, p.col, top + static_cast<uint64_t>(to_row), to_col)) {
      p.held = false;
    }
  }
}

uint64_t Terminal::osc_frame(int number) const {
  auto it = osc_frame_.find(number);
  return it == osc_frame_.end() ? 0 : it->second;
}

// ---- cursor and screen operations ------------------------------------------

void Terminal::MoveTo(int row, int col) {
  cursor_.row = std::clamp(row, 0, rows_ - 1);
  cursor_.col = std::clamp(col, 0, cols_ - 1);
  wrap_next_ = false;
}

void Terminal::Index(uint32_t bg) {
  if (cursor_.row == bottom_ - 1) ScrollRows(top_, bottom_, 1, !alt_screen_ && top_ == 0, bg);
  else if (cursor_.row < rows_ - 1) ++cursor_.row;
}

void Terminal::ReverseIndex() {
  if (cursor_.row == top_) ScrollRows(top_, bottom_, -1, false, pen_.bg);
  else if (cursor_.row > 0) --cursor_.row;
}

void Terminal::Tab(int count) {
  int col = cursor_.col;
  while (count-- > 0) {
    do ++col;
    while (col < cols_ - 1 && !tab_stops_[static_cast<size_t>(col)]);
    if (col >= cols_ - 1) break;
  }
  cursor_.col = std::min(col, cols_ - 1);
}

// Cells [from, to) a TAB moved over, if all blank.
void Terminal::MarkTab(int from, int to) {
  if (to <= from) return;
  Line& line = ScreenLine(cursor_.row);
  for (int c = from; c < to; ++c) {
    const Cell& cell = line.cells[static_cast<size_t>(c)];
    if ((cell.ch != 0 && cell.ch != ' ') || cell.marks != 0 || (cell.kind != kNarrow && cell.kind != kTabSkip)) {
      return;
    }
  }
  for (int c = from; c < to; ++c) line.cells[static_cast<size_t>(c)].kind = c == from ? kTab : kTabSkip;
  Touch(&line, to);
}

void Terminal::BackTab(int count) {
  int col = cursor_.col;
  while (count-- > 0 && col > 0) {
    do --col;
    while (col > 0 && !tab_stops_[static_cast<size_t>(col)]);
  }
  cursor_.col = col;
}

void Terminal::SaveCursor() {
  SavedCursor& s = saved_[alt_screen_];
  s.row = cursor_.row;
  s.col = cursor_.col;
  s.wrap_next = wrap_next_;
  s.origin_mode = origin_mode_;
  s.graphics[0] = graphics_[0];
  s.graphics[1] = graphics_[1];
  s.shift = shift_;
  s.pen = pen_;
}

// A cursor saved before the screen shrank comes back onto the screen. A
// wrap pending when it was saved is not (tmux 3.3 and xterm.js, VS Code's
// terminal: the next character overwrites the last column; X11 xterm 379
// and DEC's VT220 and later restore it).
void Terminal::RestoreCursor() {
  const SavedCursor& s = saved_[alt_screen_];
  MoveTo(s.row, s.col);
  origin_mode_ = s.origin_mode;
  graphics_[0] = s.graphics[0];
  graphics_[1] = s.graphics[1];
  shift_ = s.shift;
  pen_ = s.pen;
}

// The alternate screen starts blank each time, as in tmux.
void Terminal::SwitchScreen(bool alt) {
  if (alt == alt_screen_) return;
  if (!alt) {
    for (auto& kv : osc_place_) kv.second.held &= !kv.second.alt;  // that screen is gone
  }
  alt_screen_ = alt;
  screen_ = alt ? &alt_ : &main_;
  if (alt) BlankRows(0, rows_);
  // A pending wrap stays pending across the switch, as in tmux and xterm.
}

// Erases keep a pending wrap, as EL does (below).
void Terminal::EraseInDisplay(int how) {
  if (how == 0) {
    EraseInLine(0);
    BlankRows(cursor_.row + 1, rows_, pen_.bg);
  } else if (how == 1) {
    BlankRows(0, cursor_.row, pen_.bg);
    EraseInLine(1);
  } else if (how == 2) {
    BlankRows(0, rows_, pen_.bg);
  }
  // 3 (erase the scrollback) keeps the history: replies may still be read from it.
  if (how == 0) ForgetOscPlaces(cursor_.row, cursor_.col, rows_, 0);
  else if (how == 1) ForgetOscPlaces(0, 0, cursor_.row, cursor_.col + 1);
  else if (how == 2) ForgetOscPlaces(0, 0, rows_, 0);
}

// With a wrap pending the cursor is past the last column, as tmux and
// xterm.js keep it: EL 0 erases nothing, EL 1 the whole row, and the wrap
// stays pending (the next character starts the next row). X11 xterm and
// the Linux console cancel the wrap and erase the last column: GNU grep's
// colours end a match with ESC[K, and a match ending in the last column
// would lose its last character.
void Terminal::EraseInLine(int how) {
  if (how > 2) return;
  Line& line = ScreenLine(cursor_.row);
  int col = wrap_next_ ? cols_ : cursor_.col;
  int from = how == 0 ? col : 0;
  int to = how == 1 ? std::min(col + 1, cols_) : cols_;
  if (from >= to) return;
  BlankCells(&line, from, to, pen_.bg);  // a wide character's other half stays, as in tmux
  if (to == cols_) line.wrapped = false;
  ForgetOscPlaces(cursor_.row, from, cursor_.row, to);
}

// ICH and DCH move cells as they are: a wide character's halves may part,
// and a lone half stays (the left one still shows its character), as in tmux.
void Terminal::InsertCells(int count) {
  Line& line = ScreenLine(cursor_.row);
  int col = cursor_.col;
  int n = std::min(count, cols_ - col);
  std::copy_backward(line.cells.begin() + col, line.cells.end() - n, line.cells.end());
  if (line.extent > col) line.extent = std::min(cols_, line.extent + n);
  BlankCells(&line, col, col + n, pen_.bg);
  if (line.used > col) line.used = std::min(cols_, line.used + n);
  wrap_next_ = false;
}

void Terminal::DeleteCells(int count) {
  Line& line = ScreenLine(cursor_.row);
  int col = cursor_.col;
  int n = std::min(count, cols_ - col);
  std::copy(line.cells.begin() + col + n, line.cells.end(), line.cells.begin() + col);
  BlankCells(&line, cols_ - n, cols_, pen_.bg);
  wrap_next_ = false;
}

// Scrolls rows [top, bottom) up by `up` rows (down if negative) by rotating
// row indices; rows that leave the top go to the history if `to_history`.
void Terminal::ScrollRows(int top, int bottom, int up, bool to_history, uint32_t bg) {
  int height = bottom - top;
  if (height <= 0 || up == 0) return;
  int n = std::min(std::abs(up), height);
  if (up > 0 && to_history) {
    for (int r = top; r < top + n; ++r) PushHistory(ScreenLine(r));
    TrimHistory();
  }
  auto first = screen_->order.begin() + top;
  auto last = screen_->order.begin() + bottom;
  if (up > 0) {
    std::rotate(first, first + n, last);
    BlankRows(bottom - n, bottom, bg);
  } else {
    std::rotate(first, last - n, last);
    BlankRows(top, top + n, bg);
  }
}

void Terminal::ScreenAlignment() {
  for (int r = 0; r < rows_; ++r) {
    Line& line = ScreenLine(r);
    for (Cell& cell : line.cells) {
      cell = Cell();
      cell.ch = 'E';
    }
    line.marks.clear();
    line.wrapped = false;
    line.used = cols_;
    line.extent = cols_;
  }
  top_ = 0;
  bottom_ = rows_;
  origin_mode_ = false;
  MoveTo(0, 0);
}

// RIS: a full reset. The history stays.
void Terminal::Reset() {
  SwitchScreen(false);
  BlankRows(0, rows_);
  ResetModes();
  saved_[0] = saved_[1] = SavedCursor();
  std::fill(tab_stops_.begin(), tab_stops_.end(), false);
  for (int c = 0; c < cols_; c += 8) tab_stops_[static_cast<size_t>(c)] = true;
  MoveTo(0, 0);
  bracketed_paste_ = app_cursor_keys_ = app_keypad_ = synchronized_update_ = false;
  other_modes_.clear();
  last_char_ = 0;
  joining_ = false;
  for (auto& kv : osc_place_) kv.second.held = false;
}

void Terminal::ResetModes() {
  pen_ = Cell();
  autowrap_ = true;
  origin_mode_ = insert_mode_ = newline_mode_ = false;
  graphics_[0] = graphics_[1] = false;
  shift_ = 0;
  top_ = 0;
  bottom_ = rows_;
  cursor_.visible = true;
  wrap_next_ = false;
}

void Terminal::BlankRows(int from, int to, uint32_t bg) {
  for (int r = std::max(from, 0); r < std::min(to, rows_); ++r) {
    Line& line = ScreenLine(r);
    BlankCells(&line, 0, cols_, bg);
    line.marks.clear();
    line.wrapped = false;
    line.used = 0;
  }
}

bool Terminal::BlankPastExtent() const {
  for (const Buffer* b : {&main_, &alt_}) {
    for (const Line& line : b->pool) {
      for (size_t c = Extent(line); c < line.cells.size(); ++c) {
        const Cell& cell = line.cells[c];
        if (cell.ch != 0 || cell.fg != 0 || cell.bg != 0 || cell.marks != 0 || cell.attrs != 0 || cell.kind != kNarrow) {
          return false;
        }
      }
    }
  }
  return true;
}

Terminal::Line& Terminal::ScreenLine(int row) {
  return screen_->pool[static_cast<size_t>(screen_->order[static_cast<size_t>(row)])];
}

const Terminal::Line& Terminal::ScreenLine(int row) const {
  return screen_->pool[static_cast<size_t>(screen_->order[static_cast<size_t>(row)])];
}

void Terminal::BlankCells(Line* line, int from, int to, uint32_t bg) {
  from = std::max(from, 0);
  to = std::min(to, static_cast<int>(line->cells.size()));
  static_assert(std::is_trivially_copyable<Cell>::value, "cells are blanked with memset");
  if (from >= to) return;
  if (bg == 0) {
    // Past the extent the cells are blank already.
    int end = std::min(to, line->extent);
    if (from >= end) return;
    memset(static_cast<void*>(line->cells.data() + from), 0, static_cast<size_t>(end - from) * sizeof(Cell));
    if (end == line->extent) line->extent = from;
    return;
  }
  Cell blank;
  blank.bg = bg;
  std::fill(line->cells.begin() + from, line->cells.begin() + to, blank);
  Touch(line, to);
}

// Writing over the right half of a wide character destroys all of it (as
// in xterm; tmux keeps the character and shows it overlapped).
void Terminal::SplitWideAt(Line* line, int col) {
  int n = static_cast<int>(line->cells.size());
  if (col < 0 || col >= n || line->cells[static_cast<size_t>(col)].kind != kWideRight) return;
  bool pair = col > 0 && line->cells[static_cast<size_t>(col - 1)].kind == kWideLeft;
  BlankCells(line, pair ? col - 1 : col, col + 1);
}



char* Terminal::EncodeCells(const Line& line, size_t end, char* out, bool tabs) {
  const Cell* cells = line.cells.data();
  bool in_tab = false;  // the cells of a TAB follow its first
  for (size_t i = 0; i < end; ++i) {
    const Cell& cell = cells[i];
    // Most cells: one narrow ASCII character (or a blank), no marks.
    if (cell.ch < 0x80 && cell.kind == kNarrow && cell.marks == 0) {
      *out++ = cell.ch == 0 ? ' ' : static_cast<char>(cell.ch);
      in_tab = false;
      continue;
    }
    if (cell.kind == kWideRight) continue;  // its character is in the left half
    in_tab = cell.kind == kTab || (in_tab && cell.kind == kTabSkip);
    if (tabs && in_tab) {
      if (cell.kind == kTab) *out++ = '\t';
      continue;
    }
    char32_t first = cell.ch;
    if (first < 0x80) *out++ = first == 0 ? ' ' : static_cast<char>(first);
    else out = WriteUtf8(first, out);
    if (cell.marks == 0) continue;
    for (char32_t mark : line.marks[cell.marks - 1]) out = WriteUtf8(mark, out);
  }
  return out;
}

// Text of cells [0, end).
std::string Terminal::LineText(const Line& line, size_t end, bool tabs) {
  std::string buf(end * kMaxCellBytes, '\0');
  size_t n = static_cast<size_t>(EncodeCells(line, end, &buf[0], tabs) - buf.data());
  return std::string(buf.data(), n);
}

namespace {

// Cells up to the last one that is not blank, looking from `end` back.
template <typename Cells>
size_t TrimmedEnd(const Cells& cells, size_t end) {
  while (end > 0 && (cells[end - 1].ch == 0 || cells[end - 1].ch == ' ') && cells[end - 1].marks == 0 &&
         (cells[end - 1].kind == 0 || cells[end - 1].kind >= 3)) {  // (3, 4: a TAB's cells)
    --end;
  }
  return end;
}

}  // namespace

std::string Terminal::RowText(int row) const {
  if (row < 0 || row >= rows_) return std::string();
  const Line& line = ScreenLine(row);
  return LineText(line, TrimmedEnd(line.cells, Extent(line)));
}

std::string Terminal::RowPrefix(int row, int cols) const {
  if (row < 0 || row >= rows_) return std::string();
  const Line& line = ScreenLine(row);
  return LineText(line, static_cast<size_t>(std::max(0, std::min(cols, cols_))));
}

std::vector<std::string> Terminal::ScreenLines() const {
  std::vector<std::string> lines;
  lines.reserve(static_cast<size_t>(rows_));
  for (int r = 0; r < rows_; ++r) lines.push_back(RowText(r));
  return lines;
}

std::vector<StyleRun> Terminal::RowStyles(int row) const {
  std::vector<StyleRun> runs;
  if (row < 0 || row >= rows_) return runs;
  const Line& line = ScreenLine(row);
  for (int c = 0; c < cols_; ++c) {
    const Cell& cell = line.cells[static_cast<size_t>(c)];
    if (cell.fg == 0 && cell.bg == 0 && cell.attrs == 0) continue;
    if (!runs.empty()) {
      StyleRun& last = runs.back();
      if (last.col + last.len == c && last.fg == cell.fg && last.bg == cell.bg && last.attrs == cell.attrs) {
        ++last.len;
        continue;
      }
    }
    runs.push_back(StyleRun{c, 1, cell.fg, cell.bg, cell.attrs});
  }
  return runs;
}

bool Terminal::RowWrapped(int row) const {
  return row >= 0 && row < rows_ && ScreenLine(row).wrapped;
}

void Terminal::PushHistory(const Line& line) {
  history_.push_back(ToHistory(line));
  ++lines_scrolled_;
}

Terminal::HistoryLine Terminal::ToHistory(const Line& line) {
  size_t end = TrimmedEnd(line.cells, Extent(line));
  if (encode_buf_.size() < end * kMaxCellBytes) encode_buf_.resize(end * kMaxCellBytes);
  size_t n = static_cast<size_t>(EncodeCells(line, end, encode_buf_.data(), true) - encode_buf_.data());
  HistoryLine h{std::string(encode_buf_.data(), n), line.wrapped, 0};
  h.blanks = static_cast<uint16_t>(std::max(0, line.used - static_cast<int>(end)));
  return h;
}

// The cells of a history line again, as they were printed: a character and
// the marks (or joined characters) after it share a cell.
Terminal::Line Terminal::FromHistory(const HistoryLine& h, int cols) {
  Line line;
  line.wrapped = h.wrapped;
  line.cells.reserve(static_cast<size_t>(cols));
  size_t pos = 0;
  bool joining = false;
  uint32_t cp;
  while (pos < h.text.size()) {
    DecodeUtf8(h.text, &pos, &cp);
    if (cp == '\t') {  // a TAB kept in history: its cells up to the next stop of 8
      size_t stop = (line.cells.size() / 8 + 1) * 8;
      Cell cell;
      cell.kind = kTab;
      do {
        line.cells.push_back(cell);
        cell.kind = kTabSkip;
      } while (line.cells.size() < stop);
      joining = false;
      continue;
    }
    int width = CharWidth(cp);
    if ((joining || width <= 0) && !line.cells.empty()) {
      Cell& cell = line.cells[line.cells.size() - (line.cells.back().kind == kWideRight ? 2 : 1)];
      if (cell.marks == 0) {
        line.marks.emplace_back();
        cell.marks = static_cast<uint16_t>(line.marks.size());
      }
      line.marks[cell.marks - 1].push_back(cp);
      joining = cp == 0x200D;
      continue;
    }
    Cell cell;
    cell.ch = cp;
    cell.kind = width == 2 ? kWideLeft : kNarrow;
    line.cells.push_back(cell);
    if (width == 2) {
      cell = Cell();
      cell.kind = kWideRight;
      line.cells.push_back(cell);
    }
  }
  line.used = static_cast<int>(line.cells.size()) + h.blanks;
  line.cells.resize(static_cast<size_t>(std::max(cols, line.used)));
  line.extent = static_cast<int>(line.cells.size());
  return line;
}

void Terminal::TrimHistory() {
  while (history_.size() > scrollback_limit_) {
    if (pinned_ && first_retained_row() >= pin_row_) break;
    history_.pop_front();
  }
}

bool Terminal::LineAt(uint64_t abs, std::string* text, bool* wrapped, bool tabs) const {
  if (abs < first_retained_row()) return false;
  if (abs < lines_scrolled_) {
    const HistoryLine& h = history_[static_cast<size_t>(abs - first_retained_row())];
    if (tabs || h.text.find('\t') == std::string::npos) {
      *text = h.text;
    } else {
      Line cells = FromHistory(h, cols_);
      *text = LineText(cells, TrimmedEnd(cells.cells, Extent(cells)));
    }
    *wrapped = h.wrapped;
    if (h.wrapped) text->append(h.blanks, ' ');
    return true;
  }
  uint64_t row = abs - lines_scrolled_;
  if (row >= static_cast<uint64_t>(rows_)) return false;
  const Line& line = ScreenLine(static_cast<int>(row));
  *wrapped = line.wrapped;
  size_t end = TrimmedEnd(line.cells, Extent(line));
  if (line.wrapped) end = std::max(end, static_cast<size_t>(std::min(line.used, cols_)));
  *text = LineText(line, end, tabs);
  return true;
}

bool Terminal::LineBefore(uint64_t abs, int col, std::string* text) const {
  if (abs < first_retained_row()) return false;
  if (abs >= lines_scrolled_ + static_cast<uint64_t>(rows_)) return false;
  Line history;
  if (abs < lines_scrolled_) history = FromHistory(history_[static_cast<size_t>(abs - first_retained_row())], cols_);
  const Line& line = abs < lines_scrolled_ ? history : ScreenLine(static_cast<int>(abs - lines_scrolled_));
  size_t end = TrimmedEnd(line.cells, std::min(static_cast<size_t>(std::max(col, 0)), Extent(line)));
  *text = LineText(line, end, true);
  return true;
}

void Terminal::PinHistory(uint64_t abs) {
  pinned_ = true;
  pin_row_ = abs;
}

void Terminal::UnpinHistory() {
  pinned_ = false;
  TrimHistory();
}

}  // namespace tuidriver
