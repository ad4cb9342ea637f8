#include "terminal.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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
    : parser_(this), grid_(cols, rows, scrollback_limit), bottom_(rows) {
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
  if (width == 0 || (wrap_next_ ? 0 : cursor_.col) + width > grid_.cols()) {
    PrintCodePoint(cp);  // wraps or drops a wide character at the margin
    return p + bytes;
  }
  if (wrap_next_) WrapToNextLine();
  GridLine& line = grid_.Row(cursor_.row);
  int col = cursor_.col;
  if (line.cells[static_cast<size_t>(col)].kind == kWideRight) line.SplitWideAt(col);
  GridCell* cells = line.cells.data();
  const GridCell pen = pen_;  // a copy: the cells written cannot alias it
  char32_t last = 0;
  for (;;) {
    if (width == 1 && cp < 0x80) {
      // ASCII, most of the text: the bytes up to the margin or the next other byte.
      size_t n = std::min(static_cast<size_t>(end - p), static_cast<size_t>(grid_.cols() - col));
      size_t ascii = 1 + swar::AsciiPrefix(p + 1, n - 1);
      FillAscii(cells + col, p, ascii, pen);
      last = p[ascii - 1];
      p += ascii;
      col += static_cast<int>(ascii);
    } else {
      GridCell& cell = cells[static_cast<size_t>(col)];
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
    if (col >= grid_.cols() || p == end) break;
    bytes = DecodeWhole(p, end, &cp);
    if (bytes == 0) break;
    width = RunWidth(cp);
    if (width == 0 || col + width > grid_.cols()) break;
  }
  line.ClearPaddingAfter(col);
  last_char_ = last;
  line.used = std::max(line.used, col);
  line.Touch(col);
  if (col >= grid_.cols()) {
    cursor_.col = grid_.cols() - 1;
    wrap_next_ = autowrap_;
  } else {
    cursor_.col = col;
  }
  return p;
}

// A cell is written as two words, the character in the low half of the
// first (words are little-endian, swar.h): the pen then stays in registers
// instead of being copied field by field for every character.
void Terminal::FillAscii(GridCell* cells, const unsigned char* text, size_t n, const GridCell& pen) {
  static_assert(offsetof(GridCell, ch) == 0 && sizeof(GridCell::ch) == 4, "the character is the low half of word 0");
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
  if (width == 2 && cursor_.col == grid_.cols() - 1) {
    if (!autowrap_ || grid_.cols() < 2) return;  // it cannot be shown
    WrapToNextLine();
  }
  if (insert_mode_) InsertCells(width);
  GridLine& line = grid_.Row(cursor_.row);
  int col = cursor_.col;
  if (line.cells[static_cast<size_t>(col)].kind == kWideRight) line.SplitWideAt(col);
  line.ClearPaddingAfter(col + width);
  GridCell& cell = line.cells[static_cast<size_t>(col)];
  cell = pen_;
  cell.ch = cp;
  if (width == 2) {
    cell.kind = kWideLeft;
    GridCell& right = line.cells[static_cast<size_t>(col + 1)];
    right = pen_;
    right.kind = kWideRight;
  }
  last_char_ = ascii;
  line.used = std::max(line.used, col + width);
  line.Touch(col + width);
  if (col + width >= grid_.cols()) {
    cursor_.col = grid_.cols() - 1;
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
  GridLine& line = grid_.Row(cursor_.row);
  if (line.cells[static_cast<size_t>(col)].kind == kWideRight) {
    if (col == 0) return;
    --col;
  }
  GridCell& cell = line.cells[static_cast<size_t>(col)];
  size_t bytes = Utf8Length(cell.ch) + Utf8Length(cp);
  if (cell.marks != 0) {
    for (char32_t m : line.marks[cell.marks - 1]) bytes += Utf8Length(m);
  }
  if (bytes > kMaxClusterBytes) return;
  if (cell.marks == 0) {
    // Overwritten cells leave their marks behind: drop them now and then.
    if (line.marks.size() >= line.cells.size() * 2 + 16) line.CompactMarks();
    line.marks.emplace_back();
    cell.marks = static_cast<uint16_t>(line.marks.size());
  }
  line.marks[cell.marks - 1].push_back(cp);
  line.used = std::max(line.used, col + 1);
  line.Touch(col + 1);
  ++generation_;
}

void Terminal::WrapToNextLine() {
  grid_.Row(cursor_.row).wrapped = true;
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
  int down_limit = row < bottom_ ? bottom_ - 1 : grid_.rows() - 1;
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
      grid_.Row(cursor_.row).BlankCells(cursor_.col, std::min(grid_.cols(), cursor_.col + n), pen_.bg);
      wrap_next_ = false;
      break;
    case 'L':
    case 'M':
      // Lines are inserted or deleted only inside the scroll region.
      if (cursor_.row >= top_ && cursor_.row < bottom_) {
        grid_.ScrollRows(cursor_.row, bottom_, csi.final == 'M' ? n : -n, false, pen_.bg);
        cursor_.col = 0;
        wrap_next_ = false;
      }
      break;
    case 'S': grid_.ScrollRows(top_, bottom_, n, !grid_.alt() && top_ == 0, pen_.bg); break;
    case 'T': grid_.ScrollRows(top_, bottom_, -n, false, pen_.bg); break;
    case 'b': {  // REP: as tmux, up to the right margin, never past it
      int times = std::min(n, wrap_next_ ? 0 : grid_.cols() - cursor_.col);
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
      if (set && !grid_.alt()) SaveCursor();
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
      case 47: case 1047: case 1049: state = grid_.alt(); break;
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
  int bottom = std::min(csi.Param(1, grid_.rows()) == 0 ? grid_.rows() : csi.Param(1, grid_.rows()), grid_.rows());
  if (top + 1 >= bottom) return;  // two rows at least, as xterm
  top_ = top;
  bottom_ = bottom;
  MoveTo(origin_mode_ ? top_ : 0, 0);
}

// SGR, as tmux reads it: 16, 256 and RGB colours, with ';' or ':'.
void Terminal::SetGraphics(const CsiSequence& csi) {
  GridCell& pen = pen_;
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
    osc_place_[number] = {grid_.lines_scrolled() + static_cast<uint64_t>(cursor_.row + (next_row ? 1 : 0)),
                          next_row ? 0 : cursor_.col, grid_.alt(), true};
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
  uint64_t top = grid_.lines_scrolled();
  auto before = [](uint64_t r1, int c1, uint64_t r2, int c2) { return r1 < r2 || (r1 == r2 && c1 < c2); };
  for (auto& kv : osc_place_) {
    OscPlace& p = kv.second;
    if (p.alt != grid_.alt() || !p.held) continue;
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
  cursor_.row = std::clamp(row, 0, grid_.rows() - 1);
  cursor_.col = std::clamp(col, 0, grid_.cols() - 1);
  wrap_next_ = false;
}

void Terminal::Index(uint32_t bg) {
  if (cursor_.row == bottom_ - 1) grid_.ScrollRows(top_, bottom_, 1, !grid_.alt() && top_ == 0, bg);
  else if (cursor_.row < grid_.rows() - 1) ++cursor_.row;
}

void Terminal::ReverseIndex() {
  if (cursor_.row == top_) grid_.ScrollRows(top_, bottom_, -1, false, pen_.bg);
  else if (cursor_.row > 0) --cursor_.row;
}

void Terminal::Tab(int count) {
  int col = cursor_.col;
  while (count-- > 0) {
    do ++col;
    while (col < grid_.cols() - 1 && !tab_stops_[static_cast<size_t>(col)]);
    if (col >= grid_.cols() - 1) break;
  }
  cursor_.col = std::min(col, grid_.cols() - 1);
}

// Cells [from, to) a TAB moved over, if all blank.
void Terminal::MarkTab(int from, int to) {
  if (to <= from) return;
  GridLine& line = grid_.Row(cursor_.row);
  for (int c = from; c < to; ++c) {
    const GridCell& cell = line.cells[static_cast<size_t>(c)];
    if ((cell.ch != 0 && cell.ch != ' ') || cell.marks != 0 || (cell.kind != kNarrow && cell.kind != kTabSkip)) {
      return;
    }
  }
  for (int c = from; c < to; ++c) line.cells[static_cast<size_t>(c)].kind = c == from ? kTab : kTabSkip;
  line.Touch(to);
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
  SavedCursor& s = saved_[grid_.alt()];
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
  const SavedCursor& s = saved_[grid_.alt()];
  MoveTo(s.row, s.col);
  origin_mode_ = s.origin_mode;
  graphics_[0] = s.graphics[0];
  graphics_[1] = s.graphics[1];
  shift_ = s.shift;
  pen_ = s.pen;
}

// The alternate screen starts blank each time, as in tmux.
void Terminal::SwitchScreen(bool alt) {
  if (alt == grid_.alt()) return;
  if (!alt) {
    for (auto& kv : osc_place_) kv.second.held &= !kv.second.alt;  // that screen is gone
  }
  grid_.UseAlt(alt);
  if (alt) grid_.BlankRows(0, grid_.rows());
  // A pending wrap stays pending across the switch, as in tmux and xterm.
}

// Erases keep a pending wrap, as EL does (below).
void Terminal::EraseInDisplay(int how) {
  if (how == 0) {
    EraseInLine(0);
    grid_.BlankRows(cursor_.row + 1, grid_.rows(), pen_.bg);
  } else if (how == 1) {
    grid_.BlankRows(0, cursor_.row, pen_.bg);
    EraseInLine(1);
  } else if (how == 2) {
    grid_.BlankRows(0, grid_.rows(), pen_.bg);
  }
  // 3 (erase the scrollback) keeps the history: replies may still be read from it.
  if (how == 0) ForgetOscPlaces(cursor_.row, cursor_.col, grid_.rows(), 0);
  else if (how == 1) ForgetOscPlaces(0, 0, cursor_.row, cursor_.col + 1);
  else if (how == 2) ForgetOscPlaces(0, 0, grid_.rows(), 0);
}

// With a wrap pending the cursor is past the last column, as tmux and
// xterm.js keep it: EL 0 erases nothing, EL 1 the whole row, and the wrap
// stays pending (the next character starts the next row). X11 xterm and
// the Linux console cancel the wrap and erase the last column: GNU grep's
// colours end a match with ESC[K, and a match ending in the last column
// would lose its last character.
void Terminal::EraseInLine(int how) {
  if (how > 2) return;
  GridLine& line = grid_.Row(cursor_.row);
  int col = wrap_next_ ? grid_.cols() : cursor_.col;
  int from = how == 0 ? col : 0;
  int to = how == 1 ? std::min(col + 1, grid_.cols()) : grid_.cols();
  if (from >= to) return;
  line.BlankCells(from, to, pen_.bg);  // a wide character's other half stays, as in tmux
  if (to == grid_.cols()) line.wrapped = false;
  ForgetOscPlaces(cursor_.row, from, cursor_.row, to);
}

// ICH and DCH move cells as they are: a wide character's halves may part,
// and a lone half stays (the left one still shows its character), as in tmux.
void Terminal::InsertCells(int count) {
  GridLine& line = grid_.Row(cursor_.row);
  int col = cursor_.col;
  int n = std::min(count, grid_.cols() - col);
  std::copy_backward(line.cells.begin() + col, line.cells.end() - n, line.cells.end());
  if (line.extent > col) line.extent = std::min(grid_.cols(), line.extent + n);
  line.BlankCells(col, col + n, pen_.bg);
  if (line.used > col) line.used = std::min(grid_.cols(), line.used + n);
  wrap_next_ = false;
}

void Terminal::DeleteCells(int count) {
  GridLine& line = grid_.Row(cursor_.row);
  int col = cursor_.col;
  int n = std::min(count, grid_.cols() - col);
  std::copy(line.cells.begin() + col + n, line.cells.end(), line.cells.begin() + col);
  line.BlankCells(grid_.cols() - n, grid_.cols(), pen_.bg);
  wrap_next_ = false;
}

void Terminal::ScreenAlignment() {
  for (int r = 0; r < grid_.rows(); ++r) {
    GridLine& line = grid_.Row(r);
    for (GridCell& cell : line.cells) {
      cell = GridCell();
      cell.ch = 'E';
    }
    line.marks.clear();
    line.wrapped = false;
    line.used = grid_.cols();
    line.extent = grid_.cols();
  }
  top_ = 0;
  bottom_ = grid_.rows();
  origin_mode_ = false;
  MoveTo(0, 0);
}

// RIS: a full reset. The history stays.
void Terminal::Reset() {
  SwitchScreen(false);
  grid_.BlankRows(0, grid_.rows());
  ResetModes();
  saved_[0] = saved_[1] = SavedCursor();
  std::fill(tab_stops_.begin(), tab_stops_.end(), false);
  for (int c = 0; c < grid_.cols(); c += 8) tab_stops_[static_cast<size_t>(c)] = true;
  MoveTo(0, 0);
  bracketed_paste_ = app_cursor_keys_ = app_keypad_ = synchronized_update_ = false;
  other_modes_.clear();
  last_char_ = 0;
  joining_ = false;
  for (auto& kv : osc_place_) kv.second.held = false;
}

void Terminal::ResetModes() {
  pen_ = GridCell();
  autowrap_ = true;
  origin_mode_ = insert_mode_ = newline_mode_ = false;
  graphics_[0] = graphics_[1] = false;
  shift_ = 0;
  top_ = 0;
  bottom_ = grid_.rows();
  cursor_.visible = true;
  wrap_next_ = false;
}

std::vector<std::string> Terminal::ScreenLines() const {
  std::vector<std::string> lines;
  lines.reserve(static_cast<size_t>(grid_.rows()));
  for (int r = 0; r < grid_.rows(); ++r) lines.push_back(grid_.RowText(r));
  return lines;
}

// The grid resizes the cells (grid_reflow.cc); the cursor, the tab stops and
// the scroll region follow here.
void Terminal::Resize(int cols, int rows) {
  int old_cols = grid_.cols();
  int old_rows = grid_.rows();
  // The main screen's cursor: the live one, or the one saved on entering
  // the alternate screen (restored on leaving it).
  SavedCursor& saved = saved_[0];
  bool alt = grid_.alt();
  GridCursor main{alt ? std::clamp(saved.row, 0, old_rows - 1) : cursor_.row,
                  alt ? std::clamp(saved.col, 0, old_cols - 1) : cursor_.col, alt ? saved.wrap_next : wrap_next_};
  int alt_row = cursor_.row;
  std::vector<GridPlace*> places;
  for (auto& kv : osc_place_) places.push_back(&kv.second);
  grid_.Resize(cols, rows, &main, alt ? &alt_row : nullptr, autowrap_, places);
  if (cols == old_cols && rows == old_rows) return;
  tab_stops_.resize(static_cast<size_t>(cols), false);
  for (int c = (old_cols + 7) / 8 * 8; c < cols; c += 8) tab_stops_[static_cast<size_t>(c)] = true;
  // The region goes back to the whole screen; a program redraws (and sets
  // its region again) on the SIGWINCH that follows.
  top_ = 0;
  bottom_ = rows;
  if (alt) {
    saved.row = main.row;
    saved.col = main.col;
    saved.wrap_next = main.wrap_next;
    MoveTo(alt_row, cursor_.col);
  } else {
    MoveTo(main.row, main.col);
    wrap_next_ = main.wrap_next && cursor_.col == cols - 1;
  }
  ++generation_;
}

}  // namespace tuidriver
